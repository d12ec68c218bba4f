// "Run again only the failed and skipped checks" in `ptas serve`: what
// `ptas run --rerun-of` and `ptas merge` do from the command line, as one run
// of the queue. A re-run is a run of its own (its own id and record: the run
// it repeats stays as it was, evidence unchanged) whose options say
// `rerunOf`. It runs the checks the plan of app/run/rerun.ts picks — FAIL,
// FLAKY, ERROR, SKIP and those without a verdict — into its own attempt
// folder, then joins every attempt of the chain (the first run's bundle, each
// re-run's attempt, oldest first) with app/merge/merge.ts into its bundle: a
// fail-then-pass is FLAKY, an ERROR or SKIP followed by a verdict takes that
// verdict. What the merge would refuse (another profile, nonce or waiver
// file) is refused before the re-run is queued.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE, type Manifest } from '../../src/certify/manifest.ts';
import type { RunResults } from '../../src/results/model.ts';
import { mergeShards } from '../merge/merge.ts';
import { listConformanceChecks } from '../run/list.ts';
import { rerunPlan, type RerunPlan } from '../run/rerun.ts';
import type { RunOptionsInput, RunRecord } from './contract.ts';
import { ServeError } from './errors.ts';
import type { ExecutedRun } from './run-execution.ts';
import type { StoreLayout } from './store/layout.ts';
import type { RunStore } from './store/runs.ts';

export interface RerunDeps {
  layout: StoreLayout;
  store: RunStore;
}

/** A re-run as planned when it was asked for: what it runs, and the attempts it is joined to. */
export interface ServeRerun {
  baseRunId: string;
  plan: RerunPlan;
  /** Whether the load stage runs again: the plan asks for it and the first run had one. */
  load: boolean;
  /** The bundles of the earlier attempts, oldest first. */
  earlierAttempts: string[];
}

/** The bundle folder of each attempt of `runId`'s chain, oldest first: the first run's bundle, then each re-run's own attempt. */
export function attemptsOf(deps: RerunDeps, runId: string): string[] {
  const record = deps.store.get(runId);
  const base = record?.options.rerunOf;
  return base === undefined ? [deps.layout.bundleDir(runId)] : [...attemptsOf(deps, base), deps.layout.attemptDir(runId)];
}

/** The run a chain of re-runs started from: its options (grep, load, nonce, waivers) are every re-run's. */
function firstRunOf(deps: RerunDeps, record: RunRecord): RunRecord {
  const base = record.options.rerunOf === undefined ? undefined : deps.store.get(record.options.rerunOf);
  return base ? firstRunOf(deps, base) : record;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

const keyPath = (key: string) => ({ keyPath: `/options/${key}` });

/**
 * The re-run of `options.rerunOf` for `implementation`, and the options it
 * runs with (its first run's), or a refusal: the run is unknown, of another
 * implementation, still running or without a bundle; the implementation's
 * profile was saved since (the merge would refuse the attempts); options of
 * its own; or nothing to run again.
 */
export async function planServeRerun(
  deps: RerunDeps,
  input: { implementation: string; options: RunOptionsInput; implementationUpdatedAt?: string },
): Promise<{ options: RunOptionsInput; rerun: ServeRerun }> {
  const baseRunId = input.options.rerunOf!;
  const own = Object.keys(input.options).filter((key) => key !== 'rerunOf');
  if (own.length) {
    throw new ServeError('invalid-request', `a re-run takes the options of the run it repeats (its grep, load stage, nonce and waivers): leave out options.${own[0]}`, keyPath(own[0]!));
  }
  const base = deps.store.get(baseRunId);
  if (!base) throw new ServeError('invalid-request', `options.rerunOf: there is no run ${baseRunId}`, keyPath('rerunOf'));
  if (base.implementation !== input.implementation) {
    throw new ServeError('invalid-request', `options.rerunOf: run ${baseRunId} is a run of ${base.implementation}, not of ${input.implementation}`, keyPath('rerunOf'));
  }
  if (base.status !== 'finished' && base.status !== 'cancelled') throw new ServeError('conflict', `run ${baseRunId} is ${base.status}: a run is re-run once it has ended`);
  const baseBundle = deps.layout.bundleDir(baseRunId);
  if (!existsSync(path.join(baseBundle, MANIFEST_FILE))) throw new ServeError('conflict', `run ${baseRunId} wrote no bundle: there is nothing to join a re-run to; start a full run`);
  const first = firstRunOf(deps, base);
  if (input.implementationUpdatedAt !== undefined && Date.parse(input.implementationUpdatedAt) > Date.parse(first.createdAt)) {
    throw new ServeError(
      'conflict',
      `the profile of ${input.implementation} was saved (${input.implementationUpdatedAt}) after run ${first.id} was asked for: its attempts would be runs of two profiles, which ptas merge refuses; start a full run`,
    );
  }
  const earlierAttempts = attemptsOf(deps, baseRunId);
  // The verdicts so far are the latest bundle's (a merge when the base is a re-run); which checks the run selected is its first run's grep.
  const results = readJson<RunResults>(path.join(baseBundle, 'results.json'));
  const firstManifest = readJson<Manifest>(path.join(earlierAttempts[0]!, MANIFEST_FILE));
  if (firstManifest.run.mergedFrom) {
    // A re-run whose record was rebuilt from its bundle (store/rebuild-index.ts) no longer says which run it repeated.
    throw new ServeError('conflict', `run ${first.id}'s bundle joins attempts its record no longer names (the record was rebuilt from the bundle): there is no first attempt to join a re-run to; start a full run`);
  }
  const plan = rerunPlan(results, firstManifest, await listConformanceChecks());
  const load = plan.load && first.options.load === true;
  if (!plan.checkIds.length && !load) {
    throw new ServeError('conflict', `nothing to re-run: every check of run ${baseRunId} has a verdict that observed the implementation (PASS, WARN or REVIEW)`);
  }
  const options: RunOptionsInput = {
    rerunOf: baseRunId,
    load,
    ...(first.options.nonce !== undefined ? { nonce: first.options.nonce } : {}),
    ...(first.options.waivers !== undefined ? { waivers: first.options.waivers } : {}),
  };
  return { options, rerun: { baseRunId, plan, load, earlierAttempts } };
}

/**
 * The re-run's attempt joined to the earlier ones into the run's bundle: its
 * verdict, counts and certification are the merged run's. An attempt without
 * a bundle is left as it ended; a merge refused (the suite was upgraded
 * between the attempts, a bundle was altered) ends the re-run INCOMPLETE,
 * its attempt kept, saying why.
 */
export function joinAttempt(rerun: ServeRerun, attemptDir: string, bundleDir: string, executed: ExecutedRun): ExecutedRun {
  if (!executed.bundle) return executed;
  try {
    const { results } = mergeShards({ dirs: [...rerun.earlierAttempts, attemptDir], outDir: bundleDir });
    return {
      verdict: results.verdict,
      counts: results.counts,
      bundle: true,
      ...(results.certification ? { certification: results.certification } : {}),
      ...(executed.note ? { note: executed.note } : {}),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { verdict: 'INCOMPLETE', counts: executed.counts, bundle: false, note: `the re-run ran, but could not be joined to run ${rerun.baseRunId}: ${message}` };
  }
}
