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
  const stack: Container[] = [];
  let expect: Expect = 'value';
  let stringIsKey = false;
  let escape: 'none' | 'backslash' | number = 'none'; // a number counts the \u hex digits still due
  let number: NumberState = 'int';
  let literal = '';

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const problem = (what: string): JsonPrefixProblem => ({ offset: i, problem: `${what} at character ${i + 1} (${JSON.stringify(c)})` });

    if (expect === 'string') {
      if (typeof escape === 'number') {
        if (!isHex(c)) return problem('a \\u escape needs four hex digits');
        escape = escape === 1 ? 'none' : escape - 1;
      } else if (escape === 'backslash') {
        if (!ESCAPES.has(c)) return problem('an unknown escape');
        escape = c === 'u' ? 4 : 'none';
      } else if (c === '\\') escape = 'backslash';
      else if (c === '"') {
        if (stringIsKey) expect = 'colon';
        else expect = 'after-value';
      } else if (c < ' ') return problem('a control character inside a string');
      continue;
    }
    if (expect === 'literal') {
      if (c !== literal[0]) return problem('a misspelt true, false or null');
      literal = literal.slice(1);
      if (!literal) expect = 'after-value';
      continue;
    }
    if (expect === 'number') {
      const next = nextNumberState(number, c);
      if (next) {
        number = next;
        continue;
      }
      if (!NUMBER_CAN_END.has(number)) return problem('an incomplete number');
      expect = 'after-value';
      // The character that ended the number is read again as what follows it.
    }

    if (isWhitespace(c)) continue;

    switch (expect) {
      case 'value':
      case 'value-or-close':
        if (expect === 'value-or-close' && c === ']') {
          stack.pop();
          expect = 'after-value';
        } else if (c === '{') {
          stack.push('object');
          expect = 'key-or-close';
        } else if (c === '[') {
          stack.push('array');
          expect = 'value-or-close';
        } else if (c === '"') {
          expect = 'string';
          stringIsKey = false;
        } else if (c === '-' || isDigit(c)) {
          expect = 'number';
          number = c === '-' ? 'sign' : c === '0' ? 'zero' : 'int';
        } else if (c === 't' || c === 'f' || c === 'n') {
          expect = 'literal';
          literal = LITERAL_RESTS[c]!;
        } else return problem('not the start of a JSON value');
        break;
      case 'key-or-close':
      case 'key':
        if (expect === 'key-or-close' && c === '}') {
          stack.pop();
          expect = 'after-value';
        } else if (c === '"') {
          expect = 'string';
          stringIsKey = true;
        } else return problem('an object member must start with a string key');
        break;
      case 'colon':
        if (c !== ':') return problem('a colon must follow an object key');
        expect = 'value';
        break;
      case 'after-value': {
        const open = stack.at(-1);
        if (c === ',' && open) expect = open === 'object' ? 'key' : 'value';
        else if ((c === '}' && open === 'object') || (c === ']' && open === 'array')) {
          stack.pop();
          expect = 'after-value';
        } else return problem(open ? `a comma or ${open === 'object' ? '}' : ']'} must follow a value` : 'text after the JSON value');
        break;
      }
    }
  }
  return undefined;
}
