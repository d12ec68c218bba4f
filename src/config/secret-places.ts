// Which places of a profile hold a secret. A place is judged by the name it
// sits under: a key or header name that ends in secret, password,
// passphrase, token, API key, private key, authorization or cookie
// (clientSecret, x-partner-token, proxy-authorization; not secretEncoding,
// whose value says how a secret is written), and the value of a {header,
// value} pair (auth.jwksAccess: a key sent as a header). Every reader agrees
// through this one rule: manifest.json hashes the values there
// (src/certify/profile-secrets.ts), every artifact redacts them
// (src/http/connection.ts secretRedactor), and ptas serve refuses a value in
// the clear there and reads env:NAME references only there
// (app/serve/profile-text.ts).
export const SECRET_NAME = /(secret|password|passphrase|token|api[-_]?key|private[-_]?key|authorization|cookie)$/i;

/** The name a child of `parent` is judged by: its key, or "secret" for the value of a {header, value} pair. */
export function nameOfPlace(parent: object, key: string): string {
  const headerPair = !Array.isArray(parent) && 'header' in parent && typeof (parent as { value?: unknown }).value === 'string';
  return headerPair && key === 'value' ? 'secret' : key;
}

export interface StringPlace {
  /** "credentials.clientSecret", "webhooks.additionalUsers[0]". */
  keyPath: string;
  /** The same as a JSON Pointer: "/credentials/clientSecret". */
  pointer: string;
  value: string;
  /** Whether the place holds a secret by the rule above. */
  secret: boolean;
}

/** Every string of the profile with its place; an array's items are judged by the array's key. */
export function stringPlaces(profile: unknown): StringPlace[] {
  const places: StringPlace[] = [];
  const walk = (value: unknown, keyPath: string, pointer: string, name: string): void => {
    if (typeof value === 'string') {
      places.push({ keyPath, pointer, value, secret: SECRET_NAME.test(name) });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${keyPath}[${i}]`, `${pointer}/${i}`, name));
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        walk(child, keyPath ? `${keyPath}.${key}` : key, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, nameOfPlace(value, key));
      }
    }
  };
  walk(profile, '', '', '');
  return places;
}
