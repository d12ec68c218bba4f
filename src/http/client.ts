// The one HTTP client every check, probe and fixture uses. It is bounded
// (whole-exchange timeout, response-size cap, no redirects followed), and it
// records every exchange — redacted — as evidence for the check that made it.
// Built on undici rather than Playwright's APIRequestContext because a
// conformance suite must cap what a hostile server sends and see raw framing.
import { readFileSync } from 'node:fs';
import { Agent, request as undiciRequest } from 'undici';
import type { HttpProfile } from '../config/profile.ts';
import { HTTP_DEFAULTS, SPEC_USER_ID_HEADER } from '../config/profile.ts';
import { clipForEvidence, curlLine, type ExchangeRecorder, type RecordedExchange } from './exchange.ts';
import { Redactor } from './redact.ts';

export type QueryValue = string | number | boolean | undefined | ReadonlyArray<string | number>;

export interface HttpRequest {
  method: string;
  /** A path relative to the base URL (e.g. /v1/oauth/token) or an absolute URL. */
  path: string;
  /** Arrays become repeated parameters: {'user_journey[]': ['a','b']}. */
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** Serialized as JSON with Content-Type application/json unless headers say otherwise. */
  json?: unknown;
  /** A raw body sent as is (malformed JSON, form bodies, exact byte sizes). */
  body?: string | Buffer;
  /** Sent as Authorization: Bearer <token>. */
  bearer?: string;
  timeoutMs?: number;
  /** What this exchange is for, shown in evidence. */
  label?: string;
}

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

/** The exchange did not produce a complete response. Evidence was recorded before this was thrown. */
export class TransportError extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    readonly exchangeId: number,
    readonly url: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface TransportSettings {
  timeoutMs: number;
  maxResponseBytes: number;
  insecure: boolean;
  dispatcher: Agent;
}

/** Connection pool and limits, shared by every client of one worker. */
export function createTransport(http: HttpProfile = {}): TransportSettings {
  const readPem = (file: string | undefined) => (file ? readFileSync(file) : undefined);
  const dispatcher = new Agent({
    connect: {
      ca: readPem(http.ca),
      cert: readPem(http.cert),
      key: readPem(http.key),
      rejectUnauthorized: !http.insecure,
    },
    keepAliveTimeout: 4_000,
  });
  return {
    timeoutMs: http.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    maxResponseBytes: http.maxResponseBytes ?? HTTP_DEFAULTS.maxResponseBytes,
    insecure: http.insecure ?? false,
    dispatcher,
  };
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

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function buildUrl(baseUrl: string, path: string, query: HttpRequest['query']): URL {
  const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.append(key, String(value));
  }
  return url;
}

let exchangeCounter = 0;

export interface HttpClientOptions {
  baseUrl: string;
  transport: TransportSettings;
  redactor: Redactor;
  recorder?: ExchangeRecorder;
  /** The target's user-id header (spec 5 rule 4: svc-user-id; the profile's userIdHeader), for the operations that name a user. */
  userIdHeader?: string;
}

export class HttpClient {
  constructor(private readonly options: HttpClientOptions) {}

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

  async request(req: HttpRequest): Promise<HttpResponse> {
    const { transport, redactor } = this.options;
    const url = buildUrl(this.options.baseUrl, req.path, req.query);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
    let body: string | Buffer | undefined = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    }
    if (req.bearer !== undefined) {
      redactor.addSecret(req.bearer, 'bearer');
      headers['authorization'] = `Bearer ${req.bearer}`;
    }
    headers['accept'] ??= 'application/json';

    const id = ++exchangeCounter;
    const startedAt = new Date();
    const t0 = performance.now();
    const timeoutMs = req.timeoutMs ?? transport.timeoutMs;
    const record = (partial: Pick<RecordedExchange, 'response' | 'error'>): void => {
      const bodyText = body === undefined ? undefined : Buffer.isBuffer(body) ? body.toString('utf8') : body;
      this.options.recorder?.record({
        id,
        label: req.label,
        startedAt: startedAt.toISOString(),
        durationMs: Math.round((performance.now() - t0) * 10) / 10,
        request: {
          method: req.method,
          url: redactor.redactString(url.toString()),
          headers: redactor.redactHeaders(headers),
          body: bodyText === undefined ? undefined : clipForEvidence(redactor.redactBody(bodyText)),
          bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
        },
        curl: curlLine(
          req.method,
          redactor.redactString(url.toString(), 'shell'),
          redactor.redactHeaders(headers, 'shell'),
          bodyText === undefined ? undefined : redactor.redactBody(bodyText, 'shell').replace(/\n\s*/g, ''),
        ),
        ...partial,
      });
    };

    let status: number;
    let responseHeaders: Record<string, string>;
    const chunks: Buffer[] = [];
    let received = 0;
    let truncated = false;
    try {
      const response = await undiciRequest(url, {
        method: req.method as 'GET',
        headers,
        body,
        dispatcher: transport.dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.statusCode;
      responseHeaders = {};
      for (const [k, v] of Object.entries(response.headers)) {
        if (v !== undefined) responseHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const room = transport.maxResponseBytes - received;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          received += room;
          truncated = true;
          response.body.destroy();
          break;
        }
        chunks.push(chunk);
        received += chunk.length;
      }
    } catch (error) {
      const { code, message } = classify(error);
      const text = redactor.redactString(
        code === 'TIMEOUT' ? `no complete response within ${timeoutMs} ms` : message,
      );
      record({ error: { code, message: text } });
      throw new TransportError(code, text, id, redactor.redactString(url.toString()));
    }

    const durationMs = performance.now() - t0;
    const buffer = Buffer.concat(chunks);
    const text = buffer.toString('utf8');
    const validUtf8 = isValidUtf8(buffer);
    const contentType = responseHeaders['content-type'];
    let json: unknown;
    let jsonError: string | undefined;
    if (truncated) jsonError = `body cut off at the ${transport.maxResponseBytes}-byte response cap`;
    else if (buffer.length === 0) jsonError = 'empty body';
    // JSON exchanged between systems must be UTF-8 (RFC 8259, 8.1).
    else if (!validUtf8) jsonError = 'not JSON: the body is not valid UTF-8';
    else {
      try {
        json = JSON.parse(text);
      } catch (error) {
        jsonError = `not JSON: ${(error as Error).message}`;
      }
    }
    // Tokens in response bodies become known secrets before anything is recorded.
    if (json !== undefined) redactor.redactJson(json);
    record({
      response: {
        status,
        headers: redactor.redactHeaders(responseHeaders),
        body: buffer.length ? clipForEvidence(redactor.redactBody(text)) : undefined,
        bodyBytes: buffer.length,
        truncated,
      },
    });
    return {
      exchangeId: id,
      status,
      headers: responseHeaders,
      body: buffer,
      text,
      json,
      jsonError,
      contentType,
      truncated,
      durationMs,
      startedAt,
    };
  }
}
