// Turns a run's report folder into a certification bundle: manifest.json over
// every file in it (src/certify/manifest.ts), and with a key a detached
// Ed25519 signature, manifest.json.sig. Runs last, after every artifact is
// written, so the hashes cover what the certifier receives.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { artifactEntry, MANIFEST_FILE, serializeManifest, sha256Hex, SIGNATURE_FILE, type Manifest } from '../../src/certify/manifest.ts';
import { profileWithHashedSecrets } from '../../src/certify/profile-secrets.ts';
import { publicKeySha256, signBytes } from '../../src/certify/signing.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { fromRoot } from '../../src/paths.ts';
import type { RunResults } from '../../src/results/model.ts';
import { suiteVersion } from '../../src/version.ts';
import { serverHeadersSeen } from './target-fingerprint.ts';

export interface BundleInput {
  dir: string;
  results: RunResults;
  /** The profile with its secrets fingerprinted (hashedProfile); a merge carries its shards'. */
  profile: Manifest['profile'];
  /** From tlsCertificateSha256, taken while the target was up. */
  tlsCertificateSha256: string | null;
  requiredChecks: string[];
  nonce?: string;
  grep?: string;
  waiversSha256?: string;
  signingKey?: KeyObject;
}

/** The commit of the suite's checkout, when it is one (a fresh clone is); null from a package install. */
function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: fromRoot(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/** Every file under dir but the manifest and its signature, relative, sorted. */
export function bundleFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => file !== MANIFEST_FILE && file !== SIGNATURE_FILE)
    .sort();
}

/** The profile as the manifest shows it: every secret a scrypt fingerprint under a fresh salt (src/certify/profile-secrets.ts). */
export async function hashedProfile(profile: ResolvedProfile): Promise<Manifest['profile']> {
  const salt = randomBytes(16).toString('hex');
  const hashed = await profileWithHashedSecrets(profile, [profile.credentials.clientSecret], salt);
  return { salt, hashedSecrets: hashed.hashedSecrets, content: hashed.content };
}

function buildManifest(input: BundleInput): Manifest {
  const { results, signingKey } = input;
  return {
    manifestVersion: 1,
    suite: { name: 'ptas-conformance', version: suiteVersion, gitCommit: gitCommit() },
    catalogue: { specVersion: results.run.specVersion, sha256: sha256Hex(readFileSync(fromRoot('schemas', 'requirements.json'))) },
    profile: input.profile,
    target: { baseUrl: results.run.target, tlsCertificateSha256: input.tlsCertificateSha256, serverHeaders: serverHeadersSeen(results) },
    run: {
      startedAt: results.run.startedAt,
      finishedAt: results.run.finishedAt,
      verdict: results.verdict,
      counts: results.counts,
      nonce: input.nonce ?? null,
      grep: input.grep ?? null,
      reference: results.run.reference
        ? { faults: results.run.reference.faults, variants: results.run.reference.variants ?? [], conditions: results.run.reference.conditions ?? [] }
        : null,
      shard: results.run.shard ?? null,
      mergedFrom: results.run.mergedFrom ?? null,
    },
    environment: { node: process.version, os: `${os.platform()} ${os.release()} ${os.arch()}` },
    requiredChecks: input.requiredChecks,
    waivers: input.waiversSha256 ? { sha256: input.waiversSha256 } : null,
    artifacts: bundleFiles(input.dir).map((file) => artifactEntry(input.dir, file)),
    signature: signingKey ? { algorithm: 'Ed25519', file: SIGNATURE_FILE, publicKeySha256: publicKeySha256(signingKey) } : 'unsigned',
  };
}

/** Writes manifest.json (and manifest.json.sig with a key) into the bundle directory. */
export function writeBundle(input: BundleInput): { manifest: Manifest; manifestPath: string; signaturePath?: string } {
  const manifest = buildManifest(input);
  const bytes = Buffer.from(serializeManifest(manifest), 'utf8');
  const manifestPath = path.join(input.dir, MANIFEST_FILE);
  writeFileSync(manifestPath, bytes);
  const signaturePath = path.join(input.dir, SIGNATURE_FILE);
  if (!input.signingKey) {
    // A signature left by an earlier run into the same folder would now sign nothing it matches.
    rmSync(signaturePath, { force: true });
    return { manifest, manifestPath };
  }
  writeFileSync(signaturePath, signBytes(bytes, input.signingKey) + '\n');
  return { manifest, manifestPath, signaturePath };
}

/**
 * After a file of the bundle changed or was added once the run was over (a
 * reviewer's decisions, the report re-rendered to show them): the manifest
 * lists every file again with its hash, everything else in it as the run
 * wrote it. Refused for a signed bundle, whose signature would then sign a
 * manifest that no longer is.
 */
export function rehashArtifacts(dir: string): Manifest {
  const manifestPath = path.join(dir, MANIFEST_FILE);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  if (manifest.signature !== 'unsigned') throw new Error('the bundle is signed: changing a file of it would break its signature');
  const updated: Manifest = { ...manifest, artifacts: bundleFiles(dir).map((file) => artifactEntry(dir, file)) };
  writeFileSync(manifestPath, serializeManifest(updated));
  return updated;
}
