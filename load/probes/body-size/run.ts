// The 413 boundary probe of the token endpoint: bisection on the body size
// (Content-Length framing) to the exact byte, then the boundary again with
// chunked and Expect: 100-continue framing, and one declared-only request
// (a Content-Length far above the limit with almost no body sent).
import type { SizeProbeStep } from '../../../src/results/load-model.ts';
import { baseBody, paddedBody, requestBudget, SizeBisection, utf8Length, type Framing } from '../../scenarios/body-size.ts';
import { type Variables } from '../../../src/template.ts';
import { fillRequest, type FilledRequest } from '../../scenarios/request.ts';
import type { RequestTemplate } from '../../scenarios/types.ts';
import { advisedWaitSec } from '../rate-limit/headers.ts';
import { judgeBodySize, type BodySizeJudgement, type ProbeContext } from './analysis.ts';
import { sizeAnswer } from './answer.ts';
import { TRANSIENT_STATUSES } from '../../../src/spec/answer-class.ts';
import { sendSized, type SizedResponse } from './raw-request.ts';
import { HTTP_DEFAULTS } from '../../../src/config/profile.ts';
import type { SocketTarget } from '../../../src/http/connection.ts';

/** Where it sends (a connection's socket target: src/http/connection.ts; the time limit defaults to the client's). */
export interface BodySizeProbeOptions extends Pick<SocketTarget, 'baseUrl'>, Partial<Omit<SocketTarget, 'baseUrl'>> {
  request: RequestTemplate;
  variables: Variables;
  maxBytes: number;
  expectedLimitBytes?: number;
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
  /** What the judgement held the steps to (the check's record keeps it: load/stage/probe-judgment.ts). */
  context: ProbeContext;
  steps: SizeProbeStep[];
  exchanges: SizedExchange[];
  requests: number;
  requestBudget: number;
  /** Requests repeated because they were answered 429, or 502, 503 or 504 (not counted in the budget). */
  rateLimitedRetries: number;
  minBytes: number;
}

const MAX_429_RETRIES = 5;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runBodySizeProbe(options: BodySizeProbeOptions): Promise<BodySizeProbeRun> {
  const prober = new BodySizeProber(options);
  const finish = () => prober.result();
  const upper = await prober.probe(options.maxBytes, 'content-length', 'upper bound');
  if (sizeAnswer(upper) !== 'refused') return finish();
  const lower = await prober.probe(prober.minBytes, 'content-length', 'lower bound');
  if (sizeAnswer(lower) !== 'accepted') return finish();

  const bisection = new SizeBisection(prober.minBytes, options.maxBytes);
  for (let size = bisection.next(); size !== undefined && !options.signal?.aborted; size = bisection.next()) {
    const answer = sizeAnswer(await prober.probe(size, 'content-length', 'bisection'));
    // A time-out or a gateway's answer says nothing about this size: the bisection cannot go on (the judgement says so).
    if (answer === 'unobserved') return finish();
    bisection.record(size, answer === 'refused');
  }
  const limit = bisection.low;
  // The smallest oversize body must get a readable 413; a bare reset is retried once where a good server can answer before the body.
  const atBoundary = prober.steps.find((s) => s.framing === 'content-length' && s.sizeBytes === limit + 1);
  if (atBoundary && atBoundary.outcome !== '413') await prober.probe(limit + 1, 'expect-100-continue', 'boundary retry');
  await prober.probe(limit, 'chunked', 'boundary');
  await prober.probe(limit + 1, 'chunked', 'boundary');
  await prober.probe(limit + 1, 'expect-100-continue', 'boundary');
  if (prober.requests < prober.budget) await prober.probe(options.maxBytes, 'content-length', 'declared size, body withheld', Math.min(1024, options.maxBytes));
  return finish();
}

/** Sends the probe's requests one at a time, paced and retried on a transient answer, and keeps each as a step with its exchange. */
class BodySizeProber {
  readonly steps: SizeProbeStep[] = [];
  readonly exchanges: SizedExchange[] = [];
  requests = 0;
  readonly budget: number;
  readonly minBytes: number;
  private rateLimitedRetries = 0;
  // Spacing between requests, from the first 429 on: a limiter without burst allowance refuses back-to-back requests.
  private paceMs = 0;
  private lastSentAt = 0;
  private readonly filled: FilledRequest;
  private readonly base: string;
  private readonly url: URL;
  private readonly headers: Record<string, string>;

  constructor(private readonly options: BodySizeProbeOptions) {
    this.filled = fillRequest(options.request, options.variables);
    this.base = baseBody(options.request, options.variables);
    this.minBytes = utf8Length(this.base);
    this.url = new URL(options.baseUrl.replace(/\/+$/, '') + this.filled.pathAndQuery);
    this.headers = { ...this.filled.headers, ...options.runHeaders };
    delete this.headers['content-length'];
    const range = Math.max(2, options.maxBytes - this.minBytes);
    this.budget = requestBudget(range);
  }

  /** One step: a body of size bytes (only sendBytes of it written, if given) under the framing. */
  async probe(size: number, framing: Framing, purpose: string, sendBytes?: number): Promise<SizedResponse> {
    const text = paddedBody(this.base, size);
    if (text === undefined) throw new Error(`cannot build a ${size}-byte body: the request itself is ${this.minBytes} bytes`);
    const response = await this.sendPaced(Buffer.from(text, 'utf8'), framing, sendBytes);
    this.requests++;
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
    this.steps.push(step);
    this.exchanges.push({ step, url: this.url.toString(), method: this.filled.method, requestHeaders: this.headers, requestBody: text, response });
    this.options.log?.(`${framing} ${size} bytes (${purpose}): ${response.status ?? response.outcome}${response.errorCode ? ` ${response.errorCode}` : ''}`);
    return response;
  }

  /**
   * Sends at the current pace; a transient answer (429; a gateway's 502, 503,
   * 504) is waited out as advised and asked again, up to MAX_429_RETRIES
   * times. The probe's request is a client_credentials grant: sent again, it
   * only issues another token, whatever happened behind a gateway.
   */
  private async sendPaced(body: Buffer, framing: Framing, sendBytes: number | undefined): Promise<SizedResponse> {
    const options = this.options;
    for (let attempt = 0; ; attempt++) {
      const wait = this.lastSentAt + this.paceMs - performance.now();
      if (wait > 0) await sleep(wait);
      this.lastSentAt = performance.now();
      const response = await sendSized({
        url: this.url,
        method: this.filled.method,
        headers: this.headers,
        body,
        framing,
        timeoutMs: sendBytes === undefined ? (options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs) : (options.declaredWaitMs ?? 2_000),
        sendBytes,
        tls: options.tls,
      });
      if (!TRANSIENT_STATUSES.has(response.status ?? 0) || attempt >= MAX_429_RETRIES) return response;
      // The rate limit (or an instance or gateway briefly unavailable) is not what this probe measures: wait as told and ask again.
      this.rateLimitedRetries++;
      this.paceMs = Math.min(1_000, Math.max(25, 2 * this.paceMs));
      const advised = advisedWaitSec(response.headers ?? {}) ?? 1;
      await sleep(Math.min(5, Math.max(0.2, advised)) * 1000);
    }
  }

  result(): BodySizeProbeRun {
    const options = this.options;
    const context: ProbeContext = { maxBytes: options.maxBytes, minBytes: this.minBytes, ...(options.expectedLimitBytes !== undefined ? { expectedLimitBytes: options.expectedLimitBytes } : {}) };
    return {
      judgement: judgeBodySize(this.steps, context),
      context,
      steps: this.steps,
      exchanges: this.exchanges,
      requests: this.requests,
      requestBudget: this.budget,
      rateLimitedRetries: this.rateLimitedRetries,
      minBytes: this.minBytes,
    };
  }
}
