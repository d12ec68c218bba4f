// `ptas verify`, who and when: the detached Ed25519 signature over
// manifest.json (against the certifier's public key), and the certifier's
// nonce — in the manifest and on every exchange the run recorded.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { NONCE_HEADER, SIGNATURE_FILE, type Manifest } from '../../src/certify/manifest.ts';
import { publicKeySha256, signatureVerifies } from '../../src/certify/signing.ts';
import type { RunResults } from '../../src/results/model.ts';
import type { VerifyStep } from './steps.ts';

export function verifySignature(dir: string, manifestBytes: Buffer, manifest: Manifest, publicKey: KeyObject | undefined): VerifyStep {
  const name = 'signature';
  const signature = manifest.signature;
  if (!publicKey) {
    const detail = signature === 'unsigned' ? 'unsigned (the manifest says so)' : `signed by key sha256:${signature.publicKeySha256.slice(0, 16)}…, not checked: give --pubkey`;
    return { name, ok: true, detail };
  }
  if (signature === 'unsigned') return { name, ok: false, detail: `${SIGNATURE_FILE}: the bundle is unsigned, but --pubkey was given` };
  const file = path.join(dir, SIGNATURE_FILE);
  if (!existsSync(file)) return { name, ok: false, detail: `${SIGNATURE_FILE}: the manifest says it is signed, but the signature file is missing` };
  const keyHash = publicKeySha256(publicKey);
  if (keyHash !== signature.publicKeySha256) {
    return { name, ok: false, detail: `${SIGNATURE_FILE}: signed with key sha256:${signature.publicKeySha256.slice(0, 16)}…, not with the given key sha256:${keyHash.slice(0, 16)}…` };
  }
  if (!signatureVerifies(manifestBytes, readFileSync(file, 'utf8'), publicKey)) {
    return { name, ok: false, detail: `${SIGNATURE_FILE}: does not verify over manifest.json under the given key (manifest.json or its signature changed)` };
  }
  return { name, ok: true, detail: `Ed25519 over manifest.json, key sha256:${keyHash.slice(0, 16)}…` };
}

export function verifyNonce(manifest: Manifest, results: RunResults, nonce: string | undefined): VerifyStep {
  const name = 'nonce';
  if (nonce === undefined) return { name, ok: true, detail: manifest.run.nonce ? `the manifest's is ${manifest.run.nonce}, not checked: give --nonce` : 'none in the manifest, none asked for' };
  if (manifest.run.nonce !== nonce) return { name, ok: false, detail: `manifest.json: the run's nonce is ${manifest.run.nonce === null ? 'absent' : JSON.stringify(manifest.run.nonce)}, not ${JSON.stringify(nonce)}` };
  let exchanges = 0;
  for (const check of results.checks) {
    // A webhook delivery is the implementation's request, not the suite's: it cannot carry the nonce.
    for (const exchange of check.evidence.filter((e) => !e.incoming)) {
      exchanges++;
      if (exchange.request.headers[NONCE_HEADER] !== nonce) {
        return { name, ok: false, detail: `results.json: ${check.id}, exchange #${exchange.id} was sent without the nonce in ${NONCE_HEADER}` };
      }
    }
  }
  return { name, ok: true, detail: `in the manifest and in the ${NONCE_HEADER} header of all ${exchanges} recorded exchanges` };
}
