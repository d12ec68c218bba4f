// The head of an HTTP/1.1 answer, read for what frames the message and
// nothing else: the status; Content-Length, Transfer-Encoding, Connection
// and the Keep-Alive timeout hint — and, of an error answer only, its
// Content-Type (the engine keeps one sample of each kind of error answer). Field names are compared byte by byte and
// the common values read in place, so a typical answer costs no string at
// all (http1-reader.ts reads tens of thousands a second).

/** Why an answer could not be read: counted as a transport failure under this code (llhttp's names). */
export const MALFORMED = 'HPE_INVALID_RESPONSE';
export const HEAD_TOO_LARGE = 'HPE_HEADER_OVERFLOW';

const CR = 13;
const LF = 10;
const SP = 0x20;
const HTAB = 0x09;
const COLON = 0x3a;

const CONTENT_LENGTH = Buffer.from('content-length');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding');
const CONNECTION = Buffer.from('connection');
const KEEP_ALIVE = Buffer.from('keep-alive');
const CONTENT_TYPE = Buffer.from('content-type');
const HTTP_1 = Buffer.from('HTTP/1.');

/** What the head says about the message; one object per reader, filled afresh for every head. */
export interface Framing {
  status: number;
  /** -1: none given. */
  contentLength: number;
  transferEncoding: boolean;
  /** The final transfer coding is chunked. */
  chunked: boolean;
  keepAlive: boolean;
  keepAliveSec: number | undefined;
  /** Content-Type of an error answer (status 400 or above); undefined otherwise or when it gives none. */
  contentType: string | undefined;
}

export function newFraming(): Framing {
  return { status: 0, contentLength: -1, transferEncoding: false, chunked: false, keepAlive: true, keepAliveSec: undefined, contentType: undefined };
}

/**
 * Reads the head bytes[start, end) (end: where "\r\n\r\n" begins) into
 * framing; false when it is malformed. wantHint: read Keep-Alive's timeout
 * (a connection needs it once).
 */
export function readHead(bytes: Buffer, start: number, end: number, framing: Framing, wantHint: boolean): boolean {
  const status = statusOf(bytes, start, end);
  if (status < 0) return false;
  framing.status = status;
  framing.contentLength = -1;
  framing.transferEncoding = false;
  framing.chunked = false;
  framing.keepAlive = bytes[start + 7] === 0x31; // HTTP/1.0 closes unless it says keep-alive
  framing.keepAliveSec = undefined;
  framing.contentType = undefined;
  let line = bytes.indexOf(CR, start) + 2;
  while (line < end + 2) {
    const eol = bytes.indexOf(CR, line);
    if (bytes[eol + 1] !== LF) return false;
    // A line starting with whitespace continues the previous one (obsolete folding): it frames nothing.
    if (bytes[line] !== SP && bytes[line] !== HTAB && !readField(bytes, line, eol, framing, wantHint)) return false;
    line = eol + 2;
  }
  return true;
}

/** "HTTP/1.x NNN …": the status, -1 when it is not a status line. */
function statusOf(bytes: Buffer, start: number, end: number): number {
  if (end - start < 12 || bytes[start + 8] !== SP) return -1;
  for (let i = 0; i < HTTP_1.length; i++) if (bytes[start + i] !== HTTP_1[i]) return -1;
  let status = 0;
  for (let i = start + 9; i < start + 12; i++) {
    const d = bytes[i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    status = status * 10 + d;
  }
  const after = bytes[start + 12];
  return status >= 100 && (after === SP || after === CR) ? status : -1;
}

/** Is bytes[from, to) the lower-case name, ignoring case? (Letters and "-" only: setting bit 0x20 lowers a letter and keeps "-".) */
function nameIs(bytes: Buffer, from: number, to: number, name: Buffer): boolean {
  if (to - from !== name.length) return false;
  for (let i = 0; i < name.length; i++) if ((bytes[from + i]! | 0x20) !== name[i]) return false;
  return true;
}

/** One field line [line, eol): updates the framing; false when malformed. */
function readField(bytes: Buffer, line: number, eol: number, framing: Framing, wantHint: boolean): boolean {
  const colon = bytes.indexOf(COLON, line);
  if (colon <= line || colon > eol) return false;
  let from = colon + 1;
  let to = eol;
  while (from < to && (bytes[from] === SP || bytes[from] === HTAB)) from++;
  while (to > from && (bytes[to - 1] === SP || bytes[to - 1] === HTAB)) to--;
  if (nameIs(bytes, line, colon, CONTENT_LENGTH)) {
    const length = digitsOf(bytes, from, to);
    // Missing, not a number, or two different lengths (RFC 9112 6.3 rule 5).
    if (length < 0 || (framing.contentLength >= 0 && framing.contentLength !== length)) return false;
    framing.contentLength = length;
  } else if (nameIs(bytes, line, colon, TRANSFER_ENCODING)) {
    framing.transferEncoding = true;
    framing.chunked = /(?:^|,)[ \t]*chunked$/i.test(bytes.toString('latin1', from, to));
  } else if (nameIs(bytes, line, colon, CONNECTION)) {
    if (nameIs(bytes, from, to, KEEP_ALIVE)) framing.keepAlive = true; // the usual value, read without a string
    else {
      const tokens = bytes.toString('latin1', from, to).toLowerCase().split(/[ \t]*,[ \t]*/);
      if (tokens.includes('close')) framing.keepAlive = false;
      else if (tokens.includes('keep-alive')) framing.keepAlive = true;
    }
  } else if (framing.status >= 400 && nameIs(bytes, line, colon, CONTENT_TYPE)) {
    framing.contentType = bytes.toString('latin1', from, to);
  } else if (wantHint && nameIs(bytes, line, colon, KEEP_ALIVE)) {
    const timeout = /(?:^|,)[ \t]*timeout[ \t]*=[ \t]*(\d+)/i.exec(bytes.toString('latin1', from, to));
    if (timeout) framing.keepAliveSec = Number(timeout[1]);
  }
  return true;
}

/** The decimal number bytes[from, to) (at most 15 digits), -1 when it is not one. */
function digitsOf(bytes: Buffer, from: number, to: number): number {
  if (to <= from || to - from > 15) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = bytes[i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}
