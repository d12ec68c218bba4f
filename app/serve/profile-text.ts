// An implementation's profile as the server holds it: the text the user
// wrote (JSON with comments), checked with the loader `ptas run -c` uses
// (src/config/jsonc.ts, src/config/validate.ts), and never with a secret in
// it: a secret is written as "env:NAME" and given with the run (kept in
// memory for that run only) or read from the server's environment when the
// operator allows that name (profile-policy.ts). A reference is read only
// where a secret goes (src/config/env-references.ts): what counts as one is
// what manifest.json hashes (src/config/secret-places.ts). The operator's
// policy also decides the hosts a profile's run may call and the files it
// may name.
import { ConfigError } from '../../src/config/errors.ts';
import { assertEnvReferencesAtSecrets, EnvReferenceOutsideSecret, EnvReferenceWithoutValue, resolveEnvAtSecrets } from '../../src/config/env-references.ts';
import { JsoncSyntaxError, parseJsonc } from '../../src/config/jsonc.ts';
import type { Profile } from '../../src/config/profile.ts';
import { stringPlaces } from '../../src/config/secret-places.ts';
import { validateProfile } from '../../src/config/validate.ts';
import { ServeError } from './errors.ts';
import { refuseSecretsInComments, refuseSecretsInQueries } from './stray-secrets.ts';
import type { ProfilePolicy } from './profile-policy.ts';
import { profileUrls } from './target-policy.ts';

/** Secrets a run request may carry, for that run only. */
export interface RunSecrets {
  clientSecret?: string;
  /** Values of the profile's env:NAME references for this run, before the server's environment. */
  env?: Record<string, string>;
}

const SOURCE = 'profileText';

/** The environment variable a secret at this key path is best read from (as `ptas init` names them). */
export function envNameFor(keyPath: string): string {
  if (keyPath === 'credentials.clientSecret') return 'PTAS_CLIENT_SECRET';
  return `PTAS_${keyPath.replace(/\[(\d+)\]/g, '_$1').replace(/([a-z])([A-Z])/g, '$1_$2').replace(/\./g, '_').toUpperCase()}`;
}

/** Parses and validates the text as `ptas run -c` would; a problem is a 422 naming the line or the key path. */
export function parseProfileText(text: string): Profile {
  let parsed: unknown;
  try {
    parsed = parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    throw new ServeError('invalid-profile', `the profile is not valid JSON (comments and trailing commas are allowed): ${error.message}`, {
      line: error.line,
      column: error.column,
    });
  }
  try {
    validateProfile(parsed, SOURCE);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ServeError('invalid-profile', error.message, { keyPath: error.keyPath ?? '/', problems: error.message.split('\n') });
  }
  return parsed as Profile;
}

/** Refuses a secret written in the clear where a secret goes, naming the env: reference to write instead. */
function refuseLiteralSecrets(profile: Profile): void {
  const literal = stringPlaces(profile).filter((place) => place.secret && !place.value.startsWith('env:'));
  if (!literal.length) return;
  const { keyPath, pointer } = literal[0]!;
  const fix = `env:${envNameFor(keyPath)}`;
  const key = keyPath.split('.').at(-1)!.replace(/\[\d+\]$/, '');
  throw new ServeError(
    'literal-secret',
    `${keyPath} holds a secret in the clear, and the server stores no secret: write "${key}": "${fix}" and give ${envNameFor(keyPath)} with each run ("secrets": {"env": {…}}) or have the operator allow it from the server's environment (ptas serve --secret-env ${envNameFor(keyPath)})` +
      (keyPath === 'credentials.clientSecret' ? ', or leave it out and give the secret with each run ("secrets": {"clientSecret": "…"}), kept in memory for that run only' : ''),
    { keyPath: pointer, fix, secrets: literal.map((place) => place.pointer) },
  );
}

/** An env: reference outside a secret's place: refused, without looking at the environment (so the answer says nothing of what it holds). */
function refuseEnvOutsideSecrets(profile: Profile): void {
  try {
    assertEnvReferencesAtSecrets(profile);
  } catch (error) {
    if (!(error instanceof EnvReferenceOutsideSecret)) throw error;
    throw new ServeError('env-reference-refused', error.message, { keyPath: error.keyPath });
  }
}

/** The base URL names where to connect, nothing else: no credentials (they would be stored and shown), no query or fragment (they would pick the path Check shows). */
function refuseBaseUrlExtras(profile: Profile): void {
  if (typeof profile.baseUrl !== 'string') return;
  let url: URL;
  try {
    url = new URL(profile.baseUrl);
  } catch {
    return; // validateProfile has said what is wrong with it
  }
  const refuse = (why: string) => new ServeError('invalid-profile', `baseUrl: ${why}`, { keyPath: '/baseUrl' });
  if (url.username || url.password) throw refuse('holds credentials (user:password@): the server stores no secret, and the API authenticates with credentials.clientId and clientSecret; write the URL without them');
  if (url.search || profile.baseUrl.includes('?')) throw refuse('has a query (?…): a base URL is where the paths of the spec start; write it without one (a key in a query is a secret in the clear)');
  if (url.hash || profile.baseUrl.includes('#')) throw refuse('has a fragment (#…): write the base URL without one');
}

/** The URLs a run would call must name their host outright: checked when stored, their addresses when a run or Check starts. */
function refuseUncheckableUrls(profile: Profile): void {
  for (const { keyPath, pointer, url } of profileUrls(profile)) {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*[{}]/i.test(url)) {
      throw new ServeError('target-refused', `${keyPath}: write the host of ${JSON.stringify(url)} out: a {placeholder} there would let a value the run learns choose the host`, { keyPath: pointer });
    }
  }
}

/**
 * A profile the store may keep: it parses, validates, holds no secret in the
 * clear (at a secret's place, in a URL's query or in a comment), reads the
 * environment only where a secret goes, and names no file or host the
 * operator's policy refuses.
 */
export function checkStorableProfile(text: string, policy: Pick<ProfilePolicy, 'files'>): Profile {
  const profile = parseProfileText(text);
  refuseLiteralSecrets(profile);
  refuseEnvOutsideSecrets(profile);
  refuseBaseUrlExtras(profile);
  refuseSecretsInQueries(profile);
  refuseSecretsInComments(text);
  refuseUncheckableUrls(profile);
  policy.files.checkStorable(profile);
  return profile;
}

export interface RunProfile {
  /** Resolved: env: references replaced by the run's secrets or the allowed part of the server's environment, file keys by their paths. In memory only. */
  profile: Profile;
  /** Every secret value in it, for the run's Redactor. */
  secrets: string[];
}

/**
 * The profile a run or a Check uses: the stored text held to the policy, its
 * secrets from the run (first) or the environment names the operator allows.
 * A reference without such a value is refused with the same words whether
 * the variable is unset or not allowed, so no answer tells what the server's
 * environment holds.
 */
export function runProfile(text: string, policy: ProfilePolicy, secrets: RunSecrets = {}): RunProfile {
  const stored = checkStorableProfile(text, policy);
  if (secrets.clientSecret !== undefined) stored.credentials = { ...stored.credentials, clientSecret: secrets.clientSecret };
  let resolved: Profile;
  let fromEnvironment: string[];
  try {
    ({ profile: resolved, values: fromEnvironment } = resolveEnvAtSecrets(stored, (name) => policy.secretEnv.valueOf(name, policy.env, secrets.env)));
  } catch (error) {
    if (!(error instanceof EnvReferenceWithoutValue)) throw error;
    const { name } = error.reference;
    const hint = error.keyPath === '/credentials/clientSecret' ? ', or its client secret ("secrets": {"clientSecret": "…"})' : '';
    throw new ServeError(
      'missing-secret',
      `${error.message}: give it with the run ("secrets": {"env": {"${name}": "…"}}${hint}), or have the operator start ptas serve with --secret-env ${name} and ${name} set in its environment`,
      { keyPath: error.keyPath, name },
    );
  }
  resolved = policy.files.resolve(resolved);
  const atSecrets = stringPlaces(resolved).filter((place) => place.secret).map((place) => place.value);
  const given = [secrets.clientSecret, ...Object.values(secrets.env ?? {})];
  return { profile: resolved, secrets: [...new Set([...atSecrets, ...fromEnvironment, ...given].filter((v): v is string => typeof v === 'string' && v.length > 0))] };
}

/** runProfile, and then the hosts its run would call held to the policy (resolving their names: the one part that needs the network). */
export async function runProfileWithinPolicy(text: string, policy: ProfilePolicy, secrets: RunSecrets = {}): Promise<RunProfile> {
  const run = runProfile(text, policy, secrets);
  await policy.targets.check(run.profile);
  return run;
}

/** A text that parses and names no base URL (one that does not parse is refused for that, not for this). */
export function namesNoBaseUrl(text: string): boolean {
  try {
    const parsed = parseJsonc(text) as Profile | null;
    return typeof parsed?.baseUrl !== 'string';
  } catch {
    return false;
  }
}

/** The base URL the text names, if it parses (for summaries; an unparsable text has none). */
export function baseUrlOf(text: string): string | undefined {
  try {
    const parsed = parseJsonc(text) as Profile | null;
    return typeof parsed?.baseUrl === 'string' ? parsed.baseUrl : undefined;
  } catch {
    return undefined;
  }
}
