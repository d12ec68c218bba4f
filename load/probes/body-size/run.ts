// The 413 boundary probe of the token endpoint: bisection on the body size
// (Content-Length framing) to the exact byte, then the boundary again with
// chunked and Expect: 100-continue framing, and one declared-only request
// (a Content-Length far above the limit with almost no body sent).
import type { SizeProbeStep } from '../../../src/results/load-model.ts';
import { baseBody, paddedBody, requestBudget, SizeBisection, utf8Length, type Framing } from '../../scenarios/body-size.ts';
import { type Variables } from '../../../src/template.ts';
import { fillRequest } from '../../scenarios/request.ts';
import type { RequestTemplate } from '../../scenarios/types.ts';
import { advisedWaitSec } from '../rate-limit/headers.ts';
import { judgeBodySize, type BodySizeJudgement } from './analysis.ts';
import { sendSized, type SizedRequest, type SizedResponse } from './raw-request.ts';

export interface BodySizeProbeOptions {
  baseUrl: string;
  request: RequestTemplate;
  variables: Variables;
  maxBytes: number;
  expectedLimitBytes?: number;
  timeoutMs?: number;
  tls?: SizedRequest['tls'];
  /** How long a declared-only request waits for an early answer. */
  declaredWaitMs?: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/** One probe with what was sent and received, for evidence. */
export interface SizedExchange {
  step: SizeProbeStep;
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  response: SizedResponse;
}

export interface BodySizeProbeRun {
  judgement: BodySizeJudgement;
  steps: SizeProbeStep[];
  exchanges: SizedExchange[];
  requests: number;
  requestBudget: number;
  /** Requests repeated because the rate limiter answered 429 (not counted in the budget). */
  rateLimitedRetries: number;
  minBytes: number;
}

const MAX_429_RETRIES = 5;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runBodySizeProbe(options: BodySizeProbeOptions): Promise<BodySizeProbeRun> {
  const filled = fillRequest(options.request, options.variables);
  const base = baseBody(options.request, options.variables);
  const minBytes = utf8Length(base);
  const url = new URL(options.baseUrl.replace(/\/+$/, '') + filled.pathAndQuery);
  const headers = { ...filled.headers };
  delete headers['content-length'];
  const range = Math.max(2, options.maxBytes - minBytes);
  const budget = requestBudget(range);
  const steps: SizeProbeStep[] = [];
  const exchanges: SizedExchange[] = [];
  let requests = 0;
  let rateLimitedRetries = 0;
  // Spacing between requests, from the first 429 on: a limiter without burst allowance refuses back-to-back requests.
  let paceMs = 0;
  let lastSentAt = 0;

  async function probe(size: number, framing: Framing, purpose: string, sendBytes?: number): Promise<SizedResponse> {
    const text = paddedBody(base, size);
    if (text === undefined) throw new Error(`cannot build a ${size}-byte body: the request itself is ${minBytes} bytes`);
    const body = Buffer.from(text, 'utf8');
    for (let attempt = 0; ; attempt++) {
      const wait = lastSentAt + paceMs - performance.now();
      if (wait > 0) await sleep(wait);
      lastSentAt = performance.now();
      const response = await sendSized({
        url,
        method: filled.method,
        headers,
        body,
        framing,
        timeoutMs: sendBytes === undefined ? (options.timeoutMs ?? 10_000) : (options.declaredWaitMs ?? 2_000),
        sendBytes,
        tls: options.tls,
      });
      if (response.status === 429 && attempt < MAX_429_RETRIES) {
        // The rate limit is not what this probe measures: wait as told and ask again.
        rateLimitedRetries++;
        paceMs = Math.min(1_000, Math.max(25, 2 * paceMs));
        const wait = advisedWaitSec(response.headers ?? {}) ?? 1;
        await sleep(Math.min(5, Math.max(0.2, wait)) * 1000);
        continue;
      }
      requests++;
      const step: SizeProbeStep = {
        sizeBytes: size,
        framing,
        outcome: response.outcome,
        status: response.status,
        durationMs: response.durationMs,
        purpose,
        ...(sendBytes !== undefined ? { sentBytes: response.bytesSent } : {}),
        ...(response.beforeBodyComplete ? { answeredBeforeBodyComplete: true } : {}),
        ...(response.resetAfterResponse ? { resetAfterResponse: true } : {}),
        ...(response.headers?.connection ? { connection: response.headers.connection } : {}),
        ...(response.errorCode ? { errorCode: response.errorCode } : {}),
      };
      steps.push(step);
      exchanges.push({ step, url: url.toString(), method: filled.method, requestHeaders: headers, requestBody: text, response });
      options.log?.(`${framing} ${size} bytes (${purpose}): ${response.status ?? response.outcome}${response.errorCode ? ` ${response.errorCode}` : ''}`);
      return response;
    }
  }

  const refused = (r: SizedResponse) => r.outcome !== 'accepted' && r.outcome !== 'other-4xx';
  const finish = (): BodySizeProbeRun => ({
    judgement: judgeBodySize(steps, { maxBytes: options.maxBytes, minBytes, expectedLimitBytes: options.expectedLimitBytes }),
    steps,
    exchanges,
    requests,
    requestBudget: budget,
    rateLimitedRetries,
    minBytes,
  });

  const upper = await probe(options.maxBytes, 'content-length', 'upper bound');
  if (!refused(upper)) return finish();
  const lower = await probe(minBytes, 'content-length', 'lower bound');
  if (refused(lower)) return finish();

  const bisection = new SizeBisection(minBytes, options.maxBytes);
  for (let size = bisection.next(); size !== undefined && !options.signal?.aborted; size = bisection.next()) {
    bisection.record(size, refused(await probe(size, 'content-length', 'bisection')));
  }
  const limit = bisection.low;
  // The smallest oversize body must get a readable 413; a bare reset is retried once where a good server can answer before the body.
  const atBoundary = steps.find((s) => s.framing === 'content-length' && s.sizeBytes === limit + 1);
  if (atBoundary && atBoundary.outcome !== '413') await probe(limit + 1, 'expect-100-continue', 'boundary retry');
  await probe(limit, 'chunked', 'boundary');
  await probe(limit + 1, 'chunked', 'boundary');
  await probe(limit + 1, 'expect-100-continue', 'boundary');
  if (requests < budget) await probe(options.maxBytes, 'content-length', 'declared size, body withheld', Math.min(1024, options.maxBytes));
  return finish();
}
