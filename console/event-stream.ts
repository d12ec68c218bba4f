// Server-sent events read with fetch: the run page's live view. EventSource
// cannot send headers, and the API wants the session's secret as the bearer
// (app/serve/console/access.ts), so this reads the stream itself: the body
// as a ReadableStream, parsed by the text/event-stream rules (id:, event:,
// data: lines, a blank line ending each event, comments and unknown fields
// ignored, retry: honoured), and, as EventSource does, a reconnection with
// Last-Event-ID after the connection drops, so the server sends only what
// was missed. It stops after the `end` event (the server then closes the
// stream), when closed, on a 401 (the session ended) and after several
// attempts in a row that received nothing. A connection on which nothing at
// all arrives for `idleMs` (the server writes a comment every 15 s) counts
// as dropped: a laptop that slept may never see the reset.
// No DOM here: the tests run it in Node against the real server.

export interface StreamEvent {
  /** The last event id the stream set (sent back as Last-Event-ID). */
  id?: string;
  /** "message" when the frame names none. */
  event: string;
  data: string;
}

/** The text/event-stream parser: text in (in any chunks), events out. */
export class EventStreamParser {
  #buffer = '';
  #data: string[] = [];
  #event = '';
  /** The last event id: kept from one event to the next, as the format says. */
  lastEventId: string | undefined;
  /** The server's reconnection time, when it sent one. */
  retryMs: number | undefined;

  push(chunk: string): StreamEvent[] {
    const text = this.#buffer + chunk;
    const events: StreamEvent[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c !== '\n' && c !== '\r') continue;
      // A CR at the end of the chunk may be the first half of a CRLF: wait for the next chunk.
      if (c === '\r' && i + 1 === text.length) break;
      const line = text.slice(start, i);
      if (c === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
      this.#line(line, events);
    }
    this.#buffer = text.slice(start);
    return events;
  }

  #line(line: string, events: StreamEvent[]): void {
    if (line === '') {
      if (this.#data.length) events.push({ ...(this.lastEventId !== undefined ? { id: this.lastEventId } : {}), event: this.#event || 'message', data: this.#data.join('\n') });
      this.#data = [];
      this.#event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }
}

export interface FollowOptions {
  /** The headers of each request (the bearer), asked again at each reconnection. */
  headers: () => Record<string, string>;
  onEvent: (event: StreamEvent) => void;
  /** The server answered 401: the session ended. Nothing more is tried. */
  onUnauthorized: () => void;
  /** Given up (another refusal, or `maxAttempts` in a row that received nothing): why. */
  onLost: (why: string) => void;
  /** The event after which the stream is over (default "end"). */
  endEvent?: string;
  /** Before reconnecting (the server's retry: replaces it); default 1 s. */
  retryMs?: number;
  /** Attempts in a row that receive nothing before giving up (default 5). */
  maxAttempts?: number;
  /** A connection silent this long is dropped and opened again (default 45 s: three of the server's keep-alive comments). */
  idleMs?: number;
}

export interface EventFollower {
  /** Stops reading (the connection is closed). */
  close(): void;
  /** Settles once it stopped, for whatever reason. */
  done: Promise<void>;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

export function followEvents(url: string, options: FollowOptions): EventFollower {
  const endEvent = options.endEvent ?? 'end';
  const maxAttempts = options.maxAttempts ?? 5;
  const idleMs = options.idleMs ?? 45_000;
  let retryMs = options.retryMs ?? 1000;
  const stop = new AbortController();
  let lastEventId: string | undefined;
  /** Whether the current connection delivered an event. */
  let received = false;

  /** One connection: true when the stream is over (end, 401, a refusal, closed), false when it dropped. */
  const connect = async (): Promise<boolean> => {
    const connection = new AbortController();
    const abort = () => connection.abort();
    stop.signal.addEventListener('abort', abort, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const quiet = () => {
      clearTimeout(idle);
      idle = setTimeout(abort, idleMs);
    };
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers() };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      quiet();
      const response = await fetch(url, { headers, signal: connection.signal, credentials: 'same-origin' });
      if (response.status === 401) {
        options.onUnauthorized();
        return true;
      }
      if (!response.ok || !response.body) {
        void response.body?.cancel();
        // A server error may pass (a restart); any other refusal will not.
        if (response.status >= 500) return false;
        options.onLost(`the server answered ${response.status}`);
        return true;
      }
      const parser = new EventStreamParser();
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        quiet();
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          // The id this event carries, not the parser's: the chunk may end inside a frame whose id line came, and that
          // event, cut off by a drop, must come again.
          lastEventId = event.id;
          received = true;
          options.onEvent(event);
          if (event.event === endEvent || stop.signal.aborted) {
            void reader.cancel().catch(() => {});
            return true;
          }
        }
        if (parser.retryMs !== undefined) retryMs = parser.retryMs;
      }
    } catch {
      // Dropped, silent too long, or closed (the loop sees which).
      return stop.signal.aborted;
    } finally {
      clearTimeout(idle);
      stop.signal.removeEventListener('abort', abort);
    }
  };

  const done = (async () => {
    let fruitless = 0;
    while (!stop.signal.aborted) {
      received = false;
      if (await connect()) return;
      if (stop.signal.aborted) return;
      // A connection that delivered something starts the count again.
      fruitless = received ? 0 : fruitless + 1;
      if (fruitless >= maxAttempts) {
        options.onLost(`the connection dropped ${fruitless} times in a row without an event`);
        return;
      }
      await pause(retryMs, stop.signal);
    }
  })();
  return { close: () => stop.abort(), done };
}
