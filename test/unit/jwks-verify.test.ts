// verifyWithJwks asks whether a token verifies against the key set, not
// whether it is still live: a short-lived token that ran out before it was
// read (a slow answer, a busy worker) still verifies; one signed by a key the
// set does not hold never does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { verifyWithJwks } from '../../src/auth/jwks.ts';

async function signedToken(privateKey: CryptoKey, iat: number, exp: number): Promise<string> {
  return new SignJWT({ token_use: 'access' }).setProtectedHeader({ alg: 'EdDSA', kid: 'k1' }).setIssuedAt(iat).setExpirationTime(exp).sign(privateKey);
}

test('a token that ran out after it was issued still verifies; one from a key the set lacks does not', async () => {
  const published = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const other = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const jwks = { keys: [{ ...(await exportJWK(published.publicKey)), kid: 'k1', alg: 'EdDSA' }] };
  const now = Math.floor(Date.now() / 1000);
  assert.equal(await verifyWithJwks(await signedToken(published.privateKey, now - 20, now - 17), jwks), undefined);
  const forged = await verifyWithJwks(await signedToken(other.privateKey, now, now + 60), jwks);
  assert.match(forged ?? '', /signature verification failed/);
  assert.match((await verifyWithJwks('not-a-jwt', jwks)) ?? '', /ERR_JWS_INVALID|Invalid Compact JWS/);
});
