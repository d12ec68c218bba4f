import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, fingerprint, secretMarker } from '../../src/http/redact.ts';
import { connectionOf, secretRedactor } from '../../src/http/connection.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';

const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJjbGllbnQiLCJqdGkiOiIxMjM0In0.c2lnbmF0dXJlLWJ5dGVz';

test('a known secret becomes a marker with a stable hash prefix, wherever it appears', () => {
  const r = new Redactor([['s3cr3t-value', 'client_secret']]);
  const out = r.redactString('url?x=s3cr3t-value and again s3cr3t-value');
  assert.ok(!out.includes('s3cr3t-value'));
  assert.equal(out, `url?x=${secretMarker('client_secret', 's3cr3t-value')} and again ${secretMarker('client_secret', 's3cr3t-value')}`);
  assert.equal(fingerprint('s3cr3t-value').length, 8);
});

test('JWT-shaped strings are redacted even when never registered', () => {
  const r = new Redactor();
  const out = r.redactString(`token=${JWT}.`);
  assert.ok(!out.includes(JWT));
  assert.match(out, /«token#[0-9a-f]{8}»/);
});

test('JSON keys that hold secrets are replaced and learned, so later plain-text copies are caught too', () => {
  const r = new Redactor();
  const body = r.redactJson({ access_token: 'opaque-access-123', nested: { refresh_token: 'opaque-refresh-456' }, keep: 'visible' }) as Record<string, unknown>;
  assert.match(String(body.access_token), /^«access_token#/);
  assert.equal(body.keep, 'visible');
  assert.ok(!r.redactString('echo opaque-refresh-456').includes('opaque-refresh-456'));
});

test('Authorization keeps its scheme, Signature is hidden whole, other headers pass', () => {
  const r = new Redactor();
  const h = r.redactHeaders({ authorization: 'Bearer opaque-bearer-token', signature: 'sig1=:abc:', 'content-type': 'application/json' });
  assert.match(h.authorization!, /^Bearer «bearer#[0-9a-f]{8}»$/);
  assert.match(h.signature!, /^«signature#/);
  assert.equal(h['content-type'], 'application/json');
});

test('shell style uses placeholders so curl lines can be pasted', () => {
  const r = new Redactor([['s3cr3t-value', 'client_secret']]);
  assert.equal(r.redactString('x s3cr3t-value', 'shell'), 'x $PTAS_CLIENT_SECRET');
  assert.equal(r.redactHeaderValue('authorization', `Bearer ${JWT}`, 'shell'), 'Bearer $BEARER');
});

test('form bodies get the same key treatment as JSON', () => {
  const r = new Redactor();
  const out = r.redactBody('grant_type=client_credentials&client_secret=form-secret-1');
  assert.ok(!out.includes('form-secret-1'));
  assert.match(out, /^grant_type=client_credentials&client_secret=«client_secret#/);
});

test('short values are not treated as secrets (they would redact ordinary text)', () => {
  const r = new Redactor([['abc', 'client_secret']]);
  assert.equal(r.redactString('abc'), 'abc');
});

test("a run's redactor knows every secret of its profile, not only the client secret: another client's secret, a key sent as a header, a shared secret", () => {
  const profile = {
    baseUrl: 'https://sandbox.acme.example',
    credentials: { clientId: 'partner', clientSecret: 'client-secret-1' },
    users: { ownLicence: { clientId: 'other', clientSecret: 'other-client-secret-2' } },
    trading: { createOffer: { method: 'POST', path: '/offers', headers: { 'x-partner-token': 'partner-token-3', 'x-note': 'shown-as-it-is' } } },
    webhooks: { signature: { scheme: 'hmac', secret: 'shared-secret-4', secretEncoding: 'base64' } },
  } as unknown as ResolvedProfile;
  const redactor = secretRedactor(connectionOf(profile));
  const text = redactor.redactString('client-secret-1 other-client-secret-2 partner-token-3 shared-secret-4 shown-as-it-is base64');
  assert.doesNotMatch(text, /client-secret-1|other-client-secret-2|partner-token-3|shared-secret-4/);
  assert.match(text, /shown-as-it-is base64$/);
  assert.match(redactor.redactString('partner-token-3', 'shell'), /^\$X_PARTNER_TOKEN$/);
});
