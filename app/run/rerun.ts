// `ptas run --rerun-of DIR`: what a re-run of a finished run runs. Only the
// checks that observed nothing conclusive or found a contradiction — FAIL,
// FLAKY, ERROR, SKIP, and those of the run's selection that have no verdict
// (an interrupted run) — run again, against the same target with the same
// profile and waivers (given again: ptas merge refuses others) and the run's
// nonce, and their bundle is joined to the run's with
// `ptas merge` as another attempt of the same part (app/merge/merge.ts): a
// fail-then-pass is FLAKY, an ERROR or SKIP followed by a verdict gives that
// verdict (src/results/attempts.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkTags } from '../../runner/define.ts';
import { targetSelects } from '../../runner/run-targets.ts';
import type { CheckMeta, Verdict } from '../../src/check/model.ts';
import { RERUN_VERDICTS } from '../../src/check/verdict-names.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { MANIFEST_FILE, type Manifest } from '../../src/certify/manifest.ts';
import type { RunResults } from '../../src/results/model.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';
import { listConformanceChecks } from './list.ts';

const triedAgain: ReadonlySet<Verdict> = new Set(RERUN_VERDICTS);

export interface RerunPlan {
  /** The conformance checks to run again, by id. */
  checkIds: string[];
  /** Whether the load stage runs again: one of its checks asks for it, or the run has none (--no-load or interrupted). */
  load: boolean;
  /** The run's nonce, which its re-run carries too (ptas merge refuses parts of different nonces). */
  nonce?: string;
  /** A Playwright grep that selects exactly checkIds (never matched when the list is empty). */
  grep: string;
}

/** The bundle a re-run is of: its results and manifest, refused when it is not one whole run. */
export function readRerunBase(dir: string): { results: RunResults; manifest: Manifest } {
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw new ConfigError(`--rerun-of ${dir}: no ${MANIFEST_FILE} there (give the --out directory of the run to re-run)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.run.shard) throw new ConfigError(`--rerun-of ${dir}: a part of a sharded run; run that part again with --shard ${manifest.run.shard.index}/${manifest.run.shard.total} and give both runs to ptas merge`);
  if (manifest.run.mergedFrom) throw new ConfigError(`--rerun-of ${dir}: a merged bundle; give the run it was merged from (the first attempt), and merge every attempt again`);
  const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults;
  return { results, manifest };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const LOAD_CHECK_IDS = new Set(LOAD_CHECKS.map((c) => c.id));

/**
 * The checks a re-run of `results` runs: of the conformance checks (ptas
 * list's; the cross-cutting ones are judged again by the merge, over every
 * attempt's exchanges) that the run selected (its --grep), each whose verdict
 * asks for another attempt or that has none.
 */
export function rerunPlan(results: RunResults, manifest: Manifest, conformanceChecks: readonly CheckMeta[]): RerunPlan {
  const given = new Map(results.checks.map((c) => [c.id, c.waived?.verdict ?? c.verdict]));
  const selectedByRun = (meta: CheckMeta) => targetSelects({ grep: manifest.run.grep ?? undefined }, meta.title, checkTags(meta));
  const checkIds = conformanceChecks
    .filter(selectedByRun)
    .filter((meta) => {
      const verdict = given.get(meta.id);
      return verdict === undefined || triedAgain.has(verdict);
    })
    .map((meta) => meta.id);
  const loadChecks = results.checks.filter((c) => LOAD_CHECK_IDS.has(c.id));
  const load = loadChecks.length === 0 || loadChecks.some((c) => triedAgain.has(c.waived?.verdict ?? c.verdict));
  // A check's tag is `@check:<id>`, followed by a space or the end (runner/define.ts checkTags).
  const grep = checkIds.length ? `@check:(?:${checkIds.map(escapeRegExp).join('|')})(?:\\s|$)` : '(?!)';
  return { checkIds, load, grep, ...(manifest.run.nonce ? { nonce: manifest.run.nonce } : {}) };
}

/** The plan of `ptas run --rerun-of dir`; a --nonce given too must be the run's own (the parts of one run share it). */
export async function planRerun(dir: string, nonce: string | undefined): Promise<RerunPlan> {
  const { results, manifest } = readRerunBase(dir);
  if (nonce !== undefined && nonce !== (manifest.run.nonce ?? undefined)) {
    throw new ConfigError(`--nonce ${nonce} is not the nonce of the run in ${dir} (${manifest.run.nonce ?? 'none'}): a re-run carries its run's nonce; leave --nonce out`);
  }
  return rerunPlan(results, manifest, await listConformanceChecks());
}
