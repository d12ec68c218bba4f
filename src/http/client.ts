// The one HTTP client every check, probe and fixture uses. It is bounded
// (whole-exchange timeout, response-size cap, no redirects followed), it asks
// again after a transient answer (src/http/transient.ts), and it records every
// exchange — redacted — as evidence for the check that made it.
// Built on undici rather than Playwright's APIRequestContext because a
// conformance suite must cap what a hostile server sends and see raw framing.
// The parts of an exchange: outgoing.ts builds the request, send.ts sends it
// within the bounds, json-body.ts reads the answer, evidence.ts records both.
import { Agent } from 'undici';
import { HTTP_DEFAULTS, SPEC_USER_ID_HEADER } from '../config/profile.ts';
import type { Connection } from './connection.ts';
import { buildEvidence } from './evidence.ts';
import { clipForEvidence, type ExchangeRecorder, type RecordedExchange } from './exchange.ts';
import { readJsonBody } from './json-body.ts';
import { buildOutgoing, isBearerSource, type HttpRequest, type OutgoingRequest, type SentRequest } from './outgoing.ts';
import { Redactor } from './redact.ts';
import { sendCapped, type ReceivedResponse } from './send.ts';
import { PtasError } from '../errors.ts';
import { IDEMPOTENT_METHODS, isTransientStatus, mayAskAgain, RETRIED_TRANSPORT_FAILURES, TRANSIENT_RETRY, transientWaitMs, TransientAnswerError } from './transient.ts';

/**
 * How many of its own tokens the suite renews within one request after a 401:
 * a renewed token can run out too while the request waits out a transient
 * answer on a busy machine; a target refusing every token is answered 401 in
 * the end, and that is what the check sees.
 */
const OWN_TOKEN_RENEWALS = 2;

export type { HttpRequest, QueryValue } from './outgoing.ts';

export interface HttpResponse {
  exchangeId: number;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  /** Why the body is not JSON (when it is not). */
  jsonError?: string;
  contentType?: string;
  truncated: boolean;
  durationMs: number;
  startedAt: Date;
}

export type TransportErrorCode =
  | 'TIMEOUT'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_RESET'
  | 'TLS'
  | 'DNS'
  | 'HEADERS_TOO_LARGE'
  | 'PROTOCOL'
  | 'OTHER';

/**
 * The exchange did not produce a complete response. Evidence was recorded
 * before this was thrown; kind is the failure, as the exchange's error.code
 * records it (code is the error family's, src/errors.ts).
 */
export class TransportError extends PtasError {
  readonly code = 'transport';
  constructor(
    readonly kind: TransportErrorCode,
    message: string,
    readonly exchangeId: number,
    readonly url: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }

  override checkReason(): string {
    return `no usable response from ${this.url}: ${this.kind} (${this.message})`;
  }
}

export interface TransportSettings {
  timeoutMs: number;
  maxResponseBytes: number;
  /** Idempotent requests (IDEMPOTENT_METHODS): kept-alive connections, and asked again on a reset one. */
  dispatcher: Agent;
  /**
   * Requests that must not be sent twice (POST, PATCH): each on a connection
   * of its own. A kept-alive connection the service is closing as idle
   * resets the request sent on it (undici keeps one 2 s less than the
   * service's Keep-Alive hint, a margin a lagging event loop eats up), and
   * such a request may not be sent again
   * (RFC 9112 9.3.1): a fresh connection leaves no such race, so a reset is
   * the service's, not the pool's.
   */
  unpooled: Agent;
}

/** Connection pools and limits, shared by every client of one worker: a connection's (connection.ts), or defaults. */
export function createTransport(connection: Partial<Pick<Connection, 'timeoutMs' | 'maxResponseBytes' | 'tls' | 'insecure'>> = {}): TransportSettings {
  const connect = { rejectUnauthorized: !connection.insecure, ...connection.tls };
  return {
    timeoutMs: connection.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    maxResponseBytes: connection.maxResponseBytes ?? HTTP_DEFAULTS.maxResponseBytes,
    dispatcher: new Agent({ connect, keepAliveTimeout: 4_000 }),
    // undici: pipelining 0 disables keep-alive, so every request opens its connection and closes it.
    unpooled: new Agent({ connect, pipelining: 0 }),
  };
}

/** Closes both pools: `destroy` aborts what is in flight, otherwise it is let finish. */
export async function closeTransport(transport: TransportSettings, how: 'close' | 'destroy' = 'close'): Promise<void> {
  await Promise.all([transport.dispatcher[how](), transport.unpooled[how]()]);
}

function classify(error: unknown): { code: TransportErrorCode; message: string } {
  const err = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  const message = err.message ?? String(error);
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || code.includes('TIMEOUT')) return { code: 'TIMEOUT', message };
  if (code === 'ECONNREFUSED') return { code: 'CONNECTION_REFUSED', message };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return { code: 'CONNECTION_RESET', message: err.cause?.message ?? message };
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return { code: 'HEADERS_TOO_LARGE', message };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'DNS', message };
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code + message)) return { code: 'TLS', message };
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO') return { code: 'PROTOCOL', message };
  return { code: 'OTHER', message: code ? `${code}: ${message}` : message };
}

let exchangeCounter = 0;

export interface HttpClientOptions {
  baseUrl: string;
  transport: TransportSettings;
  redactor: Redactor;
  recorder?: ExchangeRecorder;
  /** The target's user-id header (spec 5 rule 4: svc-user-id; the profile's userIdHeader), for the operations that name a user. */
  userIdHeader?: string;
  /** Headers on every request (the connection's runHeaders: the certifier's nonce). */
  runHeaders?: Record<string, string>;
}

export class HttpClient {
  constructor(private readonly options: HttpClientOptions) {}

  /** A client of the connection's target (its base URL and user-id header). */
  static to(connection: Pick<Connection, 'baseUrl' | 'userIdHeader' | 'runHeaders'>, parts: Pick<HttpClientOptions, 'transport' | 'redactor' | 'recorder'>): HttpClient {
    return new HttpClient({ baseUrl: connection.baseUrl, userIdHeader: connection.userIdHeader, runHeaders: connection.runHeaders, ...parts });
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  get redactor(): Redactor {
    return this.options.redactor;
  }

  /** The header that names the user an operation acts for, lower-case. */
  get userIdHeader(): string {
    return (this.options.userIdHeader ?? SPEC_USER_ID_HEADER).toLowerCase();
  }

  /** A client that records into another recorder (same transport and secrets). */
  withRecorder(recorder: ExchangeRecorder | undefined): HttpClient {
    return new HttpClient({ ...this.options, recorder });
  }

  get(path: string, init: Omit<HttpRequest, 'method' | 'path'> = {}): Promise<HttpResponse> {
    return this.request({ ...init, method: 'GET', path });
  }

  post(path: string, init: Omit<HttpRequest, 'method' | 'path'> = {}): Promise<HttpResponse> {
    return this.request({ ...init, method: 'POST', path });
  }

  patch(path: string, init: Omit<HttpRequest, 'method' | 'path'> = {}): Promise<HttpResponse> {
    return this.request({ ...init, method: 'PATCH', path });
  }

  /**
   * One request, asked again after a transient answer (429, 503; 502 and 504
   * only for an idempotent method, as a connection reset) within the budget of
   * src/http/transient.ts, unless `req.once`; each attempt is its own
   * evidence, naming the attempt it repeats (retryOf). Still transient at the
   * end, or not to be sent again: TransientAnswerError (the check is ERROR
   * "not observed"), or the transport failure. A bearer the suite holds
   * for itself (a BearerSource) is read for each attempt, and renewed when
   * the target answers 401 to it — once per token refused, at most
   * OWN_TOKEN_RENEWALS times: the request is sent again with the new token
   * and the 401 stays in the evidence, marked as the suite's own.
   */
  async request(req: HttpRequest): Promise<HttpResponse> {
    let waitedMs = 0;
    const seen: string[] = [];
    const source = isBearerSource(req.bearer) ? req.bearer : undefined;
    const refusedOwnTokens = new Set<string>();
    let previous: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const label = attempt === 1 ? req.label : `${req.label ?? `${req.method} ${req.path}`} (attempt ${attempt}, after ${seen.at(-1)})`;
      const bearer = source ? await source.current() : (req.bearer as string | undefined);
      let res: HttpResponse;
      try {
        res = await this.exchange({ ...req, bearer, label }, previous);
      } catch (error) {
        const again = !req.once && error instanceof TransportError && RETRIED_TRANSPORT_FAILURES.has(error.kind) && IDEMPOTENT_METHODS.has(req.method.toUpperCase());
        if (!again || attempt >= TRANSIENT_RETRY.attempts || waitedMs >= TRANSIENT_RETRY.budgetMs) throw error;
        seen.push(`no answer (${error.kind})`);
        previous = error.exchangeId;
        waitedMs += await this.pause(transientWaitMs(undefined, attempt), req, seen.at(-1)!);
        continue;
      }
      previous = res.exchangeId;
      // Not for a request sent exactly once (a race, a rate probe): asking again would change what is measured; its token was read as it was sent.
      if (source && bearer !== undefined && res.status === 401 && !req.once && !refusedOwnTokens.has(bearer) && refusedOwnTokens.size < OWN_TOKEN_RENEWALS) {
        refusedOwnTokens.add(bearer);
        seen.push("401 to the suite's own access token");
        this.options.recorder?.event?.(
          "renewed the suite's own access token",
          `${req.label ?? `${req.method} ${req.path}`}: answered 401 to the access token the suite held for itself (its lifetime may have run out); a new one from the token endpoint, and the request sent again`,
        );
        await source.renewed(bearer);
        continue;
      }
      if (req.once || !isTransientStatus(res.status)) return res;
      seen.push(String(res.status));
      this.stopUnlessAskedAgain(req, res, { attempt, waitedMs, seen });
      waitedMs += await this.pause(transientWaitMs(res.headers['retry-after'], attempt), req, seen.at(-1)!);
    }
  }

  /** Throws TransientAnswerError when a transient answer may not be asked again: the budget is spent, or a 502/504 came to a method that must not be sent twice. */
  private stopUnlessAskedAgain(req: HttpRequest, res: HttpResponse, so: { attempt: number; waitedMs: number; seen: string[] }): void {
    const what = `${req.method.toUpperCase()} ${this.options.redactor.redactString(req.path)}`;
    if (!mayAskAgain(res.status, req.method)) {
      throw new TransientAnswerError(
        `${what} was answered ${so.seen.join(', ')}, a gateway's answer that may come after the service acted on the request, so a ${req.method.toUpperCase()} is not sent again (RFC 9110 9.2.2): a transient answer decides no rule`,
        res.exchangeId,
      );
    }
    if (so.attempt >= TRANSIENT_RETRY.attempts || so.waitedMs >= TRANSIENT_RETRY.budgetMs) {
      throw new TransientAnswerError(`${what} was answered ${so.seen.join(', ')} in ${so.attempt} attempts over ${(so.waitedMs / 1000).toFixed(1)} s (Retry-After honoured): a transient answer decides no rule`, res.exchangeId);
    }
  }

  private async pause(ms: number, req: HttpRequest, after: string): Promise<number> {
    this.options.recorder?.event?.('asked again after a transient answer', `${req.label ?? `${req.method} ${req.path}`}: ${after}; waiting ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return ms;
  }

  /** One attempt; `retryOf`: the exchange of the attempt it repeats. */
  private async exchange(req: SentRequest, retryOf?: number): Promise<HttpResponse> {
    const { transport, redactor } = this.options;
    const outgoing = buildOutgoing(this.options.baseUrl, req, redactor, this.options.runHeaders);
    const id = ++exchangeCounter;
    const startedAt = new Date();
    const t0 = performance.now();
    const timeoutMs = req.timeoutMs ?? transport.timeoutMs;
    const record = (outcome: Pick<RecordedExchange, 'response' | 'error'>): void =>
      this.options.recorder?.record(outgoingEvidence(redactor, outgoing, { id, label: req.label, startedAt, t0, invented: req.input === 'invented', retryOf }, outcome));

    let received: ReceivedResponse;
    try {
      const dispatcher = IDEMPOTENT_METHODS.has(outgoing.method.toUpperCase()) ? transport.dispatcher : transport.unpooled;
      received = await sendCapped(outgoing, { dispatcher, timeoutMs, maxResponseBytes: transport.maxResponseBytes });
    } catch (error) {
      const { code, message } = classify(error);
      const text = redactor.redactString(
        code === 'TIMEOUT' ? `no complete response within ${timeoutMs} ms` : message,
      );
      record({ error: { code, message: text } });
      throw new TransportError(code, text, id, redactor.redactString(outgoing.url.toString()));
    }

    const durationMs = performance.now() - t0;
    const { status, headers, body, truncated } = received;
    const { text, json, jsonError } = readJsonBody(body, truncated, transport.maxResponseBytes);
    // Tokens in response bodies become known secrets before anything is recorded.
    if (json !== undefined) redactor.redactJson(json);
    record({
      response: {
        status,
        headers: redactor.redactHeaders(headers),
        body: body.length ? clipForEvidence(redactor.redactBody(text)) : undefined,
        bodyBytes: body.length,
        truncated,
      },
    });
    return {
      exchangeId: id,
      status,
      headers,
      body,
      text,
      json,
      jsonError,
      contentType: headers['content-type'],
      truncated,
      durationMs,
      startedAt,
    };
  }
}

/** The client's exchange as evidence: its outgoing request mapped onto the one evidence builder. */
function outgoingEvidence(
  redactor: Redactor,
  outgoing: OutgoingRequest,
  meta: { id: number; label?: string; startedAt: Date; t0: number; invented: boolean; retryOf?: number },
  outcome: Pick<RecordedExchange, 'response' | 'error'>,
): RecordedExchange {
  const { method, url, headers, body } = outgoing;
  return buildEvidence(redactor, {
    id: meta.id,
    label: meta.label,
    startedAt: meta.startedAt,
    // To the moment of recording: a timeout's evidence shows how long the client waited.
    durationMs: Math.round((performance.now() - meta.t0) * 10) / 10,
    method,
    url: url.toString(),
    headers,
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body.toString('utf8') : body,
    bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
    bodyKind: 'structured',
    ...(meta.invented ? { invented: true as const } : {}),
    ...(meta.retryOf !== undefined ? { retryOf: meta.retryOf } : {}),
    ...outcome,
  });
}
