// Who the answers of a staircase that are neither admitted nor 429 count
// against. Section 8 names the rate limit's status, 429, for the token
// endpoint and accept; section 7 lists each operation's codes. Each 5xx code
// is judged by the one function for a server error where a refusal was due
// (src/check/server-error.ts), with what it did unknown (the staircase reads
// no effect; accept-probes.ts reads offers refused with 429 back). So, under
// overload:
//   - on the token endpoint every request is a valid grant the operation
//     serves but for the limit, so 429 is the status for the condition:
//     another 5xx (500, 503) is load refused otherwise than with 429 and
//     counts against the target;
//   - on accept the staircase's offers are also refused for 4.4 rule 1 (a
//     later iteration's offer supersedes them), so a 5xx cannot be told to
//     refuse the rate: a listed 500 is a warning, 503 (listed) load shed,
//     and a 5xx the row does not list counts against the target;
//   - 502 and 504, a gateway's answers, decide nothing: noted;
//   - a 5xx whose code the engine did not record (k6's summary) is at most
//     a warning; a connection the target dropped while the generator held
//     its plan counts against it;
//   - the generator's own time-outs and cut requests, and any transport
//     failure in a step the generator could not hold (arrivals dropped or
//     late, the rate not reached), are the generator's, not the target's.
import type { SpecOperation } from '../../../src/spec/status-codes.ts';
import { effectUnknown, judgeServerError } from '../../../src/check/server-error.ts';
import { answered, type PhaseResult } from '../../result/normalized.ts';

export type LimitedOperation = 'token' | 'accept';

/** The spec's operation (section 7's row) of a rate-limited operation. */
export const SPEC_OPERATION: Record<LimitedOperation, SpecOperation> = { token: 'token', accept: 'acceptOffer' };

/** Codes of failures the generator made itself: its time limit ran out, or it cut the request (socket and undici transports). */
const GENERATOR_FAILURES = new Set(['ETIMEDOUT', 'ABORTED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_ABORTED', 'AbortError', 'TimeoutError']);

/** The 5xx code the engine could not tell (k6's summary counts outcomes only). */
const UNRECORDED_5XX = '5xx (code not recorded)';

/** The sentence a refusal otherwise than with 429 contradicts: 8 names the rate limit's status. */
export const RATE_LIMIT_SENTENCE = 'SPEC-8-RATE-LIMIT';

/** Where the staircase's requests are refused for the limit only (token: valid grants), the status 8 names for it. */
const NAMED_FOR_THE_LIMIT: Partial<Record<LimitedOperation, { status: number; on: string }>> = { token: { status: 429, on: RATE_LIMIT_SENTENCE } };

const STAIRCASE_EFFECT = effectUnknown('a staircase reads no effect of its requests');

export interface Tally {
  count: number;
  /** By status code or transport failure code. */
  by: Record<string, number>;
}

export interface OverloadAnswers {
  /** Every answer and failure of the steps. */
  total: number;
  /** 5xx the judgement FAILs (another status than 429 on the token endpoint, one accept's row does not list), and connections dropped while the generator held its plan. */
  against: Tally;
  /** Of `against`, the dropped connections (the rest are 5xx). */
  dropped: number;
  /** 503 where section 7 lists it: load shed with a listed answer. */
  shed: Tally;
  /** 5xx accept's row lists (500), and 5xx of unrecorded code: at most a warning. */
  listed: Tally;
  /** A gateway's 502 and 504: the path to the target failed, which decides nothing. */
  gateway: Tally;
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
  return phase.offeredRps > 0 && phase.durationSec >= 0.5 && phase.achievedRps < 0.95 * phase.offeredRps;
}

function tallyServerErrors(phase: PhaseResult, operation: LimitedOperation, out: OverloadAnswers): void {
  let recorded = 0;
  for (const [code, n] of Object.entries(phase.statusCounts)) {
    const status = Number(code);
    if (status < 500) continue;
    recorded += n;
    const judged = judgeServerError({ status, operation: SPEC_OPERATION[operation], effect: STAIRCASE_EFFECT, named: NAMED_FOR_THE_LIMIT[operation] });
    if (judged.level === 'FAIL') add(out.against, code, n);
    else if (judged.level === 'WARN') add(out.listed, code, n);
    // ERROR: a listed 503 says "not now" (load shed), a 502 or 504 is a gateway's.
    else add(status === 503 ? out.shed : out.gateway, code, n);
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
      add(out.against, code, n);
      out.dropped += n;
    }
  }
  // Failures without a code (k6): the target's unless the generator fell behind.
  const uncoded = phase.answers.transport - coded;
  if (behind) add(out.excused, 'transport failure', uncoded);
  else {
    add(out.against, 'transport failure', uncoded);
    out.dropped += Math.max(0, uncoded);
  }
}

/** The steps' answers other than admitted ones and 429, sorted by who they count against. */
export function overloadAnswers(phases: readonly PhaseResult[], operation: LimitedOperation): OverloadAnswers {
  const out: OverloadAnswers = { total: 0, against: tally(), dropped: 0, shed: tally(), listed: tally(), gateway: tally(), excused: tally() };
  for (const p of phases) {
    out.total += answered(p);
    tallyServerErrors(p, operation, out);
    tallyTransport(p, out);
  }
  return out;
}

export const shareOf = (t: Tally, total: number) => (total ? t.count / total : 0);
