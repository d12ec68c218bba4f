// The engine's HTTP/1.1 response reader (RFC 9112): the status line, the
// header fields that frame the message (http1-head.ts), a body by length,
// in chunks or until the connection closes — nothing more, because a load
// engine reads tens of thousands of answers a second and looks at most of
// them only for the status. The head is kept (copied) only for the statuses
// a caller samples, the body only for requests whose values are extracted —
// and both for an error answer the caller wants as a sample (keepBodyOf).
//
// Bytes may arrive in any split, in a buffer the socket reuses (net.connect's
// onread): whatever outlives a feed() call is copied, and nothing else is.
// Anything it cannot read is an error with a code, never an exception.
import { SAMPLE_BODY_LIMIT, type Answer, type KeepBodyOf } from './answer.ts';
import { HEAD_TOO_LARGE, MALFORMED, newFraming, readHead, type Framing } from './http1-head.ts';

export { HEAD_TOO_LARGE, MALFORMED } from './http1-head.ts';

const CR = 13;
const LF = 10;
const CRLF = Buffer.from('\r\n');
const END_OF_HEAD = Buffer.from('\r\n\r\n');
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 8 * 1024;

/** Where the reader is in an answer (numbers: compared on every step of the hot path). */
const State = { Idle: 0, Head: 1, Length: 2, ChunkSize: 3, ChunkData: 4, ChunkEnd: 5, Trailers: 6, UntilClose: 7, Failed: 8 } as const;

export interface ReaderEvents {
  /** A complete answer; trailing: bytes followed it that no request asked for. */
  answer(answer: Answer, keepAlive: boolean, trailing: boolean): void;
  error(code: string): void;
}

export class ResponseReader {
  /** The server's Keep-Alive timeout hint (seconds), once it gave one. */
  keepAliveHintSec: number | undefined;
  // A number, not a State: every step may change it, which type narrowing would not see.
  private state: number = State.Idle;
  /** Bytes of an unfinished line or head, copied out of the socket's buffer. */
  private stash: Buffer | undefined;
  /** The end of the valid bytes in the buffer being read. */
  private limit = 0;
  private remaining = 0;
  private noBody = false;
  private head: Buffer | undefined;
  private body: Buffer[] | undefined;
  /** The answer is kept as a sample: its body is capped at SAMPLE_BODY_LIMIT (unless it is kept for extraction too). */
  private sampled = false;
  private extracting = false;
  private bodyBytes = 0;
  private bodyCut = false;
  private readonly framing: Framing = newFraming();

  constructor(
    private readonly events: ReaderEvents,
    /** Statuses whose head is kept for Answer.head. */
    private readonly keepHeadOf: (status: number) => boolean,
    /** Error answers whose head and body are kept as a sample. */
    private readonly keepBodyOf?: KeepBodyOf,
  ) {}

  /** Expects the answer to a request: HEAD answers have no body; keepBody keeps it as Answer.body. */
  expect(method: string, keepBody: boolean): void {
    this.state = State.Head;
    this.noBody = method === 'HEAD';
    this.body = keepBody ? [] : undefined;
    this.extracting = keepBody;
    this.sampled = false;
    this.bodyBytes = 0;
    this.bodyCut = false;
    this.stash = undefined;
  }

  /** Bytes received: data[0, length). */
  feed(data: Buffer, length = data.length): void {
    if (this.state === State.Failed) return; // said once; the connection is going
    if (this.state === State.Idle) {
      this.fail(MALFORMED); // nobody asked: the server spoke out of turn
      return;
    }
    let bytes = data;
    this.limit = length;
    let owned = false;
    if (this.stash) {
      bytes = Buffer.concat([this.stash, data.subarray(0, length)]);
      this.limit = bytes.length;
      this.stash = undefined;
      owned = true;
    }
    let pos = 0;
    while (pos < this.limit && this.state !== State.Idle) {
      const next = this.step(bytes, pos);
      if (next < 0) return; // failed (said so)
      if (next === pos) break; // needs more bytes
      pos = next;
    }
    if (this.state === State.Idle) return this.complete(pos < this.limit);
    if (pos < this.limit) this.stash = owned ? bytes.subarray(pos, this.limit) : Buffer.from(bytes.subarray(pos, this.limit));
  }

  /** The peer closed the connection: ends a body read until close; anything else was cut short. */
  close(): 'complete' | 'cut' | 'idle' {
    if (this.state === State.Idle || this.state === State.Failed) return 'idle';
    if (this.state !== State.UntilClose) return 'cut';
    this.state = State.Idle;
    this.complete(false);
    return 'complete';
  }

  /** One step from pos: the position after what it consumed, pos if it needs more bytes, -1 after a failure. */
  private step(bytes: Buffer, pos: number): number {
    switch (this.state) {
      case State.Head:
        return this.readHead(bytes, pos);
      case State.Length:
      case State.ChunkData:
      case State.UntilClose:
        return this.readBody(bytes, pos);
      case State.ChunkSize:
        return this.readChunkSize(bytes, pos);
      case State.ChunkEnd:
        if (this.limit - pos < 2) return bytes[pos] === CR ? pos : this.fail(MALFORMED);
        if (bytes[pos] !== CR || bytes[pos + 1] !== LF) return this.fail(MALFORMED);
        this.state = State.ChunkSize;
        return pos + 2;
      case State.Trailers:
        return this.readTrailer(bytes, pos);
      default:
        return this.fail(MALFORMED);
    }
  }

  /** Where needle starts in bytes[pos, limit), or -1. */
  private find(bytes: Buffer, needle: Buffer, pos: number): number {
    const at = bytes.indexOf(needle, pos);
    return at >= 0 && at + needle.length <= this.limit ? at : -1;
  }

  private readHead(bytes: Buffer, pos: number): number {
    const end = this.find(bytes, END_OF_HEAD, pos);
    if (end < 0) return this.limit - pos > MAX_HEAD_BYTES ? this.fail(HEAD_TOO_LARGE) : pos;
    const framing = this.framing;
    if (!readHead(bytes, pos, end, framing, this.keepAliveHintSec === undefined)) return this.fail(MALFORMED);
    const next = end + 4;
    const status = framing.status;
    if (status < 200) return status === 101 ? this.fail(MALFORMED) : next; // interim answers (100, 103) precede the real one
    this.sampled = status >= 400 && this.keepBodyOf !== undefined && this.keepBodyOf(status, framing.contentType);
    this.head = this.sampled || this.keepHeadOf(status) ? Buffer.from(bytes.subarray(pos, end + 2)) : undefined;
    if (this.sampled) this.body ??= [];
    if (framing.keepAliveSec !== undefined) this.keepAliveHintSec = framing.keepAliveSec;
    if (this.noBody || status === 204 || status === 304) this.state = State.Idle;
    else if (framing.transferEncoding) this.state = framing.chunked ? State.ChunkSize : State.UntilClose; // it overrides Content-Length (RFC 9112 6.3)
    else if (framing.contentLength >= 0) {
      this.remaining = framing.contentLength;
      this.state = this.remaining > 0 ? State.Length : State.Idle;
    } else this.state = State.UntilClose; // no length: the body ends when the connection does (RFC 9112 6.3 rule 8)
    if (this.state === State.UntilClose) framing.keepAlive = false;
    return next;
  }

  private readBody(bytes: Buffer, pos: number): number {
    const available = this.limit - pos;
    const take = this.state === State.UntilClose ? available : Math.min(this.remaining, available);
    if (this.body) this.keep(bytes, pos, take);
    if (this.state === State.UntilClose) return pos + take;
    this.remaining -= take;
    if (this.remaining === 0) this.state = this.state === State.Length ? State.Idle : State.ChunkEnd;
    return pos + take;
  }

  private readChunkSize(bytes: Buffer, pos: number): number {
    const eol = this.find(bytes, CRLF, pos);
    if (eol < 0) return this.limit - pos > MAX_LINE_BYTES ? this.fail(MALFORMED) : pos;
    let size = 0;
    let i = pos;
    for (; i < eol && i - pos <= 12; i++) {
      const v = hexValue(bytes[i]!);
      if (v < 0) break;
      size = size * 16 + v;
    }
    // At least one digit, at most 12; after them only whitespace or chunk extensions (";name=value").
    if (i === pos || i - pos > 12 || (i < eol && bytes[i] !== 0x3b && bytes[i] !== 0x20 && bytes[i] !== 0x09)) return this.fail(MALFORMED);
    this.remaining = size;
    this.state = size === 0 ? State.Trailers : State.ChunkData;
    return eol + 2;
  }

  private readTrailer(bytes: Buffer, pos: number): number {
    const eol = this.find(bytes, CRLF, pos);
    if (eol < 0) return this.limit - pos > MAX_LINE_BYTES ? this.fail(MALFORMED) : pos;
    if (eol === pos) this.state = State.Idle; // the empty line after the last chunk and any trailer fields
    return eol + 2;
  }

  /** Keeps body bytes; a sample's only up to SAMPLE_BODY_LIMIT. */
  private keep(bytes: Buffer, pos: number, take: number): void {
    const room = this.sampled && !this.extracting ? SAMPLE_BODY_LIMIT - this.bodyBytes : take;
    if (room < take) this.bodyCut = true;
    const kept = Math.min(room, take);
    if (kept <= 0) return;
    this.body!.push(Buffer.from(bytes.subarray(pos, pos + kept)));
    this.bodyBytes += kept;
  }

  private complete(trailing: boolean): void {
    const body = this.body ? Buffer.concat(this.body).toString('utf8') : undefined;
    const answer: Answer = { status: this.framing.status, head: this.head, body };
    if (this.sampled) {
      answer.sampled = true;
      if (this.bodyCut) answer.bodyCut = true;
    }
    this.head = undefined;
    this.body = undefined;
    this.events.answer(answer, this.framing.keepAlive && !trailing, trailing);
  }

  private fail(code: string): -1 {
    this.state = State.Failed;
    this.stash = undefined;
    this.body = undefined;
    this.events.error(code);
    return -1;
  }
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
