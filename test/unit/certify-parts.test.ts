// The parts of a certification bundle that need no run: the profile's secrets
// as scrypt fingerprints, and the target's fingerprint (a real https server's
// certificate, compared with what openssl says of it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fingerprintMatches, MAX_FINGERPRINTED_SECRETS, profileWithHashedSecrets, SECRET_LEFT_OUT, secretFingerprint } from '../../src/certify/profile-secrets.ts';
import { tlsCertificateSha256 } from '../../app/certify/target-fingerprint.ts';
import { makePki, startTlsFront } from '../support/tls.ts';

test('secrets become scrypt fingerprints: the client secret wherever it appears, and values under secret-named keys', async () => {
  const profile = {
    baseUrl: 'https://sandbox.example.com',
    credentials: { clientId: 'partner-1', clientSecret: 's3cret-0815' },
    auth: { jwksAccess: { header: 'x-api-key', value: 'k-123' } },
    webhooks: { signature: { scheme: 'hmac', sharedSecret: 'whsec', keys: ['a'] } },
    trading: { createOffer: { method: 'POST', path: '/sandbox/offers', headers: { Authorization: 'Basic abc', 'svc-user-id': '{userId}' } } },
    users: { note: 'the secret is s3cret-0815' },
  };
  const { content, hashedSecrets } = await profileWithHashedSecrets(profile, ['s3cret-0815'], 'a1b2');
  const text = JSON.stringify(content);
  for (const secret of ['s3cret-0815', 'whsec', 'k-123', 'Basic abc']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
  const fingerprint = (content as typeof profile).credentials.clientSecret;
  assert.equal(fingerprint, secretFingerprint('a1b2', 's3cret-0815'));
  assert.match(fingerprint, /^scrypt:N=32768,r=8,p=1:a1b2:[0-9a-f]{64}$/);
  assert.ok(fingerprintMatches(fingerprint, 's3cret-0815'), 'whoever holds the secret confirms it');
  assert.ok(!fingerprintMatches(fingerprint, 's3cret-0816'));
  assert.equal((content as typeof profile).credentials.clientId, 'partner-1', 'what is not secret stays readable');
  assert.equal((content as typeof profile).baseUrl, 'https://sandbox.example.com');
  assert.deepEqual(hashedSecrets.sort(), ['auth.jwksAccess.value', 'credentials.clientSecret', 'trading.createOffer.headers.Authorization', 'users.note', 'webhooks.signature.sharedSecret']);
  assert.equal((content as typeof profile).trading.createOffer.headers['svc-user-id'], '{userId}');
  assert.notEqual(secretFingerprint('c3d4', 's3cret-0815'), fingerprint, 'another salt, another fingerprint');
});

test('a profile of more distinct secrets than MAX_FINGERPRINTED_SECRETS: the first are fingerprinted, the rest left out', async () => {
  const tokens = Object.fromEntries(Array.from({ length: MAX_FINGERPRINTED_SECRETS + 3 }, (_, i) => [`t${i}`, { token: `value-${i}` }]));
  const { content, hashedSecrets } = await profileWithHashedSecrets({ tokens }, [], 'a1b2');
  const shown = Object.values((content as { tokens: Record<string, { token: string }> }).tokens).map((t) => t.token);
  assert.equal(hashedSecrets.length, MAX_FINGERPRINTED_SECRETS + 3);
  assert.ok(shown.slice(0, MAX_FINGERPRINTED_SECRETS).every((value) => value.startsWith('scrypt:')));
  assert.ok(fingerprintMatches(shown[0]!, 'value-0') && fingerprintMatches(shown[MAX_FINGERPRINTED_SECRETS - 1]!, `value-${MAX_FINGERPRINTED_SECRETS - 1}`));
  assert.deepEqual(shown.slice(MAX_FINGERPRINTED_SECRETS), [SECRET_LEFT_OUT, SECRET_LEFT_OUT, SECRET_LEFT_OUT]);
  assert.ok(!JSON.stringify(content).includes('value-'));
});

test("an https target's certificate fingerprint is the one openssl computes; an http target has none", async () => {
  const pki = makePki();
  const upstream = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const front = await startTlsFront(pki, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, { requireClientCert: false });
  try {
    const expected = execFileSync('openssl', ['x509', '-in', pki.serverCert, '-noout', '-fingerprint', '-sha256'], { encoding: 'utf8' }).trim().split('=')[1];
    assert.equal(await tlsCertificateSha256({ baseUrl: front.url, insecure: false }), expected);
    assert.equal(await tlsCertificateSha256({ baseUrl: 'http://127.0.0.1:1', insecure: false }), null);
    assert.equal(await tlsCertificateSha256({ baseUrl: 'https://127.0.0.1:1', insecure: false }), null, 'no handshake: none recorded');
  } finally {
    await front.close();
    upstream.close();
  }
});
