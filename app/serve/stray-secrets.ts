// Secrets written where the server would keep them although no secret goes
// there: in a comment (the text is stored as written, comments included) or
// in the query of a URL the profile names (`?api_key=…`). A secret in a
// secret's own place is profile-text.ts's refusal; these are the ones a
// user pastes without noticing. Found by shape, never quoted back: the answer
// names the line or key and what the value looked like, not the value.
import { jsoncComments, positionOf } from '../../src/config/jsonc.ts';
import type { Profile } from '../../src/config/profile.ts';
import { stringPlaces } from '../../src/config/secret-places.ts';
import { ServeError } from './errors.ts';

/** Names a credential goes by, as a key in a comment or a query parameter. */
const CREDENTIAL_NAME = String.raw`client[_-]?secret|secret|password|passwd|pwd|api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|id[_-]?token|token|private[_-]?key|authorization|auth|sig|signature`;

/** A value shaped like a secret rather than a word: no blanks, 8 characters or more, a digit among them or 20 characters or more. */
function secretShaped(value: string): boolean {
  if (value.startsWith('env:') || /^[{<]/.test(value)) return false;
  return /^[A-Za-z0-9._~+/=:-]{8,}$/.test(value) && (/\d/.test(value) || value.length >= 20);
}

interface Shape {
  what: string;
  found(text: string): number | undefined;
}

const first = (pattern: RegExp, accept: (match: RegExpExecArray) => boolean = () => true) => (text: string) => {
  for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))) {
    if (accept(match)) return match.index;
  }
  return undefined;
};

/** What a secret pasted into a comment looks like. */
const COMMENT_SHAPES: readonly Shape[] = [
  { what: 'a private key (-----BEGIN … PRIVATE KEY-----)', found: first(/-----BEGIN [A-Z ]*PRIVATE KEY-----/) },
  { what: 'a JWT (eyJ….eyJ….…)', found: first(/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/) },
  { what: 'a bearer token (Bearer …)', found: first(/\bBearer\s+([A-Za-z0-9._~+/-]{16,}=*)/, (m) => secretShaped(m[1]!)) },
  { what: 'a URL with credentials (user:password@)', found: first(/\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"']+:[^\s/@"']+@/i) },
  {
    what: 'a credential written as a value (a key like clientSecret, password or api_key, and a value of a secret\'s shape)',
    found: first(new RegExp(String.raw`(?<![A-Za-z0-9])"?(?:${CREDENTIAL_NAME})"?\s*[:=]\s*"?([^\s"',}&]+)`, 'i'), (m) => secretShaped(m[1]!)),
  },
];

/** A comment holding what looks like a secret: refused (422) with its line and column, the value itself never repeated. */
export function refuseSecretsInComments(text: string): void {
  for (const comment of jsoncComments(text)) {
    for (const shape of COMMENT_SHAPES) {
      const at = shape.found(comment.text);
      if (at === undefined) continue;
      const { line, column } = positionOf(text, comment.offset + at);
      throw new ServeError(
        'literal-secret',
        `line ${line}, column ${column}: a comment holds what looks like a secret — ${shape.what}. The server stores the profile as written, comments included, and stores no secret: take it out (a secret is written as "env:NAME" at its own key and given with each run)`,
        { line, column },
      );
    }
  }
}

const CREDENTIAL_PARAMETER = new RegExp(String.raw`^(?:${CREDENTIAL_NAME}|key|x-api-key)$`, 'i');

/** A URL or path the profile names whose query carries a credential-named parameter with a value: refused (422) naming the key. */
export function refuseSecretsInQueries(profile: Profile): void {
  for (const { keyPath, pointer, value } of stringPlaces(profile)) {
    if (!/(^|\.)(baseUrl|\w*Url|path)$/.test(keyPath) || !value.includes('?')) continue;
    const query = value.slice(value.indexOf('?') + 1).split('#')[0]!;
    const parameter = new URLSearchParams(query);
    const named = [...parameter.entries()].find(([name, given]) => CREDENTIAL_PARAMETER.test(name) && given !== '' && !/^(\{.*\}|env:.*)$/.test(given));
    if (!named) continue;
    throw new ServeError(
      'literal-secret',
      `${keyPath}: its query carries ${named[0]}=…, a credential in the clear, and the server stores no secret: a credential goes in a secret's place (credentials.clientSecret, a header written "env:NAME") and is given with each run`,
      { keyPath: pointer },
    );
  }
}
