// What one exchange of the engine hands to the recorder, whichever
// transport carried it (socket-transport.ts or undici-transport.ts): the
// status, the header fields only in raw form and only when they may be
// sampled (they are parsed when a sample is actually taken), the body only
// when values are extracted from it.

export interface Answer {
  /** 0 for a transport failure. */
  status: number;
  /** The head as received (the status line, then "Name: value" lines, each ending in CRLF), from the socket transport. */
  head?: Buffer;
  /** Header names and values as received, alternating (undici's raw form). */
  rawHeaders?: Buffer[];
  body?: string;
  /** The head and body were kept as a sample of an error answer (KeepBodyOf said so). */
  sampled?: boolean;
  /** The sampled body was longer than SAMPLE_BODY_LIMIT and is cut there. */
  bodyCut?: boolean;
  errorCode?: string;
}

/**
 * Whether to keep the head and body of an answer with this status and
 * Content-Type as a sample (error answers only: the engine keeps one of each
 * kind, src/crosscut/error-bodies.ts judges them).
 */
export type KeepBodyOf = (status: number, contentType: string | undefined) => boolean;

/** The most of a sampled body kept: evidence shows 16 KiB, the JSON check judges a longer prefix as partial. */
export const SAMPLE_BODY_LIMIT = 64 * 1024;

/** A transport failure under its code. */
export function failure(errorCode: string): Answer {
  return { status: 0, errorCode };
}

export function errorCodeOf(error: unknown): string {
  const e = error as { code?: string; cause?: { code?: string }; name?: string };
  return e.code ?? e.cause?.code ?? e.name ?? 'ERROR';
}

/** The answer's header fields with lower-case names; repeated fields joined with ", ". */
export function headersOf(answer: Answer): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  };
  if (answer.head) {
    // The first line is the status line; folded continuation lines are skipped.
    for (const line of answer.head.toString('latin1').split('\r\n').slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0 && line[0] !== ' ' && line[0] !== '\t') add(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
  }
  const raw = answer.rawHeaders ?? [];
  for (let i = 0; i + 1 < raw.length; i += 2) add(raw[i]!.toString('latin1').toLowerCase(), raw[i + 1]!.toString('latin1'));
  return out;
}
