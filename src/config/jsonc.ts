// JSON with comments, as tsconfig.json reads it: // and /* */ comments and
// trailing commas are allowed, so a profile can explain itself and keys can be
// switched on and off by (un)commenting a line. A small parser of its own
// rather than JSON.parse on a stripped text: V8's messages often carry no
// position ("Unexpected token '}', "…" is not valid JSON") and quote the whole
// input, secrets included; this one names the line and column and quotes one
// character. Values are what JSON.parse gives for the same JSON.

/** A syntax error at a position of the text (1-based line and column). */
export class JsoncSyntaxError extends Error {
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${detail}`);
    this.name = 'JsoncSyntaxError';
  }
}

/** 1-based line and column of an offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

// Sticky patterns of the JSON grammar (RFC 8259) for the tokens whose text JSON.parse then decodes.
const STRING = /"(?:[^"\\\u0000-\u001F]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERALS: ReadonlyArray<[string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/**
 * How deep arrays and objects may nest. The parser recurses once per level, so
 * a text nested thousands deep would overflow the stack (a crash, not an
 * error naming the problem); no profile or waiver file comes near this.
 */
export const MAX_JSONC_DEPTH = 64;

/** A comment of the text: its words (without its // or its delimiters) and the offset they start at. */
export interface JsoncComment {
  text: string;
  offset: number;
}

class Parser {
  private i = 0;
  private depth = 0;

  /** comments: filled with the text's comments, in order, when given. */
  constructor(
    private readonly text: string,
    private readonly comments?: JsoncComment[],
  ) {
    // A byte-order mark is not JSON whitespace, but editors write one.
    if (text.startsWith('\uFEFF')) this.i = 1;
  }

  parseDocument(): unknown {
    this.skipBlanks();
    const value = this.value();
    this.skipBlanks();
    if (this.i < this.text.length) this.fail(`unexpected ${this.found()} after the end of the JSON value`);
    return value;
  }

  private fail(detail: string, at = this.i): never {
    const { line, column } = positionOf(this.text, at);
    throw new JsoncSyntaxError(detail, line, column);
  }

  private found(): string {
    return this.i < this.text.length ? JSON.stringify(this.text[this.i]) : 'end of file';
  }

  /** Whitespace and comments. */
  private skipBlanks(): void {
    for (;;) {
      const ch = this.text[this.i];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') this.i++;
      else if (ch === '/' && this.text[this.i + 1] === '/') {
        const newline = this.text.indexOf('\n', this.i);
        const end = newline === -1 ? this.text.length : newline;
        this.comments?.push({ text: this.text.slice(this.i + 2, end), offset: this.i + 2 });
        this.i = end;
      } else if (ch === '/' && this.text[this.i + 1] === '*') {
        const close = this.text.indexOf('*/', this.i + 2);
        if (close === -1) this.fail('this /* comment is never closed with */');
        this.comments?.push({ text: this.text.slice(this.i + 2, close), offset: this.i + 2 });
        this.i = close + 2;
      } else return;
    }
  }

  private value(): unknown {
    const ch = this.text[this.i];
    if (ch === '{') return this.object();
    if (ch === '[') return this.array();
    if (ch === '"') return this.token(STRING, 'a string: unterminated, or with an invalid escape or a raw control character');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.token(NUMBER, 'a number');
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return value;
      }
    }
    return this.fail(`expected a value, found ${this.found()}`);
  }

  private token(pattern: RegExp, what: string): unknown {
    pattern.lastIndex = this.i;
    const match = pattern.exec(this.text);
    if (!match) this.fail(`invalid ${what}`);
    this.i += match[0].length;
    return JSON.parse(match[0]) as unknown;
  }

  /** `{` or `[` … `}` or `]`: members separated by commas, a trailing comma allowed. */
  private members(close: '}' | ']', member: () => void): void {
    if (++this.depth > MAX_JSONC_DEPTH) this.fail(`nested deeper than ${MAX_JSONC_DEPTH} levels (arrays and objects inside each other): no profile or waiver file needs more`);
    this.i++;
    for (;;) {
      this.skipBlanks();
      if (this.text[this.i] === close) break;
      member();
      this.skipBlanks();
      if (this.text[this.i] === ',') this.i++;
      else if (this.text[this.i] !== close) this.fail(`expected ',' or '${close}', found ${this.found()}`);
    }
    this.i++;
    this.depth--;
  }

  private object(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.members('}', () => {
      if (this.text[this.i] !== '"') this.fail(`expected a property name in double quotes, found ${this.found()}`);
      const key = this.token(STRING, 'property name') as string;
      this.skipBlanks();
      if (this.text[this.i] !== ':') this.fail(`expected ':' after the property name, found ${this.found()}`);
      this.i++;
      this.skipBlanks();
      // Like JSON.parse: an own property even for "__proto__", the last of duplicate keys wins.
      Object.defineProperty(result, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
    });
    return result;
  }

  private array(): unknown[] {
    const result: unknown[] = [];
    this.members(']', () => result.push(this.value()));
    return result;
  }
}

/** Parses JSON with comments and trailing commas; a syntax error names its line and column. */
export function parseJsonc(text: string): unknown {
  return new Parser(text).parseDocument();
}

/** The comments of a text that parses (a syntax error as parseJsonc's). */
export function jsoncComments(text: string): JsoncComment[] {
  const comments: JsoncComment[] = [];
  new Parser(text, comments).parseDocument();
  return comments;
}
