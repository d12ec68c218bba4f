// `ptas merge DIR... --out DIR`: the bundles of one sharded run (ptas run
// --shard i/n) made into the bundle of the whole run, as if it had run at
// once: every check's verdict from the part that ran it, the cross-cutting
// checks computed again over every part's exchanges (a part saw only its
// own), the load stage from the part that ran it, one verdict, one report,
// one manifest naming each part's manifest by its SHA-256, and the parts'
// waivers judged again over the whole run.
//
// No check runs twice (Playwright runs no retries: playwright.config.ts), so
// a check found in two parts is an inconsistency, not an attempt, and the
// merge is refused rather than choosing a verdict.
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { CheckResult } from '../../src/check/model.ts';
import { CROSSCUT_CHECKS, crossCuttingResults } from '../../src/crosscut/index.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunResults } from '../../src/results/model.ts';
import { applyWaivers, waiverFileOf } from '../../src/results/waivers.ts';
import { writeReport, type WrittenReport } from '../../reports/write.ts';
import { writeBundle } from '../certify/write-bundle.ts';
import { MergeRefused, readShards, type ShardBundle } from './shards.ts';

export interface MergeOptions {
  dirs: string[];
  outDir: string;
  /** When given, every part must be signed with it. */
  publicKey?: KeyObject;
  signingKey?: KeyObject;
}

const isCrossCutting = (check: CheckResult) => CROSSCUT_CHECKS.some((c) => c.id === check.id);

function mergedChecks(shards: readonly ShardBundle[]): CheckResult[] {
  const ranIn = new Map<string, string>();
  const checks: CheckResult[] = [];
  for (const shard of shards) {
    for (const check of shard.results.checks.filter((c) => !isCrossCutting(c))) {
      const key = `${check.target} ${check.id}`;
      const earlier = ranIn.get(key);
      if (earlier) throw new MergeRefused(`${check.id} (target ${check.target}) has a verdict in ${earlier} and in ${shard.dir}: not parts of one run`);
      ranIn.set(key, shard.dir);
      checks.push(check);
    }
  }
  // As the reporter computes them for a whole run: over each target's conformance checks (not the load stage's).
  const baseUrl = shards[0]!.results.run.target;
  for (const target of [...new Set(checks.map((c) => c.target))]) {
    const ofTarget = checks.filter((c) => c.target === target && c.area !== 'load');
    checks.push(...crossCuttingResults(target, ofTarget, baseUrl));
  }
  return checks;
}

/**
 * The parts' waivers judged again over the whole run: a waiver unmatched in
 * one part may apply in another. Expiry as of the latest part's judgement.
 */
function withWaivers(merged: RunResults, shards: readonly ShardBundle[]): RunResults {
  const section = shards[0]!.results.waivers;
  if (!section) return merged;
  const now = new Date(shards.map((s) => s.results.waivers!.evaluatedAt).sort().at(-1)!);
  return applyWaivers(merged, waiverFileOf(section), { strict: section.strict, now });
}

function mergedResults(shards: readonly ShardBundle[]): RunResults {
  const runs = shards.map((s) => s.results.run);
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = runs.map((r) => r.finishedAt).sort().at(-1)!;
  const interrupted = runs.filter((r) => r.interrupted).map((r) => `shard ${r.shard!.index}/${r.shard!.total}: ${r.interrupted}`);
  const { shard: _part, ...run } = runs[0]!;
  const merged = buildResults({
    run: {
      ...run,
      startedAt,
      finishedAt,
      durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
      interrupted: interrupted.length ? interrupted.join('; ') : undefined,
      mergedFrom: shards.map((s) => ({ ...s.manifest.run.shard!, manifestSha256: s.manifestSha256 })),
    },
    checks: mergedChecks(shards),
    load: shards.find((s) => s.results.load)?.results.load,
    errors: shards.flatMap((s) => s.results.errors.map((e) => `shard ${s.manifest.run.shard!.index}/${s.manifest.run.shard!.total}: ${e}`)),
  });
  return withWaivers(merged, shards);
}

export function mergeShards(options: MergeOptions): { results: RunResults; report: WrittenReport; bundle: ReturnType<typeof writeBundle> } {
  const shards = readShards(options.dirs.map((d) => path.resolve(d)), options.publicKey);
  const outDir = path.resolve(options.outDir);
  if (shards.some((s) => s.dir === outDir)) throw new MergeRefused(`--out ${outDir} is one of the shards: merge into a new directory`);
  const results = mergedResults(shards);
  const report = writeReport(results, outDir);
  const first = shards[0]!.manifest;
  const bundle = writeBundle({
    dir: report.dir,
    results,
    profile: first.profile,
    tlsCertificateSha256: first.target.tlsCertificateSha256,
    requiredChecks: first.requiredChecks,
    nonce: first.run.nonce ?? undefined,
    waiversSha256: results.waivers?.sha256,
    signingKey: options.signingKey,
  });
  return { results, report, bundle };
}
