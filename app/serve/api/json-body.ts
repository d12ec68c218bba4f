// Every JSON request body of the server (the API's and the console's) is
// read by Fastify's own parser (secure-json-parse: __proto__ and constructor
// keys refused) after one linear scan of its nesting. A body nested deeper
// than MAX_JSON_DEPTH is refused as 400 invalid-request naming the limit:
// parsing it is cheap, but what comes after (storing it with JSON.stringify,
// the schema checks, the waiver file's loader) recurses once per level, and a
// 10,000-deep body overflowed the stack into a 500. No profile, waiver file
// or run request comes near the limit. (A profile text is a string in the
// body; its own nesting is capped where it is parsed, src/config/jsonc.ts.)
import type { FastifyInstance } from 'fastify';
import { ServeError } from '../errors.ts';

/** Arrays and objects inside each other, the body's own included. */
export const MAX_JSON_DEPTH = 64;

/** The offset of the bracket that opens one level beyond `limit`, or -1; brackets inside strings are text. */
export function nestingBeyond(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      if (++depth > limit) return i;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) depth--;
  }
  return -1;
}

/** Replaces the application/json parser of `app` (and of every plugin registered after) by the depth check and Fastify's own. */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const at = nestingBeyond(body as string, MAX_JSON_DEPTH);
    if (at >= 0) {
      done(new ServeError('invalid-request', `the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels (arrays and objects inside each other, at character ${at + 1}): no request of this server needs more`, { maxDepth: MAX_JSON_DEPTH }), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
