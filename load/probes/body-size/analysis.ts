// The verdict of the 413 boundary probe from its steps: the limit found by
// bisection, whether the smallest oversize body got a readable 413 under
// every framing, and the observations around it (early refusal, resets on
// large bodies, Connection: close, time to 413).
//
// What backs each verdict: section 8 names a request
// size limit on the token endpoint, with status 413, but not its value. So a
// body the service refuses for its size must get 413 — a 5xx that is no
// gateway's, a bare reset or a chunked body let through above the limit it
// applies to Content-Length bodies FAIL on that text ("Request size limit
// (status 413) | Token endpoint"). A step that got no answer in time (a
// time-out is not a refusal) or only a gateway's 502, 503 or 504 (transient,
// asked again) says nothing about its size: ERROR, naming it (answer.ts).
// No 413 up to the probe's largest size is INCONCLUSIVE: the
// limit may lie above it — unless the profile documents a smaller limit, a
// profile-declared FAIL. How and when the 413 comes (before the body is
// read, with Connection: close, after 100-continue) is not shown: findings.
import type { SizeProbeStep } from '../../../src/results/load-model.ts';
import type { AnalysisFinding } from '../rate-limit/analysis.ts';
import { sizeAnswer } from './answer.ts';

export interface BodySizeJudgement {
  /** ERROR: a size the judgement needs got no answer in time, or only a gateway's (answer.ts). */
  verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE' | 'ERROR';
  reason: string;
  /** Set on a FAIL that contradicts the profile's documented limit rather than the spec's text: the profile key, and its value. */
  declaredBy?: string;
  declaredValue?: unknown;
  /** The catalogue sentence a spec FAIL rests on: 8's "Request size limit (status 413) | Token endpoint". */
  on?: string;
  details?: Record<string, unknown>;
  largestAcceptedBytes?: number;
  smallestRejectedBytes?: number;
  findings: AnalysisFinding[];
}

const refused = (s: SizeProbeStep) => sizeAnswer(s) === 'refused';

/** The probe that withholds its body waits for no answer on purpose: its time-out is a finding, not a lost answer. */
const WITHHELD = 'declared size, body withheld';

/** Steps whose answer says nothing about their size: a time-out, or a gateway's status still there after being asked again. */
const unobserved = (steps: SizeProbeStep[]) => steps.filter((s) => s.purpose !== WITHHELD && sizeAnswer(s) === 'unobserved');

/** The sentence every spec FAIL of the probe rests on: 8 names the size limit's status, 413. */
export const SIZE_LIMIT_SENTENCE = 'SPEC-8-SIZE-LIMIT';

/** Where the profile documents the token endpoint's body limit. */
export const DOCUMENTED_BODY_LIMIT_KEY = 'load.tokenBodyLimit.expectedBytes';

function describe(s: SizeProbeStep): string {
  if (s.outcome === 'reset') return `the connection was closed without a status${s.errorCode ? ` (${s.errorCode})` : ''}`;
  if (s.outcome === 'timeout') return `no answer within ${Math.round(s.durationMs)} ms`;
  return `${s.status}`;
}

/** What the probe was held to: the sizes it could try, and the limit the profile documents. */
export type ProbeContext = { maxBytes: number; minBytes: number; expectedLimitBytes?: number };
type Bounds = { largestAcceptedBytes: number; smallestRejectedBytes: number };

export function judgeBodySize(steps: SizeProbeStep[], context: ProbeContext): BodySizeJudgement {
  const findings: AnalysisFinding[] = [];
  const upper = steps.find((s) => s.purpose === 'upper bound');
  if (!upper) return { verdict: 'INCONCLUSIVE', reason: 'no request was sent', findings };
  // A contradiction shown with its sentence (a server error where 413 is due) stands beside a size not observed.
  const unusable = unusableAnswers(steps, context, findings);
  if (unusable) return unusable;
  const lost = unobserved(steps);
  if (lost.length) return notObserved(lost, steps, findings);
  if (!refused(upper)) return noLimitFound(upper, context, findings);

  const bounds = sizeBounds(steps);
  if (bounds.largestAcceptedBytes >= bounds.smallestRejectedBytes) {
    return {
      verdict: 'INCONCLUSIVE',
      reason: `the answers do not depend on size alone: ${bounds.largestAcceptedBytes} bytes were accepted but ${bounds.smallestRejectedBytes} bytes refused`,
      ...bounds,
      findings,
    };
  }
  const limit = bounds.largestAcceptedBytes;
  const over = limit + 1;
  const base = { largestAcceptedBytes: limit, smallestRejectedBytes: bounds.smallestRejectedBytes };
  const no413 = oversizeWithout413(steps, over, base, findings);
  if (no413) return no413;
  findings.push(...framingFindings(steps, limit, over), ...boundaryFindings(steps, limit, over, context));
  return {
    verdict: 'PASS',
    ...base,
    reason: `413 from ${over} bytes on (${limit} bytes accepted), with Content-Length, chunked and Expect: 100-continue framing`,
    findings,
  };
}

/**
 * Steps that got no answer in time, or only a gateway's: the sizes they probe
 * were not observed, so neither is the limit where they lie. ERROR, naming
 * each, with what the other steps did show.
 */
function notObserved(lost: SizeProbeStep[], steps: SizeProbeStep[], findings: AnalysisFinding[]): BodySizeJudgement {
  const what = lost.map((s) => `a ${s.framing} body of ${s.sizeBytes} bytes (${s.purpose}): ${s.outcome === 'timeout' ? describe(s) : `still ${s.status} after being asked again`}`);
  const kinds = [lost.some((s) => s.outcome === 'timeout') ? 'a time-out is not a refusal' : '', lost.some((s) => s.outcome !== 'timeout') ? "a gateway's 502, 503 or 504 is a transient answer" : ''].filter(Boolean);
  const { largestAcceptedBytes: accepted, smallestRejectedBytes: rejected } = sizeBounds(steps);
  const seen = [Number.isFinite(accepted) ? `${accepted} bytes accepted` : '', Number.isFinite(rejected) ? `${rejected} bytes refused` : ''].filter(Boolean);
  const known = seen.length ? ` (observed: ${seen.join(', ')})` : '';
  return {
    verdict: 'ERROR',
    reason: `not observed: ${what.join('; ')} — ${kinds.join(', and ')}, so the answer for that size says nothing about the limit${known}`,
    details: { unobserved: lost.map((s) => ({ sizeBytes: s.sizeBytes, framing: s.framing, purpose: s.purpose, outcome: s.outcome, status: s.status })) },
    findings,
  };
}

/** Answers that say nothing about a size limit (the smallest body refused) or contradict 8 outright (a 5xx that is no gateway's). */
function unusableAnswers(steps: SizeProbeStep[], context: ProbeContext, findings: AnalysisFinding[]): BodySizeJudgement | undefined {
  const lower = steps.find((s) => s.purpose === 'lower bound');
  if (lower && refused(lower)) {
    // The plain request failing says nothing about a size limit; the conformance checks judge that answer.
    return { verdict: 'INCONCLUSIVE', reason: `even the smallest request body (${context.minBytes} bytes) was refused: ${describe(lower)}`, findings };
  }
  // A gateway's status is not observed (answer.ts): what is left is the service's own server error.
  const first = steps.find((s) => s.outcome === '5xx' && refused(s));
  if (!first) return undefined;
  return {
    verdict: 'FAIL',
    on: SIZE_LIMIT_SENTENCE,
    reason: `a ${first.framing} body of ${first.sizeBytes} bytes was answered ${first.status}, a server error, where 413 is due`,
    details: { expected: 413, actual: first.status, sizeBytes: first.sizeBytes, framing: first.framing },
    findings,
  };
}

/** The largest accepted and the smallest refused size of the bisection (Content-Length bodies actually sent). */
function sizeBounds(steps: SizeProbeStep[]): Bounds {
  const declared = steps.filter((s) => s.framing === 'content-length' && s.purpose !== WITHHELD && sizeAnswer(s) !== 'unobserved');
  const accepted = declared.filter((s) => !refused(s)).map((s) => s.sizeBytes);
  const rejected = declared.filter(refused).map((s) => s.sizeBytes);
  return { largestAcceptedBytes: Math.max(...accepted), smallestRejectedBytes: Math.min(...rejected) };
}

/** The FAIL when the smallest oversize body got no readable 413 (declared or chunked); a chunked 4xx other than 413 is only a finding. */
function oversizeWithout413(steps: SizeProbeStep[], over: number, base: Bounds, findings: AnalysisFinding[]): BodySizeJudgement | undefined {
  const oversizeDeclared = steps.filter((s) => s.sizeBytes === over && s.framing !== 'chunked');
  if (!oversizeDeclared.some((s) => s.outcome === '413')) {
    return {
      verdict: 'FAIL',
      on: SIZE_LIMIT_SENTENCE,
      ...base,
      reason: `the smallest oversize body (${over} bytes) got no readable 413: ${oversizeDeclared.map((s) => `${s.framing}: ${describe(s)}`).join('; ')}`,
      details: { expected: 413, actual: oversizeDeclared.map((s) => ({ framing: s.framing, outcome: s.outcome, status: s.status })) },
      findings,
    };
  }
  const chunkedOver = steps.find((s) => s.framing === 'chunked' && s.sizeBytes === over);
  if (chunkedOver?.outcome === 'other-4xx') {
    // Refused, though not with 413 (411 Length Required refuses chunked bodies of any size): the limit is not bypassed.
    findings.push({ level: 'WARN', message: `a chunked body of ${over} bytes was refused with ${chunkedOver.status}, not 413` });
  } else if (chunkedOver && chunkedOver.outcome !== '413') {
    return {
      verdict: 'FAIL',
      on: SIZE_LIMIT_SENTENCE,
      ...base,
      reason: refused(chunkedOver)
        ? `a chunked body of ${over} bytes got no readable 413: ${describe(chunkedOver)}`
        : `a chunked body of ${over} bytes was accepted (${chunkedOver.status}): the limit is not applied to chunked bodies`,
      details: { expected: 413, actual: chunkedOver.status ?? chunkedOver.outcome, framing: 'chunked', sizeBytes: over },
      findings,
    };
  }
  return undefined;
}

/** How the framings other than Content-Length fared at the boundary: chunked at the limit, Expect: 100-continue, a withheld body. */
function framingFindings(steps: SizeProbeStep[], limit: number, over: number): AnalysisFinding[] {
  const findings: AnalysisFinding[] = [];
  const chunkedAt = steps.find((s) => s.framing === 'chunked' && s.sizeBytes === limit);
  if (chunkedAt && refused(chunkedAt)) {
    findings.push({ level: 'WARN', message: `a chunked body of ${limit} bytes (accepted with Content-Length) was refused: ${describe(chunkedAt)}` });
  }
  const expectOver = steps.filter((s) => s.framing === 'expect-100-continue' && s.sizeBytes === over);
  for (const s of expectOver) {
    // 417 is how HTTP refuses an expectation it does not meet (RFC 9110 10.1.1): no body was sent, so no size was refused.
    if (s.status === 417) findings.push({ level: 'INFO', message: `with Expect: 100-continue the smallest oversize body got 417 (the expectation is not supported)` });
    else if (s.outcome !== '413') findings.push({ level: 'WARN', message: `with Expect: 100-continue the smallest oversize body got ${describe(s)} instead of 413` });
    else if (s.answeredBeforeBodyComplete) findings.push({ level: 'INFO', message: `with Expect: 100-continue, 413 came before the body was sent` });
  }
  const withheld = steps.find((s) => s.purpose === WITHHELD);
  if (withheld?.outcome === 'timeout') {
    // Refusing from the declared size, before the body, is good practice, not something the spec shows.
    findings.push({
      level: 'INFO',
      message: `a declared Content-Length of ${withheld.sizeBytes} bytes with only ${withheld.sentBytes ?? '?'} bytes sent got no answer: the server waits for an oversize body instead of refusing it from its declared size`,
    });
  } else if (withheld?.outcome === '413') {
    findings.push({ level: 'INFO', message: `a declared Content-Length of ${withheld.sizeBytes} bytes was refused (413) before the body was sent` });
  }
  return findings;
}

/** How the 413 came beyond the boundary: resets on large bodies, time growing with size, the connection kept open, a limit off the documented one. */
function boundaryFindings(steps: SizeProbeStep[], limit: number, over: number, context: ProbeContext): AnalysisFinding[] {
  const findings: AnalysisFinding[] = [];
  const largeResets = steps.filter((s) => s.outcome === 'reset' && s.sizeBytes > over);
  if (largeResets.length) {
    findings.push({
      level: 'INFO',
      message: `large oversize bodies ended without a status (${largeResets.map((s) => `${s.sizeBytes} bytes ${s.framing}`).join(', ')}): recorded, RFC 9110 lets a server close the connection`,
    });
  }
  const at413 = (size: number) => steps.find((s) => s.framing === 'content-length' && s.sizeBytes === size && s.outcome === '413');
  const small = at413(over);
  const big = at413(context.maxBytes);
  if (small && big && big.durationMs > Math.max(5 * small.durationMs, small.durationMs + 200)) {
    findings.push({ level: 'INFO', message: `time to 413 grows with the body: ${small.durationMs} ms at ${over} bytes, ${big.durationMs} ms at ${context.maxBytes} bytes (the body seems to be read before it is refused)` });
  }
  const keptOpen = steps.filter((s) => s.outcome === '413' && s.answeredBeforeBodyComplete && s.connection && s.connection.toLowerCase() !== 'close');
  if (keptOpen.length) {
    findings.push({ level: 'INFO', message: `413 before the whole body was read, yet Connection: ${keptOpen[0]!.connection} (RFC 9110 15.5.14: the server may close the connection)` });
  }
  if (context.expectedLimitBytes !== undefined && context.expectedLimitBytes !== limit) {
    findings.push({ level: 'WARN', message: `the profile documents the largest accepted body as ${context.expectedLimitBytes} bytes (${DOCUMENTED_BODY_LIMIT_KEY}); it is ${limit}` });
  }
  return findings;
}

/**
 * The largest body was not refused. The spec does not show the limit's value
 * (8), so it may lie above the probe's largest size: INCONCLUSIVE — unless the
 * profile documents a limit below that size, which the answer contradicts.
 */
function noLimitFound(upper: SizeProbeStep, context: { maxBytes: number; expectedLimitBytes?: number }, findings: AnalysisFinding[]): BodySizeJudgement {
  const expected = context.expectedLimitBytes;
  if (expected !== undefined && expected < context.maxBytes) {
    return {
      verdict: 'FAIL',
      declaredBy: DOCUMENTED_BODY_LIMIT_KEY,
      declaredValue: expected,
      reason: `a ${context.maxBytes}-byte body was answered ${upper.status}, not 413: no body-size limit up to ${context.maxBytes} bytes, though the profile documents ${expected} bytes as the largest accepted (${DOCUMENTED_BODY_LIMIT_KEY})`,
      details: { expected: 413, actual: upper.status, sizeBytes: context.maxBytes, documentedLimitBytes: expected },
      findings,
    };
  }
  return {
    verdict: 'INCONCLUSIVE',
    reason:
      expected !== undefined
        ? `no 413 up to ${context.maxBytes} bytes, which is not above the documented limit of ${expected} bytes: raise the probe's largest size (load.tokenBodyLimit.maxProbeBytes)`
        : `no 413 up to ${context.maxBytes} bytes (answered ${upper.status}): the spec does not show the limit's value (8) and the profile documents none (${DOCUMENTED_BODY_LIMIT_KEY}), so it may lie above the probe's largest size (load.tokenBodyLimit.maxProbeBytes)`,
    details: { sizeBytes: context.maxBytes, status: upper.status },
    findings,
  };
}
