// A response body read as JSON, or the reason it is not: cut off at the
// response cap, empty, not UTF-8, or not parseable.

export interface ReadBody {
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  /** Why the body is not JSON (when it is not). */
  jsonError?: string;
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

/** maxResponseBytes: the cap the body was cut at when truncated. */
export function readJsonBody(buffer: Buffer, truncated: boolean, maxResponseBytes: number): ReadBody {
  const text = buffer.toString('utf8');
  const validUtf8 = isValidUtf8(buffer);
  let json: unknown;
  let jsonError: string | undefined;
  if (truncated) jsonError = `body cut off at the ${maxResponseBytes}-byte response cap`;
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
  return { text, json, jsonError };
}
