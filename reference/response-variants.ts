// What every JSON answer of the reference shares, whatever the route: the
// media type it is labelled with, the error body shape, and members the spec
// does not list. The legitimate variants of area 'all'
// (reference/variants/common.ts) change these for every route at once, so no
// route has to know about them: server.ts runs each request inside a
// response scope (AsyncLocalStorage) that names the active variants and
// faults, and sendJson / sendError (http-util.ts) shape their answer from it.
//
// Defaults (no variant): `application/json`, error bodies
// `{"error":{"code","message"}}`, exactly the members the routes build.
// Variants, each a choice the spec leaves open:
//   json-charset-utf8        Content-Type carries `; charset=utf-8`;
//   error-body-problem-json  error bodies in RFC 9457 shape, application/problem+json;
//   extra-response-fields    token_type/scope on token responses, an extra member in
//                            `data` objects, a top-level `meta` on every JSON object;
//   error-body-empty         error answers carry no body at all.
// Fault (reference/faults/common.ts):
//   error-bodies-text-plain  4xx answers of the token endpoint and user details v2
//                            are plain text labelled text/plain.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { FaultSet } from './faults/index.ts';
import type { ReferenceClock } from './conditions/second-resolution.ts';
import type { VariantSet } from './variants/index.ts';

/**
 * The error body shape is not shown by the spec; the reference uses this one
 * unless a common variant says otherwise. Declared here, where error bodies
 * are shaped, so that http-util.ts (which writes them) imports this module
 * and not the other way round.
 */
export interface ErrorBody {
  error: { code: string; message: string };
}

export interface ResponseScope {
  variants: VariantSet;
  faults: FaultSet;
  /** How timestamps are written (whole seconds under the second-resolution condition); the millisecond default without it. */
  clock?: ReferenceClock;
  method: string;
  pathname: string;
}

const scopes = new AsyncLocalStorage<ResponseScope>();

/** Runs one request's handling (and everything it awaits) inside its response scope. */
export function withResponseScope<T>(scope: ResponseScope, handle: () => T): T {
  return scopes.run(scope, handle);
}

/** A response written outside any request scope (a unit test calling a helper) keeps the defaults. */
const variant = (name: string): boolean => scopes.getStore()?.variants.has(name) ?? false;
const fault = (name: string): boolean => scopes.getStore()?.faults.has(name) ?? false;

/** One answer ready to write: status line aside, its body text (absent: no body) and headers. */
export interface ShapedAnswer {
  text?: string;
  headers: Record<string, string>;
}

function labelled(mediaType: string): string {
  return variant('json-charset-utf8') ? `${mediaType}; charset=utf-8` : mediaType;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Members the spec does not list, added without replacing any the route set:
 * a token response's token_type and scope (as OAuth 2.0 token responses
 * carry them), a `links` member in a `data` object, and a top-level `meta`.
 */
function withExtraMembers(body: unknown): unknown {
  if (!variant('extra-response-fields') || !isPlainObject(body)) return body;
  const extended: Record<string, unknown> = { ...body };
  if (typeof body.access_token === 'string') {
    extended.token_type ??= 'Bearer';
    extended.scope ??= 'partner:read partner:write';
  }
  if (isPlainObject(body.data)) extended.data = { links: { self: scopes.getStore()?.pathname ?? '/' }, ...body.data };
  const servedAt = new Date();
  extended.meta ??= { request_id: randomUUID(), served_at: scopes.getStore()?.clock?.iso(servedAt) ?? servedAt.toISOString() };
  return extended;
}

/** A JSON answer (any status) as the active variants write it. */
export function shapeJson(body: unknown): ShapedAnswer {
  return { text: JSON.stringify(withExtraMembers(body)), headers: { 'content-type': labelled('application/json') } };
}

/** The operations whose 4xx answers the error-bodies-text-plain fault turns into plain text. */
function plainTextErrorsHere(status: number): boolean {
  const scope = scopes.getStore();
  if (!scope || status < 400 || status >= 500 || !fault('error-bodies-text-plain')) return false;
  return (scope.method === 'POST' && scope.pathname === '/v1/oauth/token') || (scope.method === 'GET' && scope.pathname.startsWith('/v2/users/'));
}

/** An error answer: the reference's `{"error":{code,message}}`, or what the active variant (or fault) makes of it. */
export function shapeError(status: number, code: string, message: string): ShapedAnswer {
  if (plainTextErrorsHere(status)) return { text: `${code}: ${message}\n`, headers: { 'content-type': 'text/plain' } };
  if (variant('error-body-empty')) return { headers: {} };
  if (variant('error-body-problem-json')) {
    const problem = { type: `https://reference.ptas.invalid/problems/${code}`, title: STATUS_CODES[status] ?? 'Error', status, detail: message };
    return { text: JSON.stringify(withExtraMembers(problem)), headers: { 'content-type': labelled('application/problem+json') } };
  }
  return shapeJson({ error: { code, message } } satisfies ErrorBody);
}
