// Ed25519 signatures over manifest.json's bytes. A key is named by a PEM file
// path or by "env:NAME" (the PEM in an environment variable, as CI secrets
// are). Anything but an Ed25519 key is refused: the algorithm is part of what
// a certifier agrees to, not a choice the run makes silently.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PtasError } from '../errors.ts';
import { sha256Hex } from './manifest.ts';

export class SigningKeyError extends PtasError {
  readonly code = 'signing-key';
  override name = 'SigningKeyError';
}

function pemFrom(reference: string, what: string): string {
  if (reference.startsWith('env:')) {
    const name = reference.slice(4);
    const value = process.env[name];
    if (!value) throw new SigningKeyError(`${what}: environment variable ${name} is not set (it should hold a PEM key)`);
    return value;
  }
  try {
    return readFileSync(reference, 'utf8');
  } catch (error) {
    throw new SigningKeyError(`${what}: cannot read ${reference}: ${(error as Error).message}`);
  }
}

function requireEd25519(key: KeyObject, what: string, reference: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError(`${what}: ${reference} is a ${key.asymmetricKeyType ?? 'symmetric'} key; an Ed25519 key is required (openssl genpkey -algorithm ed25519 -out key.pem)`);
  }
  return key;
}

/** A key named by a PEM file or env:NAME, as the flag `what` names it; Ed25519 only. */
function loadKey(reference: string, what: string, kind: 'private' | 'public'): KeyObject {
  let key: KeyObject;
  try {
    const pem = pemFrom(reference, what);
    key = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError(`${what}: ${reference} holds no PEM ${kind} key (${(error as Error).message})`);
  }
  return requireEd25519(key, what, reference);
}

export function loadSigningKey(reference: string): KeyObject {
  return loadKey(reference, '--sign-key', 'private');
}

export function loadPublicKey(reference: string): KeyObject {
  return loadKey(reference, '--pubkey', 'public');
}

/** Which key: the SHA-256 of its SubjectPublicKeyInfo (the same for the private key and its public half). */
export function publicKeySha256(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return sha256Hex(publicKey.export({ type: 'spki', format: 'der' }));
}

export function signBytes(bytes: Buffer, privateKey: KeyObject): string {
  return sign(null, bytes, privateKey).toString('base64');
}

export function signatureVerifies(bytes: Buffer, signatureBase64: string, publicKey: KeyObject): boolean {
  try {
    return verify(null, bytes, publicKey, Buffer.from(signatureBase64.trim(), 'base64'));
  } catch {
    return false;
  }
}
