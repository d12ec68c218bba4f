// The shapes of the ids a console URL carries, checked before any reaches
// the services: a run id is URL-safe base64 (contract.ts), an implementation
// id [a-z0-9-]{1,64} or "reference". Anything else ("../../etc/passwd", an
// encoded slash, a NUL) is a 404 at the console's door.

const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const IMPLEMENTATION_ID = /^[a-z0-9-]{1,64}$/;

export function isRunId(value: unknown): value is string {
  return typeof value === 'string' && RUN_ID.test(value);
}

export function isImplementationId(value: unknown): value is string {
  return typeof value === 'string' && IMPLEMENTATION_ID.test(value);
}

/** A same-origin path to go back to after login: "/x…" but not "//host" or "/\host". */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !/^\/(?![/\\])[\x21-\x7e]*$/.test(value) || value.length > 2048) return '/';
  return value;
}
