// One run of the queue: `ptas run` in-process (app/run/run.ts ptasRun) with
// the run's bundle folder as its outDir, its events heard by the run's live
// view (app/serve/live-view.ts: log lines, checks and staircase steps as the
// server's events, redacted), and an abort signal for cancel (ptasRun's
// Ctrl-C path: the checks in flight stop and a partial bundle marked
// INCOMPLETE is written).
import type { Verdict } from '../../src/check/model.ts';
import type { Profile } from '../../src/config/profile.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { RunVerdict } from '../../src/results/model.ts';
import type { Certification } from '../../src/results/certification-model.ts';
import { PtasError } from '../../src/errors.ts';
import { ptasRun } from '../run/run.ts';
import type { RunEvent, RunOptionsInput } from './contract.ts';
import { liveView } from './live-view.ts';

export interface ExecuteRunInput {
  profile: Profile;
  options: RunOptionsInput;
  /** Run the conformance checks (default true); false: the load stage alone (a re-run whose checks all observed something). */
  conformance?: boolean;
  bundleDir: string;
  /** The run's waiver file in the store, when it was given one. */
  waiversFile?: string;
  signal: AbortSignal;
  redactor: Redactor;
  emit: (event: RunEvent) => void;
  /** When the run started (performance.now()), for the events' elapsed time. */
  startedAt: number;
}

export interface ExecutedRun {
  verdict: RunVerdict;
  counts: Partial<Record<Verdict, number>>;
  /** Why the run ended without a verdict of its checks: the run could not start, or stopped. */
  note?: string;
  /** Whether ptasRun wrote the bundle. */
  bundle: boolean;
  /** Whether ptas verify accepts that bundle (src/certify/certifiability.ts). */
  certification?: Certification;
}

export async function executeRun(input: ExecuteRunInput): Promise<ExecutedRun> {
  const { redactor, emit } = input;
  const live = liveView({ redactor, emit, startedAt: input.startedAt, load: Boolean(input.options.load), explore: Boolean(input.options.explore) });
  try {
    const outcome = await ptasRun({
      profile: input.profile,
      outDir: input.bundleDir,
      grep: input.options.grep,
      ...(input.conformance === false ? { conformance: false } : {}),
      load: input.options.load ?? false,
      ...(input.options.explore ? { explore: { budgetMs: input.options.explore * 1000 } } : {}),
      nonce: input.options.nonce,
      waivers: input.waiversFile,
      signal: input.signal,
      events: live.events,
    });
    const interrupted = outcome.results.run.interrupted;
    return { verdict: outcome.results.verdict, counts: outcome.results.counts, bundle: true, ...(outcome.results.certification ? { certification: outcome.results.certification } : {}), ...(interrupted ? { note: `${interrupted}: the bundle is partial` } : {}) };
  } catch (error) {
    // A profile the target refuses, an unreachable target, a crash: no verdict of the checks, said in one line.
    const message = redactor.redactString(error instanceof Error ? error.message : String(error));
    const note = error instanceof PtasError ? `the run could not complete: ${message}` : `the run failed inside ptas: ${message}`;
    emit({ type: 'log', line: `ptas: ${note}` });
    return { verdict: 'INCOMPLETE', counts: live.counts, note, bundle: false };
  }
}
