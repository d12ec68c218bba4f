// Content-Digest (RFC 9530) verification against the RFC's own example values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { contentDigest, isDeprecatedDigestAlgorithm, verifyContentDigest } from '../../src/webhooks/digest.ts';

// RFC 9421 Appendix B.2 / RFC 9530: the 18-byte body {"hello": "world"}.
const BODY = Buffer.from('{"hello": "world"}');
const SHA256 = 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:';
const SHA512 = 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:';
const BOTH: Array<'sha-256' | 'sha-512'> = ['sha-256', 'sha-512'];

test('the computed digests equal the RFC example values', () => {
  assert.equal(contentDigest(BODY, ['sha-256']), SHA256);
  assert.equal(contentDigest(BODY, ['sha-512']), SHA512);
  assert.equal(contentDigest(BODY, BOTH), `${SHA256}, ${SHA512}`);
});

test('a matching sha-256 or sha-512 digest verifies, alone or together', () => {
  for (const header of [SHA256, SHA512, `${SHA512}, ${SHA256}`]) {
    const verdict = verifyContentDigest(header, BODY, BOTH);
    assert.equal(verdict.ok, true, `${header}: ${verdict.reason}`);
  }
});

test('a tampered body fails with both digests named', () => {
  const verdict = verifyContentDigest(SHA256, Buffer.from('{"hello": "World"}'), BOTH);
  assert.equal(verdict.ok, false);
  assert.match(verdict.reason!, /sha-256 does not match the 18-byte body: received X48E9q.*body hashes to /);
});

test('every accepted digest must match, not just one', () => {
  const wrong512 = 'sha-512=:' + Buffer.alloc(64).toString('base64') + ':';
  const verdict = verifyContentDigest(`${SHA256}, ${wrong512}`, BODY, BOTH);
  assert.equal(verdict.ok, false);
  assert.match(verdict.reason!, /sha-512 does not match/);
});

test('algorithms outside the accepted set are ignored, but one accepted algorithm is needed', () => {
  const onlyMd5 = verifyContentDigest('md5=:XrY7u+Ae7tCTyyK7j1rNww==:', BODY, BOTH);
  assert.equal(onlyMd5.ok, false);
  assert.match(onlyMd5.reason!, /carries md5, none of the accepted sha-256, sha-512/);

  const withMd5 = verifyContentDigest(`md5=:XrY7u+Ae7tCTyyK7j1rNww==:, ${SHA256}`, BODY, BOTH);
  assert.equal(withMd5.ok, true);
  assert.deepEqual(withMd5.ignored, ['md5']);

  // A profile that accepts only sha-512 does not take a sha-256 digest.
  assert.equal(verifyContentDigest(SHA256, BODY, ['sha-512']).ok, false);
});

test('malformed and legacy forms are rejected with a reason', () => {
  assert.match(verifyContentDigest(undefined, BODY, BOTH).reason!, /no Content-Digest header/);
  // The obsolete Digest header syntax (RFC 3230): upper-case key, bare base64.
  assert.match(verifyContentDigest('SHA-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=', BODY, BOTH).reason!, /not a structured-field dictionary/);
  assert.match(verifyContentDigest('sha-256="X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE="', BODY, BOTH).reason!, /not a byte sequence/);
});

test('with no algorithms declared, any RFC 9530 algorithm the suite can compute is accepted', () => {
  const md5 = verifyContentDigest('md5=:XrY7u+Ae7tCTyyK7j1rNww==:', Buffer.from(''), undefined);
  assert.equal(md5.kind, 'mismatch', 'md5 is compared (and this is not the empty body\'s md5)');
  assert.equal(verifyContentDigest(contentDigest(BODY, ['sha-512']), BODY).kind, 'match');
  assert.equal(verifyContentDigest(`sha=:${createHash('sha1').update(BODY).digest('base64')}:`, BODY).ok, true);
  // Registered, but not computable by the suite: ignored, so nothing was compared.
  const unixsum = verifyContentDigest('unixsum=:AAAA:', BODY);
  assert.equal(unixsum.kind, 'unaccepted');
  assert.deepEqual(unixsum.ignored, ['unixsum']);
  assert.equal(isDeprecatedDigestAlgorithm('md5'), true);
  assert.equal(isDeprecatedDigestAlgorithm('sha-512'), false);
});

test('each outcome has its kind: missing, malformed, mismatch, match', () => {
  assert.equal(verifyContentDigest(undefined, BODY).kind, 'missing');
  assert.equal(verifyContentDigest('sha-256="x"', BODY).kind, 'malformed');
  assert.equal(verifyContentDigest(SHA256, Buffer.from('other')).kind, 'mismatch');
  assert.equal(verifyContentDigest(SHA256, BODY).kind, 'match');
});
