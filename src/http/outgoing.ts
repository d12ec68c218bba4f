// What the HTTP client puts on the wire for one HttpRequest: the URL with its
// query, lower-case headers (JSON content type, bearer, Accept) and the body.
import { PtasError } from '../errors.ts';
import type { Redactor } from './redact.ts';

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
  /**
   * Sent as Authorization: Bearer <token>. A token the suite holds for
   * itself (the worker's, the doctor's) is a BearerSource: read afresh for
   * each attempt, and renewed once when the target refuses it with 401.
   */
  bearer?: Bearer;
  timeoutMs?: number;
  /** What this exchange is for, shown in evidence. */
  label?: string;
  /**
   * Send exactly once, and hand back whatever comes, 429 and 503 included:
   * for races and rate-limit probes, where asking again would change what is
   * measured. Without it the client asks again after a transient answer (src/http/transient.ts).
   */
  once?: true;
  /** 'invented': input the suite made up outside the operation's domain (a hostile probe); recorded in evidence (src/check/outcome.ts, rule 4). */
  input?: 'invented';
}

/**
 * The suite's own access token, which outlives no lifetime the target sets: a
 * check that waits (a poll, an expiry) must not send a token it took before
 * the wait. The HTTP client asks for the token as it sends, and once more
 * after a 401 to it: a 401 caused by the suite's own expired token is the
 * suite's to mend, never a finding (src/http/client.ts).
 */
export interface BearerSource {
  /** The token to send now (renewed before it runs out). */
  current(): Promise<string>;
  /** A token other than `rejected`, which the target answered 401: renewed, unless another request renewed it already. */
  renewed(rejected: string): Promise<string>;
}

/** What a request's bearer is: a token, or the suite's own (a source it is read from as the request is sent). */
export type Bearer = string | BearerSource;

export function isBearerSource(bearer: HttpRequest['bearer']): bearer is BearerSource {
  return typeof bearer === 'object' && bearer !== null;
}

/** A request as the wire sees it: its bearer a token, not a source. */
export type SentRequest = Omit<HttpRequest, 'bearer'> & { bearer?: string };

export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

/**
 * The request as sent; a bearer token becomes a known secret of the redactor
 * first. The run's headers (the certifier's nonce) come after the request's
 * own, so no check can leave them out.
 */
export function buildOutgoing(baseUrl: string, req: SentRequest, redactor: Redactor, runHeaders: Record<string, string> = {}): OutgoingRequest {
  const url = buildUrl(baseUrl, req.path, req.query);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  for (const [k, v] of Object.entries(runHeaders)) headers[k.toLowerCase()] = v;
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
  return { method: req.method, url, headers, body };
}

/**
 * A path that, appended to the base URL, names another host or port: "@evil.example/x" or ".evil.example"
 * after "https://sandbox.acme.example", or a {placeholder} at its start that a value filled so. A path is
 * relative to the target; only an absolute URL, written out in the profile, goes elsewhere.
 */
export class PathOutsideTarget extends PtasError {
  readonly code = 'template';
  override name = 'PathOutsideTarget';
}

function buildUrl(baseUrl: string, path: string, query: HttpRequest['query']): URL {
  const absolute = /^https?:\/\//.test(path);
  const url = absolute ? new URL(path) : new URL(baseUrl.replace(/\/+$/, '') + path);
  if (!absolute && url.origin !== new URL(baseUrl).origin) {
    throw new PathOutsideTarget(`the path ${JSON.stringify(path)} appended to ${baseUrl} names ${url.origin}, not the target: a path starts with "/" (an absolute URL is written out whole)`);
  }
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
    else url.searchParams.append(key, String(value));
  }
  return url;
}
