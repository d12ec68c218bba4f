// Who the answers of a staircase that are neither admitted nor 429 count
// against. Section 8 names the rate limit's status, 429, for the token
// endpoint and accept; section 7 lists each operation's codes; an answer is
// classified once, by src/spec/answer-class.ts. So, under overload:
//   - a gateway status the row does not list (502, 504; 503 on the token
//     endpoint), or a connection the target dropped while the generator held
//     its plan, is no answer of the limiter: transient, it contradicts no
//     sentence on its own (README "Verdicts": retried, then ERROR; a staircase
//     cannot ask again, so it is counted and named, never a FAIL);
//   - any other 5xx outside the row (501, 505, …) is load refused otherwise
//     than with 429: it counts against the target;
//   - 503 where section 7 lists it (accept) is a listed overload answer: load
//     shed, not a failure;
//   - another listed 5xx (500), or a 5xx whose code the engine did not record
//     (k6's summary), is no sentence's contradiction: at most a warning;
//   - the generator's own time-outs and cut requests, and any transport
//     failure in a step the generator could not hold (arrivals dropped or
//     late, the rate not reached), are the generator's, not the target's.
import { answerClass } from '../../../src/spec/answer-class.ts';
import type { SpecOperation } from '../../../src/spec/status-codes.ts';
import { answered, startedBelowPlan, type PhaseResult } from '../../result/normalized.ts';

export type LimitedOperation = 'token' | 'accept';

/** The spec's operation (section 7's row) of a rate-limited operation. */
export const SPEC_OPERATION: Record<LimitedOperation, SpecOperation> = { token: 'token', accept: 'acceptOffer' };

/** Codes of failures the generator made itself: its time limit ran out, or it cut the request (socket and undici transports). */
const GENERATOR_FAILURES = new Set(['ETIMEDOUT', 'ABORTED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_ABORTED', 'AbortError', 'TimeoutError']);

/** The 5xx code the engine could not tell (k6's summary counts outcomes only). */
const UNRECORDED_5XX = '5xx (code not recorded)';

export interface Tally {
  count: number;
  /** By status code or transport failure code. */
  by: Record<string, number>;
}

export interface OverloadAnswers {
  /** Every answer and failure of the steps. */
  total: number;
  /** 5xx outside section 7's list other than a gateway's. */
  against: Tally;
  /** Gateway statuses the row does not list, and connections dropped while the generator held its plan: not the limiter's answers. */
  transient: Tally;
  /** Of `transient`, the dropped connections (the rest are gateway statuses). */
  dropped: number;
  /** 503 where section 7 lists it: load shed with a listed answer. */
  shed: Tally;
  /** Other listed 5xx, and 5xx of unrecorded code. */
  listed: Tally;
  /** Transport failures that are the generator's: its own time-outs, or in a step it could not hold. */
  excused: Tally;
}

const tally = (): Tally => ({ count: 0, by: {} });

function add(t: Tally, key: string, n: number): void {
  if (n <= 0) return;
  t.count += n;
  t.by[key] = (t.by[key] ?? 0) + n;
}

/** A step the generator did not hold: arrivals dropped or started late, or the planned rate not reached. */
export function generatorFellBehind(phase: PhaseResult): boolean {
  if (phase.dropped > 0 || (phase.late ?? 0) > 0) return true;
  return startedBelowPlan(phase);
}

/**
 * The steps the generator did not hold, in words ("at 450 req/s 392 of 450
 * planned started, 58 dropped, 12 of them late"); undefined when it held
 * every one.
 */
export function describeShortfall(phases: readonly PhaseResult[]): string | undefined {
  const behind = phases.filter(generatorFellBehind).map((p) => {
    const dropped = p.dropped ? `, ${p.dropped} dropped${p.late ? `, ${p.late} of them late` : ''}` : '';
    return `at ${p.offeredRps} req/s ${p.sent} of ${Math.round(p.offeredRps * p.durationSec)} planned started${dropped}`;
  });
  return behind.length ? behind.join('; ') : undefined;
}

function tallyServerErrors(phase: PhaseResult, operation: SpecOperation, out: OverloadAnswers): void {
  let recorded = 0;
  for (const [code, n] of Object.entries(phase.statusCounts)) {
    const status = Number(code);
    if (status < 500) continue;
    recorded += n;
    const whose = answerClass(operation, status);
    if (whose === 'gateway') add(out.transient, code, n);
    else if (whose === 'unlisted') add(out.against, code, n);
    else if (status === 503) add(out.shed, code, n);
    else add(out.listed, code, n);
  }
  add(out.listed, UNRECORDED_5XX, phase.answers['5xx'] - recorded);
}

function tallyTransport(phase: PhaseResult, out: OverloadAnswers): void {
  const behind = generatorFellBehind(phase);
  let coded = 0;
  for (const [code, n] of Object.entries(phase.errors ?? {})) {
    coded += n;
    if (behind || GENERATOR_FAILURES.has(code)) add(out.excused, code, n);
    else {
      add(out.transient, code, n);
      out.dropped += n;
    }
  }
  // Failures without a code (k6): the target's unless the generator fell behind.
  const uncoded = phase.answers.transport - coded;
  if (behind) add(out.excused, 'transport failure', uncoded);
  else {
    add(out.transient, 'transport failure', uncoded);
    out.dropped += Math.max(0, uncoded);
  }
}

/** The steps' answers other than admitted ones and 429, sorted by who they count against. */
export function overloadAnswers(phases: readonly PhaseResult[], operation: LimitedOperation): OverloadAnswers {
  const out: OverloadAnswers = { total: 0, against: tally(), transient: tally(), dropped: 0, shed: tally(), listed: tally(), excused: tally() };
  for (const p of phases) {
    out.total += answered(p);
    tallyServerErrors(p, SPEC_OPERATION[operation], out);
    tallyTransport(p, out);
  }
  return out;
}

export const shareOf = (t: Tally, total: number) => (total ? t.count / total : 0);

/** The transient answers in words: the gateway statuses by code, and the dropped connections, with what each is. */
export function describeTransient(under: OverloadAnswers, operationName: string): string {
  const gateway = Object.entries(under.transient.by).filter(([code]) => /^\d{3}$/.test(code));
  const parts = [
    gateway.length ? `${gateway.map(([code, n]) => `${code} ×${n}`).join(', ')} (gateway statuses section 7 does not list for ${operationName})` : '',
    under.dropped ? `${under.dropped} dropped connections while the generator kept up` : '',
  ];
  return parts.filter(Boolean).join(' and ');
}
