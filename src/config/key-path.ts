// Profile keys as dotted paths ('trading.userId',
// 'trading.createOffer.extract.offerId'), typed over the Profile type
// (src/config/profile.ts), so a SKIP that names the key to set cannot name
// one the profile does not have, and the value it guards comes back typed.
import type { Profile } from './profile.ts';

/** Values a path stops at: nothing inside them is named by a key. */
type Leaf = string | number | boolean | readonly unknown[];

/** Depth budget for the recursion (the deepest key today is four steps). */
type Depth = [never, 0, 1, 2, 3, 4, 5];

/** Every dotted path into T, to at most D steps; a Record<string, …> (a template's extract) takes any name. */
export type KeyPath<T, D extends number = 6> = [D] extends [never]
  ? never
  : T extends Leaf
    ? never
    : T extends object
      ? { [K in keyof T & string]-?: K | (NonNullable<T[K]> extends Leaf ? never : `${K}.${KeyPath<NonNullable<T[K]>, Depth[D]>}`) }[keyof T & string]
      : never;

/** One step: the member K of each object in the union T ('auth.jwksAccess' is 'none', 'bearer' or { header, value }). */
type Step<T, K extends string> = T extends object ? (K extends keyof T ? T[K] : never) : never;

/** The type at a dotted path of T, absence removed. */
export type ValueAt<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? ValueAt<Step<NonNullable<T>, Head>, Rest>
  : NonNullable<Step<NonNullable<T>, P>>;

export type ProfileKey = KeyPath<Profile>;
export type ProfileValue<K extends ProfileKey> = ValueAt<Profile, K>;

/** The value at a dotted path, or undefined when a step is missing. */
export function profileValue<K extends ProfileKey>(profile: Profile, key: K): ProfileValue<K> | undefined {
  let value: unknown = profile;
  for (const step of key.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value as ProfileValue<K> | undefined;
}

/** Unset as a check needs it: absent, or an empty string or list (the schema's minimums make these unusable anyway). */
export function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}
