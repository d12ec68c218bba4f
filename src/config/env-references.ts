// env:NAME references read only where a secret goes. `ptas run` resolves a
// reference in any string of its own user's profile (load.ts
// resolveEnvReferences); a server that runs other people's profiles must not:
// a reference at a shown place (a name, a header, a body field) would copy
// any variable of the server's environment into reports, logs and requests
// to a host the profile's author chose. Here a reference is resolved only at
// a place that holds a secret (secret-places.ts), whose value every artifact
// redacts and hashes; the caller decides where a value may come from.
import { ConfigError } from './errors.ts';
import { stringPlaces } from './secret-places.ts';

export const ENV_PREFIX = 'env:';

export interface EnvReference {
  /** The variable's name: "PTAS_CLIENT_SECRET". */
  name: string;
  keyPath: string;
  pointer: string;
  /** Whether the reference sits where a secret goes. */
  secret: boolean;
}

/** Every env:NAME reference of the profile, with its place. */
export function envReferences(profile: unknown): EnvReference[] {
  return stringPlaces(profile)
    .filter((place) => place.value.startsWith(ENV_PREFIX))
    .map(({ value, keyPath, pointer, secret }) => ({ name: value.slice(ENV_PREFIX.length), keyPath, pointer, secret }));
}

/** A reference at a place that holds no secret: its value would be shown and sent as it is. */
export class EnvReferenceOutsideSecret extends ConfigError {
  constructor(readonly reference: EnvReference) {
    super(
      `${reference.keyPath}: env: references are read only where a secret goes (a client secret, a shared secret, a password, an API key or authorization header, the value of a {"header", "value"} pair); write the value of ${reference.keyPath} itself`,
      reference.pointer,
    );
    this.name = 'EnvReferenceOutsideSecret';
  }
}

/** A reference at a secret's place for which the caller has no value it may use. */
export class EnvReferenceWithoutValue extends ConfigError {
  constructor(readonly reference: EnvReference) {
    super(`${reference.keyPath}: env:${reference.name} has no value this run may use`, reference.pointer);
    this.name = 'EnvReferenceWithoutValue';
  }
}

/** Refuses a profile with a reference outside a secret's place (the first, in document order). */
export function assertEnvReferencesAtSecrets(profile: unknown): EnvReference[] {
  const references = envReferences(profile);
  const outside = references.find((reference) => !reference.secret);
  if (outside) throw new EnvReferenceOutsideSecret(outside);
  return references;
}

export interface ResolvedSecrets<T> {
  profile: T;
  /** Every value a reference was replaced by, for the redaction of everything the run shows. */
  values: string[];
}

/**
 * Replaces each env:NAME reference by `valueOf(name)`. Refused: a reference
 * outside a secret's place, and one `valueOf` has no value for (whether it
 * is unset or not allowed is the caller's to say, or not to say).
 */
export function resolveEnvAtSecrets<T>(profile: T, valueOf: (name: string) => string | undefined): ResolvedSecrets<T> {
  const references = assertEnvReferencesAtSecrets(profile);
  const resolved = structuredClone(profile);
  const values: string[] = [];
  for (const reference of references) {
    const value = valueOf(reference.name);
    if (value === undefined || value === '') throw new EnvReferenceWithoutValue(reference);
    setAtPointer(resolved, reference.pointer, value);
    values.push(value);
  }
  return { profile: resolved, values };
}

/** Sets the string at a JSON Pointer (RFC 6901) of `root`, whose parents exist. */
export function setAtPointer(root: unknown, pointer: string, value: string): void {
  const keys = pointer.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  const last = keys.pop()!;
  const parent = keys.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);
  (parent as Record<string, unknown>)[last] = value;
}
