// The RFC 9421 signature base of a request (section 2.5): one line per
// covered component, `"<identifier>": <value>\n`, then the
// `"@signature-params": <inner list>` line without a trailing newline.
// Derived components are section 2.2; field components section 2.1 with the
// sf, key and bs parameters. Anything a request cannot carry (@status, req,
// tr) or this suite does not know is an error, never a guess: a verifier that
// guesses builds a base the signer never signed.
import { parseDictionary, serializeDictionary, serializeInnerList, serializeItem, type InnerList, type Item, type Parameters } from 'structured-headers';

export interface SignedRequest {
  method: string;
  /** The absolute URL the request was sent to. */
  targetUri: string;
  /** The request target as on the request line: path and query. */
  requestTarget: string;
  /** Field lines in order, names lower-cased. */
  fieldLines: ReadonlyArray<readonly [string, string]>;
}

export class SignatureBaseError extends Error {
  override name = 'SignatureBaseError';
}

/** Fields whose structured type (RFC 8941) the suite knows, for the sf and key parameters. */
const DICTIONARY_FIELDS = new Set([
  'accept-signature',
  'content-digest',
  'repr-digest',
  'signature',
  'signature-input',
  'want-content-digest',
  'want-repr-digest',
]);

const FIELD_PARAMETERS = new Set(['sf', 'key', 'bs']);

/** application/x-www-form-urlencoded percent-encode set, with a space as %20 (RFC 9421, 2.2.8). */
function formEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9*\-._]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function splitTarget(requestTarget: string): { path: string; query: string | undefined } {
  const at = requestTarget.indexOf('?');
  return at < 0 ? { path: requestTarget, query: undefined } : { path: requestTarget.slice(0, at), query: requestTarget.slice(at + 1) };
}

function derivedValues(message: SignedRequest, name: string, params: Parameters): string[] {
  const url = new URL(message.targetUri);
  const { path, query } = splitTarget(message.requestTarget);
  const onlyParams = (...allowed: string[]) => {
    const extra = [...params.keys()].filter((k) => !allowed.includes(k));
    if (extra.length) throw new SignatureBaseError(`parameter ${extra.join(', ')} is not defined for ${name}`);
  };
  switch (name) {
    case '@method':
      onlyParams();
      return [message.method];
    case '@target-uri':
      onlyParams();
      return [message.targetUri];
    case '@authority':
      // URL.host is lower-case and omits the scheme's default port (RFC 9110, 4.2.3).
      onlyParams();
      return [url.host];
    case '@scheme':
      onlyParams();
      return [url.protocol.slice(0, -1).toLowerCase()];
    case '@request-target':
      onlyParams();
      return [message.requestTarget];
    case '@path':
      onlyParams();
      return [path === '' ? '/' : path];
    case '@query':
      onlyParams();
      return [`?${query ?? ''}`];
    case '@query-param': {
      onlyParams('name');
      const wanted = params.get('name');
      if (typeof wanted !== 'string') throw new SignatureBaseError('@query-param needs a name parameter');
      // Names and values are compared and signed in their re-encoded form; each occurrence is its own line.
      const values = [...new URLSearchParams(query ?? '')].filter(([n]) => formEncode(n) === wanted).map(([, v]) => formEncode(v));
      if (values.length === 0) throw new SignatureBaseError(`the target URI has no query parameter ${wanted}`);
      return values;
    }
    case '@status':
      throw new SignatureBaseError('@status only exists in responses');
    default:
      throw new SignatureBaseError(`unknown derived component ${name}`);
  }
}

function fieldValues(message: SignedRequest, name: string, params: Parameters): string[] {
  const unknown = [...params.keys()].filter((k) => !FIELD_PARAMETERS.has(k));
  if (unknown.length) throw new SignatureBaseError(`parameter ${unknown.join(', ')} is not supported on ${name} (req and tr do not apply to a request)`);
  if (name !== name.toLowerCase()) throw new SignatureBaseError(`component name ${name} must be lower-case`);
  const lines = message.fieldLines.filter(([n]) => n === name).map(([, v]) => v.trim().replace(/\r?\n[ \t]+/g, ' '));
  if (lines.length === 0) throw new SignatureBaseError(`the covered header ${name} is not in the message`);
  if (params.get('bs') === true) {
    if (params.size > 1) throw new SignatureBaseError(`bs cannot be combined with other parameters on ${name}`);
    return [lines.map((line) => `:${Buffer.from(line, 'utf8').toString('base64')}:`).join(', ')];
  }
  const combined = lines.join(', ');
  const key = params.get('key');
  if (params.get('sf') === true || key !== undefined) {
    if (!DICTIONARY_FIELDS.has(name)) throw new SignatureBaseError(`the structured type of ${name} is not known to the suite, so sf/key cannot be applied`);
    let dictionary;
    try {
      dictionary = parseDictionary(combined);
    } catch (error) {
      throw new SignatureBaseError(`${name} is not a structured-field dictionary: ${(error as Error).message}`);
    }
    if (key === undefined) return [serializeDictionary(dictionary)];
    if (typeof key !== 'string') throw new SignatureBaseError(`the key parameter on ${name} must be a string`);
    const member = dictionary.get(key);
    if (!member) throw new SignatureBaseError(`${name} has no member ${key}`);
    return [Array.isArray(member[0]) ? serializeInnerList(member as InnerList) : serializeItem(member as Item)];
  }
  return [combined];
}

/** The signature-base lines of one covered component (several only for a repeated @query-param). */
export function componentLines(message: SignedRequest, component: Item): string[] {
  const [name, params] = component;
  if (typeof name !== 'string') throw new SignatureBaseError('a covered component must be a string');
  const identifier = serializeItem(name, params);
  const values = name.startsWith('@') ? derivedValues(message, name, params) : fieldValues(message, name, params);
  return values.map((value) => `${identifier}: ${value}`);
}

/** The signature base for covered components and their parameters, as in a Signature-Input member. */
export function buildSignatureBase(message: SignedRequest, signatureParams: InnerList): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const component of signatureParams[0]) {
    const identifier = typeof component[0] === 'string' ? serializeItem(component[0], component[1]) : '';
    if (seen.has(identifier)) throw new SignatureBaseError(`component ${identifier} is covered twice`);
    seen.add(identifier);
    lines.push(...componentLines(message, component));
  }
  lines.push(`"@signature-params": ${serializeInnerList(signatureParams)}`);
  return lines.join('\n');
}
