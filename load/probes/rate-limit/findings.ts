// What the analysis notes beside a PASS, once the limit is estimated: 429s
// well below it, throughput collapsing under overload, 429s slower than
// admitted answers, a limiter without burst allowance (the estimate is then
// a lower bound), a limit off the documented one, and no recovery after
// backing off. In a step the generator did not hold (overload.ts
// generatorFellBehind) timing decided what came back: late arrivals go out
// together, which a limiter refuses as a burst, and fewer arrivals are fewer
// admitted. What such a step shows is noted (INFO), never a warning.
import { answered, type NormalizedRun, type PhaseResult } from '../../result/normalized.ts';
import { DOCUMENTED_LIMIT_TOLERANCE, round1, type AnalysisFinding, type RateLimitCriteria } from './model.ts';
import { admitted, hasOnset, measuredEnough, setUpNote } from './steps.ts';
import { describeShortfall, generatorFellBehind } from './overload.ts';

/** The finding at `level`, or an INFO naming the shortfall when the generator did not hold the steps it rests on. */
function unlessBehind(steps: readonly PhaseResult[], level: AnalysisFinding['level'], message: string): AnalysisFinding {
  const shortfall = describeShortfall(steps);
  if (!shortfall) return { level, message };
  return { level: 'INFO', message: `${message}; but the generator did not hold ${steps.length === 1 ? 'this step' : 'the steps it was read from'} (${shortfall}), so timing may have made it: not a warning` };
}

const BELOW_LIMIT_SHARE = 0.8;
/** Share of the recovery step's answers that must pass the limiter again. */
const RECOVERED_SHARE = 0.95;
/**
 * The same for a limiter without burst allowance: it refuses every request
 * sent closer than 1/rate to the one before, and a generator that stalls for
 * a few milliseconds on a busy machine sends some that close (seen: 6 × 429 of
 * 119 requests at 119 req/s, against a 200 req/s limit whose spacing is 5 ms,
 * 8.4 ms planned). One that has not recovered still refuses most.
 */
const RECOVERED_SHARE_BURSTLESS = 0.8;

/** 429s below the limit, a collapse on the plateau, and slow 429s from the onset on. */
export function overloadFindings(run: NormalizedRun, climb: PhaseResult[], plateau: PhaseResult[], overload: PhaseResult[], estimate: number): AnalysisFinding[] {
  const findings: AnalysisFinding[] = [];
  for (const p of climb) {
    if (p.offeredRps <= BELOW_LIMIT_SHARE * estimate && hasOnset(p)) {
      findings.push(unlessBehind([p], 'WARN', `${p.answers['429']} × 429 at ${p.offeredRps} req/s, well below the estimated limit of ${round1(estimate)} req/s`));
    }
  }
  for (const p of plateau) {
    if (!measuredEnough(p)) {
      findings.push(setUpNote(p, 'its throughput is not judged'));
      continue;
    }
    const rate = admitted(p) / p.durationSec;
    if (rate < 0.7 * estimate) {
      findings.push(unlessBehind([p], 'WARN', `accepted throughput fell to ${round1(rate)} req/s at ${p.offeredRps} req/s offered (estimate ${round1(estimate)}): it collapses under overload instead of holding the limit`));
    }
  }
  // On a starved machine queued requests end as slow 429s whatever the limiter does: then latency is only noted.
  const quiet = !run.generator.saturated && (run.generator.scheduleLagP99Ms ?? 0) < 20;
  findings.push(...latencyFindings(overload).map((f) => (quiet ? f : { ...f, message: `${f.message} (the machine was busy: latency comparisons are unreliable)` })));
  return findings;
}

export interface LimitRange {
  /** No burst allowance was measured: the estimate is the range's lower end. */
  burstless: boolean;
  range: [number, number];
}

/**
 * Where the limit lies given the burst measured, and whether that contradicts the documented limit; notes both in findings.
 * readFrom: the steps the estimate was read from (the onset and the plateau).
 */
export function limitRange(estimate: number, burst: number, criteria: RateLimitCriteria, findings: AnalysisFinding[], readFrom: readonly PhaseResult[] = []): LimitRange {
  // Requests closer than 1/rate are refused by a limiter without burst allowance, so it admits less than its rate (≥ half) under overload.
  const burstless = burst <= Math.max(2, 0.02 * estimate);
  const range: [number, number] = burstless ? [round1(estimate), round1(2 * estimate)] : [round1(estimate), round1(estimate)];
  if (burstless) {
    findings.push({
      level: 'INFO',
      message: `no burst allowance was measured (≈ ${Math.max(0, burst)}): such a limiter refuses requests closer together than 1/rate, so of an overload it admits between half its rate and its rate — the limit lies between ${range[0]} and ${range[1]} req/s`,
    });
  }
  const expected = criteria.expectedRps;
  if (expected && (range[0] > (1 + DOCUMENTED_LIMIT_TOLERANCE) * expected || range[1] < (1 - DOCUMENTED_LIMIT_TOLERANCE) * expected)) {
    findings.push(
      unlessBehind(
        readFrom,
        'WARN',
        `the estimated limit of ${burstless ? `${range[0]}–${range[1]}` : round1(estimate)} req/s differs from the ${expected} req/s the profile documents${criteria.expectedRpsKey ? ` (${criteria.expectedRpsKey})` : ''} by more than ${DOCUMENTED_LIMIT_TOLERANCE * 100} %`,
      ),
    );
  }
  return { burstless, range };
}

/** Did the recovery step pass the limiter again? Undefined without one; a WARN in findings when not. burstless: no burst allowance was measured (limitRange). */
export function recoveryCheck(recovery: PhaseResult | undefined, findings: AnalysisFinding[], burstless = false): boolean | undefined {
  if (!recovery) return undefined;
  if (!measuredEnough(recovery)) {
    findings.push(setUpNote(recovery, 'whether the limiter recovered is not judged'));
    return undefined;
  }
  // A limiter that has not recovered refuses most; a stray 429 after a stall on a busy machine is not that.
  // Only 429s are the limiter's: a transient 503 or a dropped connection in the step says nothing about it.
  const total = answered(recovery);
  const share = burstless ? RECOVERED_SHARE_BURSTLESS : RECOVERED_SHARE;
  const recovered = total > 0 && recovery.answers['429'] <= (1 - share) * total;
  if (!recovered) {
    findings.push(unlessBehind([recovery], 'WARN', `after backing off, ${recovery.answers['429']} of ${total} requests at ${recovery.offeredRps} req/s (below the estimated limit) were still refused`));
    // Whether it recovered is not known when the generator decided what came back.
    if (generatorFellBehind(recovery)) return undefined;
  }
  return recovered;
}

/**
 * A limiter sheds load: a 429 costs the server less than an accepted
 * request, so within one step 429s answer at least as fast. Compared within
 * the step (medians), so a busy machine slowing everything down does not
 * read as queueing.
 */
function latencyFindings(overload: PhaseResult[]): AnalysisFinding[] {
  const findings: AnalysisFinding[] = [];
  for (const p of overload) {
    const refused = p.latency['429'];
    const accepted = p.latency['2xx'];
    if (!refused || !accepted || refused.count < 10) continue;
    if (refused.p50Ms > Math.max(3 * accepted.p50Ms, accepted.p50Ms + 100)) {
      // How fast a 429 comes is not shown anywhere in the spec: noted for the reviewer, never a warning.
      findings.push({
        level: 'INFO',
        message: `at ${p.offeredRps} req/s the median 429 took ${refused.p50Ms} ms against ${accepted.p50Ms} ms for accepted requests: the limiter seems to queue requests rather than shed them`,
      });
    }
  }
  return findings;
}
