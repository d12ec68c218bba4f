// `ptas merge DIR... --out DIR`: the bundles of one sharded run (ptas run
// --shard i/n) made into the bundle of the whole run, as if it had run at
// once: every check's verdict from the part that ran it, the cross-cutting
// checks computed again over every part's exchanges (a part saw only its
// own), the load stage from the part that ran it, one verdict, one report,
// one manifest naming each part's manifest by its SHA-256, and the parts'
// waivers judged again over the whole run.
//
// A part run more than once (a re-run after a failed night or a broken
// machine, with a manifest of its own) gives each of its checks every run's
// verdict as attempts, and one final verdict by the policy of
// src/results/attempts.ts: for certification a fail-then-pass is FLAKY, not
// PASS. The run's interruption, its problems outside any check and the load
// section are each part's latest run's: a re-run supersedes them, and the
// earlier run's manifest stays listed in mergedFrom. A run without --shard is
// a run of one part (1/1), and its re-run of some checks (ptas run
// --rerun-of) another attempt of it: a check it did not run keeps its one
// attempt, and the load stage stays the latest run's that ran one. Within one run no check
// runs twice (Playwright runs no retries: runner/playwright.config.ts), so a check
// found in two different parts is an inconsistency, and the merge is refused
// rather than choosing a verdict.
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { CheckResult } from '../../src/check/model.ts';
import type { Profile } from '../../src/config/profile.ts';
import { CROSSCUT_CHECKS, scopeOfProfile, withCrossCuttingResults } from '../../src/crosscut/index.ts';
import { mergeAttempts, type PartRun, type RunOfCheck } from '../../src/results/attempts.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunResults } from '../../src/results/model.ts';
import { applyWaivers, waiverFileOf } from '../../src/results/waivers.ts';
import { writeReport, type WrittenReport } from '../../reports/write.ts';
import { writeBundle } from '../certify/write-bundle.ts';
import { certifiability } from '../../src/certify/certifiability.ts';
import { MergeRefused, partOf, readShards, type PartRuns, type ShardBundle } from './shards.ts';

export interface MergeOptions {
  dirs: string[];
  outDir: string;
  /** When given, every part must be signed with it. */
  publicKey?: KeyObject;
  signingKey?: KeyObject;
}

const isCrossCutting = (check: CheckResult) => CROSSCUT_CHECKS.some((c) => c.id === check.id);

const keyOf = (check: CheckResult) => `${check.target} ${check.id}`;

/** Each run of a part as results.json names it (run.mergedFrom, and each attempt's run). */
function partRunOf(part: PartRuns, attempt: number): PartRun {
  const shard = part.runs[attempt - 1]!;
  return { index: part.index, total: part.total, attempt, startedAt: shard.results.run.startedAt, manifestSha256: shard.manifestSha256 };
}

/** A part's checks: as its one run gave them, or, when it ran more than once, each with its attempts (src/results/attempts.ts). */
function checksOfPart(part: PartRuns): CheckResult[] {
  const own = (shard: ShardBundle) => shard.results.checks.filter((c) => !isCrossCutting(c));
  if (part.runs.length === 1) return own(part.runs[0]!);
  const byCheck = new Map<string, RunOfCheck[]>();
  part.runs.forEach((shard, i) => {
    for (const check of own(shard)) byCheck.set(keyOf(check), [...(byCheck.get(keyOf(check)) ?? []), { run: partRunOf(part, i + 1), check }]);
  });
  return [...byCheck.values()].map(mergeAttempts);
}

function mergedChecks(parts: readonly PartRuns[]): CheckResult[] {
  const ranIn = new Map<string, PartRuns>();
  const checks: CheckResult[] = [];
  const where = (part: PartRuns) => `part ${part.index}/${part.total} (${part.runs.map((r) => r.dir).join(', ')})`;
  for (const part of parts) {
    for (const check of checksOfPart(part)) {
      const earlier = ranIn.get(keyOf(check));
      if (earlier) throw new MergeRefused(`${check.id} (target ${check.target}) has a verdict in ${where(earlier)} and in ${where(part)}: not parts of one run`);
      ranIn.set(keyOf(check), part);
      checks.push(check);
    }
  }
  // As ptas run computes them for a whole run: over each target's conformance checks and its load stage's
  // (the probes keep one exchange of each kind of error answer they received: load/stage/error-evidence.ts).
  // The base URL the run tested, and the intermediary its profile (as the manifest keeps it) declares.
  const first = parts[0]!.runs[0]!;
  const scope = { ...scopeOfProfile((first.manifest.profile.content ?? {}) as Profile), baseUrl: first.results.run.target };
  return withCrossCuttingResults(checks, () => scope);
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

function mergedResults(parts: readonly PartRuns[]): RunResults {
  const shards = parts.flatMap((p) => p.runs);
  // What a re-run supersedes: an interruption, problems outside any check, the load section.
  const latest = parts.map((p) => p.runs.at(-1)!);
  const runs = shards.map((s) => s.results.run);
  const startedAt = runs.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = runs.map((r) => r.finishedAt).sort().at(-1)!;
  const partName = (s: ShardBundle) => `shard ${partOf(s.manifest).index}/${partOf(s.manifest).total}`;
  const interrupted = latest.filter((s) => s.results.run.interrupted).map((s) => `${partName(s)}: ${s.results.run.interrupted}`);
  const { shard: _part, ...run } = runs[0]!;
  const merged = buildResults({
    run: {
      ...run,
      startedAt,
      finishedAt,
      durationMs: Date.parse(finishedAt) - Date.parse(startedAt),
      interrupted: interrupted.length ? interrupted.join('; ') : undefined,
      mergedFrom: parts.flatMap((part) => part.runs.map((_, i) => partRunOf(part, i + 1))),
    },
    checks: mergedChecks(parts),
    // The load stage of the latest run that ran it: a re-run of some checks alone (--rerun-of) leaves it as it was.
    load: parts.map((p) => p.runs.findLast((s) => s.results.load)).find((s) => s)?.results.load,
    errors: latest.flatMap((s) => s.results.errors.map((e) => `${partName(s)}: ${e}`)),
  });
  return withWaivers(merged, shards);
}

export function mergeShards(options: MergeOptions): { results: RunResults; report: WrittenReport; bundle: ReturnType<typeof writeBundle> } {
  const parts = readShards(options.dirs.map((d) => path.resolve(d)), options.publicKey);
  const outDir = path.resolve(options.outDir);
  if (parts.some((p) => p.runs.some((s) => s.dir === outDir))) throw new MergeRefused(`--out ${outDir} is one of the shards: merge into a new directory`);
  const first = parts[0]!.runs[0]!.manifest;
  // The parts' own statements spoke of a part each: the merged run is judged against the list its manifest will carry.
  const merged = mergedResults(parts);
  const results = { ...merged, certification: certifiability(merged, first.requiredChecks) };
  const report = writeReport(results, outDir);
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
