// RFC 9421 signature-base construction and verification, against the RFC's
// Appendix B test vectors (B.2.1-B.2.3 bases, B.2.4 ECDSA P-256, B.2.5 HMAC
// and B.2.6 Ed25519 signatures), plus round trips for ECDSA P-256 and
// RSA-PSS, tampering, wrong keys, coverage and time rules, DER-encoded ECDSA
// (refused, with the reason), the HMAC profile scheme, and the reference's
// own signer (Ed25519, ECDSA, hmac-sha256 and its fault options) checked by
// the suite's verifier.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPrivateKey, generateKeyPairSync, sign as nodeSign, webcrypto } from 'node:crypto';
import { parseDictionary, serializeDictionary, type InnerList } from 'structured-headers';
import type { JWK } from 'jose';
import { buildSignatureBase, SignatureBaseError, type SignedRequest } from '../../src/webhooks/signature/base.ts';
import { verifyRfc9421, type Rfc9421Policy } from '../../src/webhooks/signature/rfc9421.ts';
import { algorithmForJwk, derEncodingHint, verifySignatureBytes } from '../../src/webhooks/signature/algorithms.ts';
import { expectedHmacSignature, hmacInput, verifyHmac } from '../../src/webhooks/signature/hmac.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import type { HmacSignatureProfile } from '../../src/config/sections/webhooks.ts';
import { WebhookSigner, type SignatureFields } from '../../reference/webhooks/signer.ts';

// RFC 9421 Appendix B.2: the test request.
const RFC_DIGEST = 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:';
const RFC_REQUEST: SignedRequest = {
  method: 'POST',
  targetUri: 'https://example.com/foo?param=Value&Pet=dog',
  requestTarget: '/foo?param=Value&Pet=dog',
  fieldLines: [
    ['host', 'example.com'],
    ['date', 'Tue, 20 Apr 2021 02:07:55 GMT'],
    ['content-type', 'application/json'],
    ['content-digest', RFC_DIGEST],
    ['content-length', '18'],
  ],
};
// Appendix B.1.4 test-key-ed25519 and B.1.5 test-shared-secret.
const ED25519_PUBLIC: JWK = { kty: 'OKP', crv: 'Ed25519', kid: 'test-key-ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
const ED25519_PRIVATE_D = 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU';
const SHARED_SECRET = Buffer.from('uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ==', 'base64');

const B26_INPUT = 'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"';
const B26_SIGNATURE = 'sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:';
const B25_INPUT = 'sig-b25=("date" "@authority" "content-type");created=1618884473;keyid="test-shared-secret"';
const B25_SIGNATURE = 'sig-b25=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:';

/** The RFC vectors were made in April 2021: created lies in that past. */
const AT_RFC_TIME: Rfc9421Policy = { requiredComponents: [], skewSeconds: 60, now: new Date(1618884473 * 1000) };

function innerList(signatureInput: string): InnerList {
  const [, member] = [...parseDictionary(signatureInput)][0]!;
  return member as InnerList;
}

function withSignature(message: SignedRequest, input: string, signature: string): SignedRequest {
  return { ...message, fieldLines: [...message.fieldLines, ['signature-input', input], ['signature', signature]] };
}

test('B.2.1: the minimal signature base is the parameters line alone', () => {
  const base = buildSignatureBase(RFC_REQUEST, innerList('sig-b21=();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd"'));
  assert.equal(base, '"@signature-params": ();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd"');
});

test('B.2.2: @authority, content-digest and @query-param', () => {
  const base = buildSignatureBase(
    RFC_REQUEST,
    innerList('sig-b22=("@authority" "content-digest" "@query-param";name="Pet");created=1618884473;keyid="test-key-rsa-pss";tag="header-example"'),
  );
  assert.equal(
    base,
    [
      '"@authority": example.com',
      `"content-digest": ${RFC_DIGEST}`,
      '"@query-param";name="Pet": dog',
      '"@signature-params": ("@authority" "content-digest" "@query-param";name="Pet");created=1618884473;keyid="test-key-rsa-pss";tag="header-example"',
    ].join('\n'),
  );
});

test('B.2.3: full coverage of the request', () => {
  const base = buildSignatureBase(
    RFC_REQUEST,
    innerList('sig-b23=("date" "@method" "@path" "@query" "@authority" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-rsa-pss"'),
  );
  assert.equal(
    base,
    [
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@method": POST',
      '"@path": /foo',
      '"@query": ?param=Value&Pet=dog',
      '"@authority": example.com',
      '"content-type": application/json',
      `"content-digest": ${RFC_DIGEST}`,
      '"content-length": 18',
      '"@signature-params": ("date" "@method" "@path" "@query" "@authority" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-rsa-pss"',
    ].join('\n'),
  );
});

test('B.2.6: the Ed25519 signature is reproduced byte for byte and verifies', async () => {
  const base = buildSignatureBase(RFC_REQUEST, innerList(B26_INPUT));
  const key = createPrivateKey({ key: { ...ED25519_PUBLIC, d: ED25519_PRIVATE_D }, format: 'jwk' });
  const signature = serializeDictionary(new Map([['sig-b26', [nodeSign(null, Buffer.from(base), key), new Map()]]]));
  assert.equal(signature, B26_SIGNATURE, 'Ed25519 is deterministic: the same base gives the RFC signature');

  const verdict = await verifyRfc9421(withSignature(RFC_REQUEST, B26_INPUT, B26_SIGNATURE), { jwks: { keys: [ED25519_PUBLIC] } }, AT_RFC_TIME);
  assert.equal(verdict.verified, true, verdict.reason);
  assert.match(verdict.reason, /sig-b26 verifies with key test-key-ed25519 \(ed25519\)/);
});

test('B.2.5: the HMAC-SHA256 signature verifies with the shared secret', async () => {
  const verdict = await verifyRfc9421(withSignature(RFC_REQUEST, B25_INPUT, B25_SIGNATURE), { sharedSecret: SHARED_SECRET }, AT_RFC_TIME);
  assert.equal(verdict.verified, true, verdict.reason);
});

test('a changed covered component or a wrong key does not verify', async () => {
  const keys = { jwks: { keys: [ED25519_PUBLIC] } };
  const signed = withSignature(RFC_REQUEST, B26_INPUT, B26_SIGNATURE);
  const otherDate = { ...signed, fieldLines: signed.fieldLines.map(([n, v]): [string, string] => [n, n === 'date' ? 'Tue, 20 Apr 2021 02:07:56 GMT' : v]) };
  const tampered = await verifyRfc9421(otherDate, keys, AT_RFC_TIME);
  assert.equal(tampered.verified, false);
  assert.match(tampered.reason, /sig-b26 does not verify with test-key-ed25519 \(ed25519\)/);

  const otherAuthority = await verifyRfc9421({ ...signed, targetUri: 'https://example.org/foo?param=Value&Pet=dog' }, keys, AT_RFC_TIME);
  assert.equal(otherAuthority.verified, false);

  const stranger = { ...generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }), kid: 'test-key-ed25519' } as JWK;
  const wrongKey = await verifyRfc9421(signed, { jwks: { keys: [stranger] } }, AT_RFC_TIME);
  assert.equal(wrongKey.verified, false);

  const unknownKid = await verifyRfc9421(signed, { jwks: { keys: [{ ...ED25519_PUBLIC, kid: 'other' }] } }, AT_RFC_TIME);
  assert.match(unknownKid.reason, /keyid test-key-ed25519 is not in the configured key set \(kids: other\)/);
});

test('required coverage, created in the future and expires in the past are enforced', async () => {
  const keys = { jwks: { keys: [ED25519_PUBLIC] } };
  const signed = withSignature(RFC_REQUEST, B26_INPUT, B26_SIGNATURE);
  const uncovered = await verifyRfc9421(signed, keys, { ...AT_RFC_TIME, requiredComponents: ['@method', ['@target-uri', '@path'], 'content-digest'] });
  assert.match(uncovered.reason, /does not cover content-digest/);
  assert.equal(uncovered.problem, 'coverage', 'the bytes verify: what is wrong is what they cover');

  const early = await verifyRfc9421(signed, keys, { ...AT_RFC_TIME, now: new Date((1618884473 - 3600) * 1000) });
  assert.match(early.reason, /created 3600 s in the future/);
  assert.equal(early.problem, 'timing');

  const expiring = 'sig1=("date");created=1618884473;expires=1618884483;keyid="test-key-ed25519"';
  const expired = await verifyRfc9421(withSignature(RFC_REQUEST, expiring, B26_SIGNATURE.replace('sig-b26', 'sig1')), keys, { ...AT_RFC_TIME, now: new Date((1618884483 + 3600) * 1000) });
  assert.match(expired.reason, /expired 3600 s before it arrived/);
  assert.equal(expired.problem, 'signature');
});

test('a signature that does not verify is classed so, whatever its coverage', async () => {
  const stranger = { ...ED25519_PUBLIC, x: Buffer.alloc(32, 7).toString('base64url') };
  const signed = withSignature(RFC_REQUEST, B26_INPUT, B26_SIGNATURE);
  const verdict = await verifyRfc9421(signed, { jwks: { keys: [stranger] } }, { ...AT_RFC_TIME, requiredComponents: ['content-digest'] });
  assert.equal(verdict.problem, 'signature');
  assert.match(verdict.reason, /does not cover content-digest.*; signature sig-b26 does not verify/);
});

test('missing or malformed signature fields fail with a reason', async () => {
  const keys = { jwks: { keys: [ED25519_PUBLIC] } };
  assert.match((await verifyRfc9421(RFC_REQUEST, keys, AT_RFC_TIME)).reason, /no Signature-Input header/);
  assert.match((await verifyRfc9421(withSignature(RFC_REQUEST, 'sig1=("date"', B26_SIGNATURE), keys, AT_RFC_TIME)).reason, /not a structured-field dictionary/);
  assert.match((await verifyRfc9421(withSignature(RFC_REQUEST, B26_INPUT, 'sig1=:AAAA:'), keys, AT_RFC_TIME)).reason, /no byte sequence for label sig-b26/);
  const wanted = await verifyRfc9421(withSignature(RFC_REQUEST, B26_INPUT, B26_SIGNATURE), keys, { ...AT_RFC_TIME, label: 'other' });
  assert.match(wanted.reason, /no inner list for label other/);
});

test('derived components follow RFC 9421 section 2.2', () => {
  const message: SignedRequest = {
    method: 'GET',
    targetUri: 'https://WWW.Example.com:443/a%2Fb?var=this%20is%20a%20big%0Aval&bar=with+plus+whitespace&empty=',
    requestTarget: '/a%2Fb?var=this%20is%20a%20big%0Aval&bar=with+plus+whitespace&empty=',
    fieldLines: [
      ['x-list', 'a, b'],
      ['x-list', ' c '],
      ['content-digest', 'sha-256=:AAAA:,  sha-512=:BBBB:'],
    ],
  };
  const base = buildSignatureBase(
    message,
    innerList(
      'sig=("@authority" "@scheme" "@request-target" "@path" "@query" "@query-param";name="var" "@query-param";name="bar" "@query-param";name="empty" "x-list" "x-list";bs "content-digest";sf "content-digest";key="sha-512")',
    ),
  );
  assert.deepEqual(base.split('\n').slice(0, -1), [
    '"@authority": www.example.com',
    '"@scheme": https',
    '"@request-target": /a%2Fb?var=this%20is%20a%20big%0Aval&bar=with+plus+whitespace&empty=',
    '"@path": /a%2Fb',
    '"@query": ?var=this%20is%20a%20big%0Aval&bar=with+plus+whitespace&empty=',
    '"@query-param";name="var": this%20is%20a%20big%0Aval',
    '"@query-param";name="bar": with%20plus%20whitespace',
    '"@query-param";name="empty": ',
    '"x-list": a, b, c',
    '"x-list";bs: :YSwgYg==:, :Yw==:',
    '"content-digest";sf: sha-256=:AAAA:, sha-512=:BBBB:',
    '"content-digest";key="sha-512": :BBBB:',
  ]);
  const empty: SignedRequest = { method: 'POST', targetUri: 'http://h.example', requestTarget: '', fieldLines: [] };
  assert.equal(buildSignatureBase(empty, innerList('s=("@path" "@query")')).split('\n').slice(0, 2).join('|'), '"@path": /|"@query": ?');
});

test('components a request cannot have are errors, never guesses', () => {
  for (const input of ['s=("@status")', 's=("x-missing")', 's=("@unknown")', 's=("date";req)', 's=("date" "date")', 's=("date";sf)', 's=("@query-param";name="nope")']) {
    assert.throws(() => buildSignatureBase(RFC_REQUEST, innerList(input)), SignatureBaseError, input);
  }
});

test('ECDSA P-256 and RSA-PSS SHA-512 signatures round-trip through WebCrypto', async () => {
  const input = 'sig1=("@method" "@target-uri" "content-digest");created=1618884473;keyid="k"';
  const cases = [
    { alg: 'ecdsa-p256-sha256', generate: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
    { alg: 'rsa-pss-sha512', generate: { name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-512' }, sign: { name: 'RSA-PSS', saltLength: 64 } },
  ] as const;
  for (const c of cases) {
    const pair = (await webcrypto.subtle.generateKey(c.generate, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const jwk = { ...(await webcrypto.subtle.exportKey('jwk', pair.publicKey)), kid: 'k' } as JWK;
    const withAlg = `${input};alg="${c.alg}"`;
    const base = buildSignatureBase(RFC_REQUEST, innerList(withAlg));
    const bytes = new Uint8Array(await webcrypto.subtle.sign(c.sign, pair.privateKey, Buffer.from(base)));
    const signature = serializeDictionary(new Map([['sig1', [bytes, new Map()]]]));
    const ok = await verifyRfc9421(withSignature(RFC_REQUEST, withAlg, signature), { jwks: { keys: [jwk] } }, AT_RFC_TIME);
    assert.equal(ok.verified, true, `${c.alg}: ${ok.reason}`);
    const tampered = { ...RFC_REQUEST, method: 'PUT' };
    assert.equal((await verifyRfc9421(withSignature(tampered, withAlg, signature), { jwks: { keys: [jwk] } }, AT_RFC_TIME)).verified, false, c.alg);
  }
});

function delivery(fieldLines: Array<[string, string]>, body: string): ReceivedDelivery {
  return {
    seq: 1,
    method: 'POST',
    requestTarget: '/hook',
    targetUri: 'http://127.0.0.1:9/hook',
    fieldLines,
    body: Buffer.from(body),
    bodyTruncated: false,
    receivedAt: new Date(),
    receivedAtMs: 0,
  };
}

test('the HMAC profile scheme signs exactly the documented input', () => {
  const config: HmacSignatureProfile = { scheme: 'hmac-sha256', secret: 'topsecret', signedContent: ['x-bts-idempotency-key', 'date', 'body'], format: 'sha256={signature}' };
  const body = '{"params":{}}';
  const fields: Array<[string, string]> = [
    ['x-bts-idempotency-key', 'k-1'],
    ['date', 'Wed, 01 May 2024 12:00:00 GMT'],
  ];
  const input = hmacInput(delivery(fields, body), config);
  assert.deepEqual(input, Buffer.from(`k-1.Wed, 01 May 2024 12:00:00 GMT.${body}`));
  const signature = expectedHmacSignature(input as Buffer, config);
  assert.match(signature, /^sha256=[0-9a-f]{64}$/);

  assert.equal(verifyHmac(delivery([...fields, ['signature', signature]], body), config).verified, true);
  assert.equal(verifyHmac(delivery([...fields, ['signature', signature]], body.replace('{}', '{"a":1}')), config).verified, false, 'tampered body');
  assert.equal(verifyHmac(delivery([...fields, ['signature', signature]], body), { ...config, secret: 'other' }).verified, false, 'wrong secret');
  assert.match(verifyHmac(delivery([['signature', signature]], body), config).reason, /needs header x-bts-idempotency-key/);
});

test("the reference's signer produces signatures the suite verifies, and only with the published key", async () => {
  const signer = await WebhookSigner.create();
  const headers = { 'content-type': 'application/json', 'content-digest': 'sha-256=:AAAA:', date: new Date().toUTCString(), 'x-bts-idempotency-key': 'k' };
  const targetUri = 'http://127.0.0.1:8080/ptas/webhooks/user-update';
  const covered = ['@method', '@target-uri', 'content-type', 'content-digest', 'date', 'x-bts-idempotency-key'];
  const message = (fields: Record<string, string>): SignedRequest => ({ method: 'POST', targetUri, requestTarget: '/ptas/webhooks/user-update', fieldLines: Object.entries(fields) });
  const policy: Rfc9421Policy = { requiredComponents: covered, skewSeconds: 60, now: new Date() };

  const good = await signer.sign({ method: 'POST', targetUri, headers }, covered);
  assert.equal((await verifyRfc9421(message({ ...headers, ...good }), { jwks: signer.jwks() }, policy)).verified, true);

  const tampered = await verifyRfc9421(message({ ...headers, ...good, 'content-digest': 'sha-256=:BBBB:' }), { jwks: signer.jwks() }, policy);
  assert.equal(tampered.verified, false, 'a changed digest breaks the signature');

  const unpublished = await signer.sign({ method: 'POST', targetUri, headers }, covered, { withUnpublishedKey: true });
  assert.equal((await verifyRfc9421(message({ ...headers, ...unpublished }), { jwks: signer.jwks() }, policy)).verified, false);
});

test('a base64url signature (the deployed API\'s examples) verifies with a warning; base64 without one', async () => {
  const signer = await WebhookSigner.create();
  const headers = { date: new Date().toUTCString() };
  const targetUri = 'http://127.0.0.1:8080/hook';
  const policy: Rfc9421Policy = { requiredComponents: ['date'], skewSeconds: 60, now: new Date() };
  const message = (fields: SignatureFields): SignedRequest => ({ method: 'POST', targetUri, requestTarget: '/hook', fieldLines: Object.entries({ ...headers, ...fields }) });
  // About one signature in sixteen has no character that tells base64url apart: sign until one has.
  let fields = await signer.sign({ method: 'POST', targetUri, headers }, ['date'], { base64url: true });
  while (!/=:[^:]*[-_]/.test(fields.signature)) fields = await signer.sign({ method: 'POST', targetUri, headers }, ['date'], { base64url: true });
  const lenient = await verifyRfc9421(message(fields), { jwks: signer.jwks() }, policy);
  assert.equal(lenient.verified, true, lenient.reason);
  assert.match(lenient.warning ?? '', /base64url, where RFC 8941 .* byte sequences are base64/);
  const standard = await verifyRfc9421(message(await signer.sign({ method: 'POST', targetUri, headers }, ['date'])), { jwks: signer.jwks() }, policy);
  assert.equal(standard.verified, true, standard.reason);
  assert.equal(standard.warning, undefined);
});

test("the reference's ECDSA P-256 signer (a variant) signs r||s with created and expires, and the suite verifies it", async () => {
  const signer = await WebhookSigner.create('ecdsa-p256-sha256');
  assert.deepEqual([signer.jwks().keys[0]!.kty, signer.jwks().keys[0]!.crv], ['EC', 'P-256']);
  const headers = { host: '127.0.0.1:8080', 'content-type': 'application/json', 'content-digest': 'sha-256=:AAAA:', 'content-length': '2', date: new Date().toUTCString(), 'x-bts-idempotency-key': 'k' };
  const targetUri = 'http://127.0.0.1:8080/hook';
  const covered = ['@method', '@target-uri', 'host', 'date', 'content-digest', 'content-type', 'content-length', 'x-bts-idempotency-key'];
  const fields = await signer.sign({ method: 'POST', targetUri, headers }, covered, { expiresInSeconds: 300 });
  assert.match(fields['signature-input'], /;created=(\d+);expires=\d+;keyid="[^"]+";alg="ecdsa-p256-sha256"$/);
  const message: SignedRequest = { method: 'POST', targetUri, requestTarget: '/hook', fieldLines: Object.entries({ ...headers, ...fields }) };
  const verdict = await verifyRfc9421(message, { jwks: signer.jwks() }, { requiredComponents: ['@method', 'content-digest'], skewSeconds: 60, now: new Date() });
  assert.equal(verdict.verified, true, verdict.reason);
});

// RFC 9421 B.2.4: the test-response signed ecdsa-p256-sha256 with test-key-ecc-p256 (B.1.3).
// The verifier here judges requests (deliveries), so @status has no place in
// buildSignatureBase; the base is reproduced from the RFC's text and the
// RFC's own signature verified over it with the algorithm the verifier uses.
const ECC_P256_PUBLIC: JWK = { kty: 'EC', crv: 'P-256', kid: 'test-key-ecc-p256', x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA', y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0' };
const GOOD_DOG = '{"message": "good dog"}';
const B24_DIGEST = 'sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:';
/**
 * The erratum (REAL-API-NOTES): the test-response as printed in B.2 carries
 * this Content-Digest, which is not the digest of its body. B.2.4's signature
 * base, and the signature over it, carry the body's real digest (above), so
 * the vector is reproduced from B.2.4's base, not from the printed response;
 * with the printed value the RFC's signature does not verify (tested below).
 */
const B2_RESPONSE_DIGEST_AS_PRINTED = 'sha-512=:JlEy2bfUz7WrWIjc1qV6KVLpdr/7L5/L4h7Sxvh6sNHpDQWDCL+GauFQWcZBvVDhiyOnAQsxzZFYwi0wDH+1pw==:';
const B24_SIGNATURE = Buffer.from('wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw==', 'base64');

function b24Base(contentDigest: string): string {
  return [
    '"@status": 200',
    '"content-type": application/json',
    `"content-digest": ${contentDigest}`,
    '"content-length": 23',
    '"@signature-params": ("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"',
  ].join('\n');
}

/** r‖s as ASN.1 DER (SEQUENCE of two INTEGERs): what most libraries write, and RFC 9421 3.3.4 does not. */
function derOf(rs: Uint8Array): Uint8Array {
  const integer = (half: Uint8Array) => {
    let bytes = Buffer.from(half);
    while (bytes.length > 1 && bytes[0] === 0 && bytes[1]! < 0x80) bytes = bytes.subarray(1);
    if (bytes[0]! >= 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
    return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
  };
  const body = Buffer.concat([integer(rs.subarray(0, rs.length / 2)), integer(rs.subarray(rs.length / 2))]);
  return new Uint8Array(Buffer.concat([Buffer.from([0x30, body.length]), body]));
}

test('B.2.4: the RFC\'s ecdsa-p256-sha256 signature verifies with test-key-ecc-p256 over the base the RFC prints', async () => {
  assert.equal(`sha-512=:${createHash('sha512').update(GOOD_DOG).digest('base64')}:`, B24_DIGEST, 'the base carries the digest of the response body');
  assert.equal(B24_SIGNATURE.length, 64, 'r‖s of P-256 (RFC 9421 3.3.4)');
  const data = new TextEncoder().encode(b24Base(B24_DIGEST));
  assert.equal(await verifySignatureBytes('ecdsa-p256-sha256', ECC_P256_PUBLIC, data, B24_SIGNATURE), true);
  assert.equal(await verifySignatureBytes('ecdsa-p256-sha256', ECC_P256_PUBLIC, new TextEncoder().encode(b24Base(B2_RESPONSE_DIGEST_AS_PRINTED)), B24_SIGNATURE), false, 'the erratum\'s digest is not what was signed');
  assert.equal(algorithmForJwk(ECC_P256_PUBLIC), 'ecdsa-p256-sha256', 'the key alone names the algorithm (B.2.4 has no alg parameter)');

  const der = derOf(B24_SIGNATURE);
  assert.equal(await verifySignatureBytes('ecdsa-p256-sha256', ECC_P256_PUBLIC, data, der), false, 'no DER compatibility path');
  assert.equal(derEncodingHint('ecdsa-p256-sha256', der), `is DER-encoded (${der.length} bytes); RFC 9421 3.3.4 requires the 64-byte r‖s concatenation`);
  assert.equal(derEncodingHint('ecdsa-p256-sha256', B24_SIGNATURE), undefined, 'r‖s is not DER');
  assert.equal(derEncodingHint('ed25519', der), undefined, 'only ECDSA has the two encodings');
  assert.equal(derEncodingHint('ecdsa-p256-sha256', Uint8Array.from([0x30, 0x44, ...new Uint8Array(68)])), undefined, 'a 0x30 byte alone is not DER');
});

test('a DER-encoded ECDSA delivery signature does not verify, and the reason says why', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k' } as JWK;
  const input = 'sig1=("date" "@method");created=1618884473;keyid="k";alg="ecdsa-p256-sha256"';
  const base = Buffer.from(buildSignatureBase(RFC_REQUEST, innerList(input)));
  const sign = (dsaEncoding: 'der' | 'ieee-p1363') => serializeDictionary(new Map([['sig1', [new Uint8Array(nodeSign('sha256', base, { key: privateKey, dsaEncoding })), new Map()]]]));
  const keys = { jwks: { keys: [jwk] } };
  const rs = await verifyRfc9421(withSignature(RFC_REQUEST, input, sign('ieee-p1363')), keys, AT_RFC_TIME);
  assert.equal(rs.verified, true, rs.reason);
  const der = await verifyRfc9421(withSignature(RFC_REQUEST, input, sign('der')), keys, AT_RFC_TIME);
  assert.equal(der.verified, false);
  assert.equal(der.problem, 'signature');
  assert.match(der.reason, /^signature sig1 does not verify with k \(ecdsa-p256-sha256\): the signature is DER-encoded \(\d+ bytes\); RFC 9421 3\.3\.4 requires the 64-byte r‖s concatenation$/);
});

test("the reference's hmac-sha256 signer: verifies with the shared secret only, publishes no key", async () => {
  const secret = Buffer.alloc(32, 9);
  const signer = await WebhookSigner.create('hmac-sha256', { sharedSecret: secret.toString('base64') });
  assert.deepEqual(signer.jwks(), { keys: [] });
  const headers = { date: new Date().toUTCString(), 'content-digest': 'sha-256=:AAAA:' };
  const targetUri = 'http://127.0.0.1:8080/hook';
  const policy: Rfc9421Policy = { requiredComponents: ['date', 'content-digest'], skewSeconds: 60, now: new Date() };
  const message = (fields: SignatureFields): SignedRequest => ({ method: 'POST', targetUri, requestTarget: '/hook', fieldLines: Object.entries({ ...headers, ...fields }) });
  const fields = await signer.sign({ method: 'POST', targetUri, headers }, ['@method', 'date', 'content-digest']);
  assert.match(fields['signature-input'], /;keyid="webhook-shared-secret";alg="hmac-sha256"$/);
  const verdict = await verifyRfc9421(message(fields), { sharedSecret: secret }, policy);
  assert.equal(verdict.verified, true, verdict.reason);
  assert.equal((await verifyRfc9421(message(fields), { sharedSecret: Buffer.alloc(32, 8) }, policy)).verified, false, 'another secret');
  const unpublished = await signer.sign({ method: 'POST', targetUri, headers }, ['@method', 'date'], { withUnpublishedKey: true });
  assert.equal((await verifyRfc9421(message(unpublished), { sharedSecret: secret }, policy)).verified, false, 'the wrong-key fault\'s secret');
});

test("the reference signer's fault options: an expired signature, a component left out of the base", async () => {
  const signer = await WebhookSigner.create();
  const headers = { date: new Date().toUTCString(), 'content-digest': 'sha-256=:AAAA:' };
  const targetUri = 'http://127.0.0.1:8080/hook';
  const policy: Rfc9421Policy = { requiredComponents: ['content-digest'], skewSeconds: 60, now: new Date() };
  const message = (fields: SignatureFields): SignedRequest => ({ method: 'POST', targetUri, requestTarget: '/hook', fieldLines: Object.entries({ ...headers, ...fields }) });
  const covered = ['@method', 'date', 'content-digest'];

  const expired = await signer.sign({ method: 'POST', targetUri, headers }, covered, { createdSecondsAgo: 600, expiresInSeconds: 300 });
  const expiredVerdict = await verifyRfc9421(message(expired), { jwks: signer.jwks() }, policy);
  assert.match(expiredVerdict.reason, /^signature sig1 expired 30\d s before it arrived$/);

  const outside = await signer.sign({ method: 'POST', targetUri, headers }, covered, { leftOutOfBase: ['content-digest'] });
  assert.match(outside['signature-input'], /"content-digest"/);
  const outsideVerdict = await verifyRfc9421(message(outside), { jwks: signer.jwks() }, policy);
  assert.equal(outsideVerdict.verified, false);
  assert.match(outsideVerdict.reason, /does not verify/);
});
