// The limit's estimate once 429s set in. The estimate is the accepted rate
// of the "plateau" steps — those after the first step with 429s — when the
// bucket is already drained and every refill is spent at once
// (staircase.ts explains why that is unbiased); where the embedded engine
// kept an arrival timeline, it is read from when the requests were sent.
import type { ArrivalTimeline, NormalizedRun, PhaseResult } from '../../result/normalized.ts';
import { round1, type AnalysisFinding, type RateLimitAnalysis } from './model.ts';
import { admitted, measuredEnough } from './steps.ts';

export interface LimitEstimate {
  estimate: number;
  estimateMethod: RateLimitAnalysis['estimateMethod'];
}

/** onset: the first step with 429s; plateau: the steps after it. Notes how the estimate was read in findings. */
export function estimateLimit(run: NormalizedRun, onset: PhaseResult, plateau: PhaseResult[], findings: AnalysisFinding[]): LimitEstimate {
  let estimate: number;
  let estimateMethod: RateLimitAnalysis['estimateMethod'] = 'plateau-steps';
  const stepwise = run.arrivalTimeline && refillEstimate(run.arrivalTimeline);
  const fromTimeline = run.arrivalTimeline && timelineEstimate(run.arrivalTimeline);
  if (stepwise && stepwise.rps !== undefined) {
    // A limiter that refills in steps (a fixed window): read over whole refill periods, not the refused tail of each.
    estimate = stepwise.rps;
    estimateMethod = 'arrival-timeline';
    if ((stepwise.periodSec ?? 0) >= 0.5) {
      findings.push({
        level: 'INFO',
        message: `admissions came in bursts every ${round1(stepwise.periodSec ?? 0)} s with only 429s between (a fixed-window limiter?): the limit is read over ${stepwise.periods} whole refill period(s)`,
      });
    }
  } else if (fromTimeline && !stepwise) {
    estimate = fromTimeline.rps;
    estimateMethod = 'arrival-timeline';
  } else if (plateau.length) {
    // Also where the limiter refills in steps but showed fewer than two refills: whole steps are the next best span.
    if (stepwise) findings.push({ level: 'INFO', message: 'admissions came in bursts with only 429s between (a fixed-window limiter?), too few to read whole periods: the limit is read from the plateau steps' });
    // Steps whose iterations ended in their set-up admitted less for want of requests, not for the limiter: left out while another step remains.
    const measured = plateau.filter(measuredEnough);
    const steps = measured.length ? measured : plateau;
    const acceptedSum = steps.reduce((s, p) => s + admitted(p), 0);
    const secSum = steps.reduce((s, p) => s + p.durationSec, 0);
    estimate = acceptedSum / secSum;
  } else {
    // Only the onset step saw 429s: its accepted rate still holds part of the burst, so it overstates the limit.
    estimate = admitted(onset) / onset.durationSec;
    findings.push({ level: 'INFO', message: `429s appeared only in the last step (${onset.offeredRps} req/s): the estimate includes part of the burst and may be high` });
  }
  return { estimate, estimateMethod };
}

/** A stretch of arrival slots this long with 429s and not one admitted answer is a limiter waiting for its next refill. */
const REFILL_GAP_SLOTS_MS = 50;
/** Share of drained 100 ms windows with no admitted answer from which the limiter counts as refilling in steps. */
const STEPWISE_SHARE = 0.3;

/**
 * The limit of a limiter that refills in steps, such as a fixed window: it
 * admits a whole window's quota at once and then refuses until the next
 * window, so the drained stretches hold only 429s and timelineEstimate's
 * windows see almost nothing admitted. Read instead from refill to refill:
 * the answers admitted between the first and the last refill, over the time
 * between them, count whole periods only. Undefined when the timeline does
 * not look stepwise (a token bucket refills continuously); without rps when
 * it does but shows fewer than two refills.
 */
export function refillEstimate(timeline: ArrivalTimeline): { rps?: number; periods: number; periodSec?: number } | undefined {
  if (!looksStepwise(timeline)) return undefined;
  const gapSlots = Math.max(1, Math.round(REFILL_GAP_SLOTS_MS / timeline.resolutionMs));
  const refills: number[] = [];
  let refusedOnly = 0;
  for (let i = 0; i < timeline.admitted.length; i++) {
    const admittedHere = timeline.admitted[i]!;
    if (admittedHere > 0 && refusedOnly >= gapSlots) refills.push(i);
    if (admittedHere > 0) refusedOnly = 0;
    else if (timeline.limited[i]! > 0 || refusedOnly > 0) refusedOnly++;
  }
  if (refills.length < 2) return { periods: 0 };
  const first = refills[0]!;
  const last = refills[refills.length - 1]!;
  let sum = 0;
  for (let i = first; i < last; i++) sum += timeline.admitted[i]!;
  const spanSec = ((last - first) * timeline.resolutionMs) / 1000;
  const periods = refills.length - 1;
  return { rps: sum / spanSec, periods, periodSec: spanSec / periods };
}

/** At least three 100 ms windows with 429s, and of them STEPWISE_SHARE or more with nothing admitted. */
function looksStepwise(timeline: ArrivalTimeline): boolean {
  const { admittedIn, limitedIn } = windowTotals(timeline, 100);
  let drained = 0;
  let empty = 0;
  for (let w = 0; w < admittedIn.length; w++) {
    if (limitedIn[w] === 0) continue;
    drained++;
    if (admittedIn[w] === 0) empty++;
  }
  return !(drained < 3 || empty / drained < STEPWISE_SHARE);
}

/** Admitted and limited answers per whole window of windowMs (a trailing partial window is left out). */
function windowTotals(timeline: ArrivalTimeline, windowMs: number): { per: number; admittedIn: number[]; limitedIn: number[] } {
  const per = Math.max(1, Math.round(windowMs / timeline.resolutionMs));
  const count = Math.floor(timeline.admitted.length / per);
  const admittedIn: number[] = [];
  const limitedIn: number[] = [];
  for (let w = 0; w < count; w++) {
    let a = 0;
    let l = 0;
    for (let i = w * per; i < (w + 1) * per; i++) {
      a += timeline.admitted[i]!;
      l += timeline.limited[i]!;
    }
    admittedIn.push(a);
    limitedIn.push(l);
  }
  return { per, admittedIn, limitedIn };
}

/**
 * The limit read from the arrival timeline: admitted requests per second
 * over the windows in which the bucket stayed drained — 429s in the window
 * and in both neighbours. Once drained, every token is spent the moment it
 * refills, so requests are admitted at exactly the sustained rate. They are
 * placed by when they were sent, since the limiter decides as a request
 * arrives: an admitted answer that comes a second after the 429s of its
 * moment (a slow operation behind the limiter) stays in its own window, and
 * the answers of the burst admitted before the drain never land among the
 * drained windows. A server that falls behind decides later than the
 * arrivals, but a stall only delays the spending of tokens, it loses none.
 */
export function timelineEstimate(timeline: ArrivalTimeline, windowMs = 100): { rps: number; windows: number } | undefined {
  const { per, admittedIn, limitedIn } = windowTotals(timeline, windowMs);
  const count = admittedIn.length;
  let sum = 0;
  let windows = 0;
  for (let w = 1; w < count - 1; w++) {
    if (limitedIn[w - 1]! > 0 && limitedIn[w]! > 0 && limitedIn[w + 1]! > 0) {
      sum += admittedIn[w]!;
      windows++;
    }
  }
  if (windows < 3) return undefined;
  return { rps: sum / ((windows * per * timeline.resolutionMs) / 1000), windows };
}
