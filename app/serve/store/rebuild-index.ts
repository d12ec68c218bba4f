// The run list from the bundles alone: when run.json files are lost (a
// restore from a backup of the bundles, a folder copied in by hand), each
// runs/<runId>/bundle/ still says what ran, when, with which verdict and
// counts (results.json, and manifest.json for the nonce and the narrowing).
// The implementation is the bundled reference when the run used it, else the
// stored implementation whose name or base URL the run names.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../../../src/certify/manifest.ts';
import type { Verdict } from '../../../src/check/model.ts';
import type { RunResults, RunVerdict } from '../../../src/results/model.ts';
import type { ImplementationRecord, RunRecord } from '../contract.ts';
import { baseUrlOf } from '../profile-text.ts';
import { readJsonFile } from './atomic.ts';
import { ID_PATTERN, REFERENCE_ID } from './layout.ts';

const ID = new RegExp(ID_PATTERN);

/** Which implementation a bundle's run was of. */
function implementationOf(results: RunResults | undefined, manifest: Manifest | undefined, implementations: readonly ImplementationRecord[]): string {
  if (results?.run.reference || manifest?.run.reference) return REFERENCE_ID;
  const name = results?.run.implementation ?? (manifest?.profile.content as { name?: string } | undefined)?.name;
  const target = results?.run.target ?? manifest?.target.baseUrl;
  const match = implementations.find((i) => i.name === name) ?? implementations.find((i) => target && baseUrlOf(i.profileText) === target);
  return match?.id ?? 'unknown';
}

/** The RunRecord a bundle folder shows, or undefined when it holds neither results.json nor manifest.json. */
export function recordFromBundle(bundleDir: string, runId: string, implementations: readonly ImplementationRecord[] = []): RunRecord | undefined {
  const results = readJsonFile<RunResults>(path.join(bundleDir, 'results.json'));
  const manifest = readJsonFile<Manifest>(path.join(bundleDir, 'manifest.json'));
  if (!results?.run && !manifest?.run) return undefined;
  const startedAt = results?.run.startedAt ?? manifest!.run.startedAt;
  const finishedAt = results?.run.finishedAt ?? manifest!.run.finishedAt;
  const grep = manifest?.run.grep ?? undefined;
  const nonce = manifest?.run.nonce ?? undefined;
  const interrupted = results?.run.interrupted;
  return {
    id: runId,
    implementation: implementationOf(results, manifest, implementations),
    options: { load: results ? results.load !== undefined : undefined, ...(grep ? { grep } : {}), ...(nonce ? { nonce } : {}) },
    status: 'finished',
    createdAt: startedAt,
    startedAt,
    finishedAt,
    verdict: (results?.verdict ?? manifest!.run.verdict) as RunVerdict,
    counts: (results?.counts ?? manifest!.run.counts) as Partial<Record<Verdict, number>>,
    note: ['indexed again from its bundle', ...(interrupted ? [`the run was ${interrupted}: the bundle is partial`] : [])].join('; '),
  };
}

/** Every run of the store, as its bundle alone shows it (newest first); folders without a bundle are left out. */
export function rebuildIndex(runsDir: string, implementations: readonly ImplementationRecord[] = []): RunRecord[] {
  let names: string[];
  try {
    names = readdirSync(runsDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => ID.test(name))
    .map((name) => recordFromBundle(path.join(runsDir, name, 'bundle'), name, implementations))
    .filter((record): record is RunRecord => record !== undefined)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
