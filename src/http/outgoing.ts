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
  /** Sent as Authorization: Bearer <token>. */
  bearer?: string;
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
export function buildOutgoing(baseUrl: string, req: HttpRequest, redactor: Redactor, runHeaders: Record<string, string> = {}): OutgoingRequest {
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
