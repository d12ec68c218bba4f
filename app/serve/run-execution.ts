// One run of the queue: `ptas run` in-process (app/run/run.ts ptasRun) with
// the run's bundle folder as its outDir, its terminal output turned into
// `log` events line by line, each finished check into a `check` event with
// the running counts and the time since the run started, and an abort signal
// for cancel (ptasRun's Ctrl-C path: the checks in flight stop and a partial
// bundle marked INCOMPLETE is written). Every line and reason passes the
// run's Redactor first: the profile's secrets never reach an event.
import { Writable } from 'node:stream';
import type { Verdict } from '../../src/check/model.ts';
import type { Profile } from '../../src/config/profile.ts';
import type { Redactor } from '../../src/http/redact.ts';
import type { RunVerdict } from '../../src/results/model.ts';
import type { Certification } from '../../src/results/certification-model.ts';
import { PtasError } from '../../src/errors.ts';
import { ptasRun } from '../run/run.ts';
import type { FinishedCheck } from '../../runner/check-events.ts';
import type { RunEvent, RunOptionsInput } from './contract.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';

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

/** The longest log line an event carries (a runaway line is cut, not dropped). */
const MAX_LINE = 4_000;

/** A terminal output stream that emits each whole line, redacted. */
export function lineStream(redactor: Redactor, onLine: (line: string) => void): Writable {
  let pending = '';
  const flush = (text: string) => {
    const line = redactor.redactString(text.replace(/\r$/, ''));
    onLine(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
  };
  return new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        flush(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
      done();
    },
    final(done) {
      if (pending) flush(pending);
      pending = '';
      done();
    },
  });
}

export async function executeRun(input: ExecuteRunInput): Promise<ExecutedRun> {
  const { redactor, emit } = input;
  const counts: Partial<Record<Verdict, number>> = {};
  const output = lineStream(redactor, (line) => emit({ type: 'log', line }));
  const onCheck = (check: FinishedCheck) => {
    counts[check.verdict] = (counts[check.verdict] ?? 0) + 1;
    const { id, title, target, verdict, reason, durationMs } = check;
    emit({
      type: 'check',
      check: { id, title, target, verdict, ...(reason ? { reason: redactor.redactString(reason) } : {}), durationMs },
      counts: { ...counts },
      elapsedMs: Math.round(performance.now() - input.startedAt),
      ...(check.planned ? { planned: check.planned, expected: check.planned + CROSSCUT_CHECKS.length + (input.options.load ? LOAD_CHECKS.length : 0) } : {}),
    });
  };
  try {
    const outcome = await ptasRun({
      profile: input.profile,
      outDir: input.bundleDir,
      grep: input.options.grep,
      ...(input.conformance === false ? { conformance: false } : {}),
      load: input.options.load ?? false,
      nonce: input.options.nonce,
      waivers: input.waiversFile,
      signal: input.signal,
      output,
      onCheck,
      onLoadStep: (step) => emit({ type: 'load-step', ...step }),
    });
    const interrupted = outcome.results.run.interrupted;
    return { verdict: outcome.results.verdict, counts: outcome.results.counts, bundle: true, ...(outcome.results.certification ? { certification: outcome.results.certification } : {}), ...(interrupted ? { note: `${interrupted}: the bundle is partial` } : {}) };
  } catch (error) {
    // A profile the target refuses, an unreachable target, a crash: no verdict of the checks, said in one line.
    const message = redactor.redactString(error instanceof Error ? error.message : String(error));
    const note = error instanceof PtasError ? `the run could not complete: ${message}` : `the run failed inside ptas: ${message}`;
    emit({ type: 'log', line: `ptas: ${note}` });
    return { verdict: 'INCOMPLETE', counts, note, bundle: false };
  } finally {
    await new Promise<void>((resolve) => output.end(resolve));
  }
}
