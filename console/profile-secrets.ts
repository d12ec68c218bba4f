// What the start-run form asks for, read from the saved profile's values as
// the server reads them (never from its comments): a one-run field for each
// env: reference, and one for the client secret when the profile sets none.
// No DOM here, so the rule is tested on its own.
import { envReferences as envReferencesOf } from '../src/config/env-references.ts';
import { parseJsonc } from '../src/config/jsonc.ts';

/** The saved profile's values (a saved profile parses: the server refused it otherwise); words in its comments are no values. */
function profileValues(profileText: string): unknown {
  try {
    return parseJsonc(profileText);
  } catch {
    return undefined;
  }
}

/** Whether a profile sets credentials.clientSecret at all (a profile may leave it to each run). */
export function setsClientSecret(profileText: string): boolean {
  const profile = profileValues(profileText) as { credentials?: { clientSecret?: unknown } } | undefined;
  return profile?.credentials?.clientSecret !== undefined;
}

/** The names of the env:NAME references among the profile's values (never its comments), each once. */
export function envReferences(profileText: string): string[] {
  return [...new Set(envReferencesOf(profileValues(profileText)).map((reference) => reference.name))];
}
