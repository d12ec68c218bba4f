// manifest.json: what a certifier needs to trust a run's folder without having
// been there. It names the suite (version, commit), the catalogue (spec
// version and the hash of schemas/requirements.json), the profile with its
// secrets replaced by scrypt fingerprints, the target's fingerprint, the run's
// times, verdict and nonce, the environment, the checks the catalogue
// requires, the waiver file's hash, and every artifact with its SHA-256. A
// detached Ed25519 signature over the manifest's bytes (manifest.json.sig)
// makes it tamper-evident; unsigned, it still says so.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ShardPart } from '../results/model.ts';

export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.json.sig';
export { NONCE_HEADER } from './nonce.ts';

export interface ArtifactEntry {
  /** Relative to the bundle directory, with forward slashes. */
  path: string;
  sha256: string;
  bytes: number;
}

export interface ManifestSignature {
  algorithm: 'Ed25519';
  file: typeof SIGNATURE_FILE;
  /** SHA-256 of the public key (SubjectPublicKeyInfo, DER): which key a verifier needs. */
  publicKeySha256: string;
}

export interface Manifest {
  manifestVersion: 1;
  suite: { name: string; version: string; gitCommit: string | null };
  catalogue: { specVersion: string; sha256: string };
  profile: {
    /** Random per manifest (hex): the same secret has another fingerprint in every bundle. */
    salt: string;
    /**
     * The keys whose values were replaced by their fingerprint,
     * "scrypt:N=32768,r=8,p=1:<salt>:<hex>" (src/certify/profile-secrets.ts).
     */
    hashedSecrets: string[];
    content: unknown;
  };
  target: {
    baseUrl: string;
    /** SHA-256 fingerprint of the certificate the https target presented; null for http. */
    tlsCertificateSha256: string | null;
    /** Distinct Server, X-Powered-By and Via values the target answered with. */
    serverHeaders: string[];
  };
  run: {
    startedAt: string;
    finishedAt: string;
    verdict: string;
    counts: Record<string, number>;
    /** The certifier's nonce, sent as the ptas-nonce header on every exchange; null when none was given. */
    nonce: string | null;
    /** Set when the run was narrowed (--grep): not every check ran. */
    grep: string | null;
    /** Set when the target was the bundled reference. */
    reference: { faults: string[]; variants: string[]; conditions: string[] } | null;
    /** Set when this bundle is one part of a sharded run. */
    shard: ShardPart | null;
    /** Set when this bundle was merged from shards (ptas merge): each part's manifest by its SHA-256. */
    mergedFrom: Array<ShardPart & { manifestSha256: string }> | null;
  };
  environment: { node: string; os: string };
  /** The checks this catalogue requires (MUST): each needs exactly one verdict, none SKIP. */
  requiredChecks: string[];
  waivers: { sha256: string } | null;
  artifacts: ArtifactEntry[];
  signature: ManifestSignature | 'unsigned';
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function artifactEntry(dir: string, relativePath: string): ArtifactEntry {
  const bytes = readFileSync(`${dir}/${relativePath}`);
  return { path: relativePath, sha256: sha256Hex(bytes), bytes: bytes.length };
}

/** The manifest as written: stable formatting, so the signed bytes are the file's bytes. */
export function serializeManifest(manifest: Manifest): string {
  return JSON.stringify(manifest, null, 2) + '\n';
}
