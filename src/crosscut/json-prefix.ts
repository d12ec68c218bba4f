// Whether a text can be the beginning of a JSON text (RFC 8259). Evidence
// keeps only the first 16 KiB of a body, and a body cut off at the response
// cap is incomplete too: such a body cannot be proven to BE JSON, but it can
// be proven NOT to be, when its kept beginning already breaks the grammar.
// A small pushdown scanner does that without a dependency.

/** Where the kept text stops being a possible start of JSON, and why. */
export interface JsonPrefixProblem {
  offset: number;
  problem: string;
}

type Container = 'object' | 'array';

type Expect =
  | 'value' // a value must come
  | 'value-or-close' // after '[': a value or ']'
  | 'key-or-close' // after '{': a key string or '}'
  | 'key' // after ',' in an object
  | 'colon'
  | 'after-value' // ',' or the closing bracket, or (top level) only whitespace
  | 'string'
  | 'number'
  | 'literal';

/** Number grammar states: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
type NumberState = 'sign' | 'zero' | 'int' | 'dot' | 'frac' | 'e' | 'e-sign' | 'exp';
const NUMBER_CAN_END: ReadonlySet<NumberState> = new Set(['zero', 'int', 'frac', 'exp']);

const isWhitespace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isHex = (c: string) => /^[0-9a-fA-F]$/.test(c);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);
/** What remains to be read of true, false and null once their first letter was. */
const LITERAL_RESTS: Record<string, string> = { t: 'rue', f: 'alse', n: 'ull' };

function nextNumberState(state: NumberState, c: string): NumberState | undefined {
  switch (state) {
    case 'sign':
      return c === '0' ? 'zero' : isDigit(c) ? 'int' : undefined;
    case 'zero':
      return c === '.' ? 'dot' : c === 'e' || c === 'E' ? 'e' : undefined;
    case 'int':
      return isDigit(c) ? 'int' : c === '.' ? 'dot' : c === 'e' || c === 'E' ? 'e' : undefined;
    case 'dot':
      return isDigit(c) ? 'frac' : undefined;
    case 'frac':
      return isDigit(c) ? 'frac' : c === 'e' || c === 'E' ? 'e' : undefined;
    case 'e':
      return c === '+' || c === '-' ? 'e-sign' : isDigit(c) ? 'exp' : undefined;
    case 'e-sign':
    case 'exp':
      return isDigit(c) ? 'exp' : undefined;
  }
}

/**
 * Undefined when `text` is a possible beginning of a JSON text (an empty or
 * whitespace-only text included); otherwise where and why it cannot be.
 */
export function jsonPrefixProblem(text: string): JsonPrefixProblem | undefined {
  const scanner = new PrefixScanner();
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const what = scanner.read(c);
    if (what) return { offset: i, problem: `${what} at character ${i + 1} (${JSON.stringify(c)})` };
  }
  return undefined;
}

/** The scanner's state between characters. Each method reads one character: undefined when it may come there, else why not. */
class PrefixScanner {
  private readonly stack: Container[] = [];
  private expect: Expect = 'value';
  private stringIsKey = false;
  private escape: 'none' | 'backslash' | number = 'none'; // a number counts the \u hex digits still due
  private number: NumberState = 'int';
  private literal = '';

  read(c: string): string | undefined {
    if (this.expect === 'string') return this.inString(c);
    if (this.expect === 'literal') return this.inLiteral(c);
    if (this.expect === 'number') {
      const next = nextNumberState(this.number, c);
      if (next) {
        this.number = next;
        return undefined;
      }
      if (!NUMBER_CAN_END.has(this.number)) return 'an incomplete number';
      this.expect = 'after-value';
      // The character that ended the number is read again as what follows it.
    }

    if (isWhitespace(c)) return undefined;

    switch (this.expect) {
      case 'value':
      case 'value-or-close':
        return this.startValue(c);
      case 'key-or-close':
      case 'key':
        return this.startKey(c);
      case 'colon':
        if (c !== ':') return 'a colon must follow an object key';
        this.expect = 'value';
        return undefined;
      case 'after-value':
        return this.afterValue(c);
    }
    return undefined;
  }

  private inString(c: string): string | undefined {
    if (typeof this.escape === 'number') {
      if (!isHex(c)) return 'a \\u escape needs four hex digits';
      this.escape = this.escape === 1 ? 'none' : this.escape - 1;
    } else if (this.escape === 'backslash') {
      if (!ESCAPES.has(c)) return 'an unknown escape';
      this.escape = c === 'u' ? 4 : 'none';
    } else if (c === '\\') this.escape = 'backslash';
    else if (c === '"') {
      if (this.stringIsKey) this.expect = 'colon';
      else this.expect = 'after-value';
    } else if (c < ' ') return 'a control character inside a string';
    return undefined;
  }

  private inLiteral(c: string): string | undefined {
    if (c !== this.literal[0]) return 'a misspelt true, false or null';
    this.literal = this.literal.slice(1);
    if (!this.literal) this.expect = 'after-value';
    return undefined;
  }

  private startValue(c: string): string | undefined {
    if (this.expect === 'value-or-close' && c === ']') {
      this.stack.pop();
      this.expect = 'after-value';
    } else if (c === '{') {
      this.stack.push('object');
      this.expect = 'key-or-close';
    } else if (c === '[') {
      this.stack.push('array');
      this.expect = 'value-or-close';
    } else if (c === '"') {
      this.expect = 'string';
      this.stringIsKey = false;
    } else if (c === '-' || isDigit(c)) {
      this.expect = 'number';
      this.number = c === '-' ? 'sign' : c === '0' ? 'zero' : 'int';
    } else if (c === 't' || c === 'f' || c === 'n') {
      this.expect = 'literal';
      this.literal = LITERAL_RESTS[c]!;
    } else return 'not the start of a JSON value';
    return undefined;
  }

  private startKey(c: string): string | undefined {
    if (this.expect === 'key-or-close' && c === '}') {
      this.stack.pop();
      this.expect = 'after-value';
    } else if (c === '"') {
      this.expect = 'string';
      this.stringIsKey = true;
    } else return 'an object member must start with a string key';
    return undefined;
  }

  private afterValue(c: string): string | undefined {
    const open = this.stack.at(-1);
    if (c === ',' && open) this.expect = open === 'object' ? 'key' : 'value';
    else if ((c === '}' && open === 'object') || (c === ']' && open === 'array')) {
      this.stack.pop();
      this.expect = 'after-value';
    } else return open ? `a comma or ${open === 'object' ? '}' : ']'} must follow a value` : 'text after the JSON value';
    return undefined;
  }
}
