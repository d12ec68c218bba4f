// `ptas verify DIR`: whether a certification bundle is what its manifest says
// and what a certifier asked for. In order: the folder's entries (regular
// files and folders only, nothing followed), the manifest, the files (hashes,
// nothing missing or added), the signature, the nonce, the agreement of
// results.json, junit.xml and index.html, and the required checks. Every
// step is reported; the first that fails names the discrepancy.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { MANIFEST_FILE, sha256Hex, type Manifest } from '../../src/certify/manifest.ts';
import { fromRoot } from '../../src/paths.ts';
import type { RunResults } from '../../src/results/model.ts';
import { requiredCheckIds } from '../certify/required-checks.ts';
import { verifyHtmlAgrees, verifyJunitAgrees, verifyRequiredChecks, verifyResultsAgree } from './agreement.ts';
import { verifyEntries } from './bundle-entries.ts';
import { verifyFiles } from './bundle-files.ts';
import { verifyNonce, verifySignature } from './signature-and-nonce.ts';
import type { VerifyStep } from './steps.ts';
import { verifyReviews } from './reviews.ts';
import { verifyJudgments } from './judgments.ts';
import { installedSuite } from '../rejudge/rejudge.ts';

export interface VerifyOptions {
  publicKey?: KeyObject;
  nonce?: string;
}

export interface VerifyReport {
  steps: VerifyStep[];
  /** The first step that failed, when one did. */
  problem?: VerifyStep;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export async function verifyBundle(dir: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  const steps: VerifyStep[] = [];
  const done = (): VerifyReport => ({ steps, problem: steps.find((s) => !s.ok) });
  // Before anything is read: a link or a FIFO would be followed or block.
  steps.push(verifyEntries(dir));
  if (!steps[0]!.ok) return done();
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) {
    steps.push({ name: 'manifest', ok: false, detail: `${MANIFEST_FILE}: missing (write bundles with ptas run, which adds it)` });
    return done();
  }
  const manifestBytes = readFileSync(manifestFile);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
    if (manifest.manifestVersion !== 1) throw new Error(`manifestVersion ${JSON.stringify(manifest.manifestVersion)} is not 1`);
  } catch (error) {
    steps.push({ name: 'manifest', ok: false, detail: `${MANIFEST_FILE}: not a ptas manifest (${(error as Error).message})` });
    return done();
  }
  steps.push({ name: 'manifest', ok: true, detail: `${manifest.suite.name} ${manifest.suite.version}${manifest.suite.gitCommit ? ` (${manifest.suite.gitCommit.slice(0, 12)})` : ''}, ${manifest.run.verdict}, target ${manifest.target.baseUrl}` });
  steps.push(verifyFiles(dir, manifest));
  steps.push(verifySignature(dir, manifestBytes, manifest, options.publicKey));
  // What follows reads the artifacts: only worth it when they are the ones the manifest vouches for.
  if (steps.some((s) => !s.ok)) return done();
  const results = readJson<RunResults>(path.join(dir, 'results.json'));
  steps.push(verifyNonce(manifest, results, options.nonce));
  steps.push(verifyResultsAgree(manifest, results));
  steps.push(verifyJunitAgrees(dir, results));
  steps.push(verifyHtmlAgrees(dir, results));
  const reviews = verifyReviews(dir, results);
  if (reviews) steps.push(reviews);
  // requiredCheckIds registers every check: the judgments below read their metadata.
  const catalogue = { sha256: sha256Hex(readFileSync(fromRoot('schemas', 'requirements.json'))), requiredChecks: await requiredCheckIds() };
  steps.push(verifyJudgments(results, installedSuite()));
  steps.push(verifyRequiredChecks(manifest, results, catalogue));
  return done();
}
