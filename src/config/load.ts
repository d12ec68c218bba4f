// Builds the implementation profile from its three sources, in rising
// precedence: the JSON file (comments and trailing commas allowed), PTAS_*
// environment variables, command-line flags.
// "env:NAME" strings are then replaced from the environment, so committed
// profiles carry references instead of secrets.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './errors.ts';
import { JsoncSyntaxError, parseJsonc } from './jsonc.ts';
import type { Profile } from './profile.ts';
import { validateProfile } from './validate.ts';

/** Overrides given as flags or environment variables. */
export interface ProfileOverrides {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  timeoutMs?: number;
  ca?: string;
  cert?: string;
  key?: string;
  insecure?: boolean;
  jwksUrl?: string;
}

/** The environment variables ptas reads, with the profile key each sets. */
export const ENVIRONMENT_VARIABLES: ReadonlyArray<{ name: string; key: keyof ProfileOverrides; what: string }> = [
  { name: 'PTAS_BASE_URL', key: 'baseUrl', what: 'base URL of the implementation under test' },
  { name: 'PTAS_CLIENT_ID', key: 'clientId', what: 'client_id for the token endpoint' },
  { name: 'PTAS_CLIENT_SECRET', key: 'clientSecret', what: 'client_secret for the token endpoint' },
  { name: 'PTAS_TIMEOUT_MS', key: 'timeoutMs', what: 'per-request time limit in milliseconds' },
  { name: 'PTAS_CA', key: 'ca', what: 'PEM CA bundle for https targets' },
  { name: 'PTAS_CERT', key: 'cert', what: 'PEM client certificate (mTLS)' },
  { name: 'PTAS_KEY', key: 'key', what: 'PEM client key (mTLS)' },
  { name: 'PTAS_INSECURE', key: 'insecure', what: 'set to 1 to skip TLS verification' },
  { name: 'PTAS_JWKS_URL', key: 'jwksUrl', what: 'JWK Set that verifies issued tokens' },
];

export function readProfileFile(file: string): Profile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseJsonc(text);
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    throw new ConfigError(`config file ${file} is not valid JSON (comments and trailing commas are allowed): ${error.message}`);
  }
  validateProfile(parsed, `config file ${file}`);
  const profile = parsed as Profile;
  // Paths inside a profile are relative to the profile file, not to the cwd.
  const base = path.dirname(path.resolve(file));
  for (const key of ['ca', 'cert', 'key'] as const) {
    const value = profile.http?.[key];
    if (value && !value.startsWith('env:')) profile.http![key] = path.resolve(base, value);
  }
  if (profile.auth?.jwksFile && !profile.auth.jwksFile.startsWith('env:')) {
    profile.auth.jwksFile = path.resolve(base, profile.auth.jwksFile);
  }
  const signature = profile.webhooks?.signature;
  if (signature && 'jwksFile' in signature && typeof signature.jwksFile === 'string' && !signature.jwksFile.startsWith('env:')) {
    signature.jwksFile = path.resolve(base, signature.jwksFile);
  }
  return profile;
}

export function overridesFromEnv(env: NodeJS.ProcessEnv): ProfileOverrides {
  const overrides: ProfileOverrides = {};
  for (const { name, key } of ENVIRONMENT_VARIABLES) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    if (key === 'timeoutMs') {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < 100) {
        throw new ConfigError(`${name}=${raw}: expected an integer number of milliseconds >= 100 (example: ${name}=10000)`);
      }
      overrides.timeoutMs = value;
    } else if (key === 'insecure') {
      // A switch that turns certificate verification off must not be read as "off" from a typo ("yes", "on").
      const text = raw.toLowerCase();
      if (!['1', 'true', '0', 'false'].includes(text)) throw new ConfigError(`${name}=${raw}: expected 1 or true, 0 or false`);
      overrides.insecure = text === '1' || text === 'true';
    } else {
      overrides[key] = raw;
    }
  }
  return overrides;
}

/** Applies overrides on a copy of the profile and validates the result. */
export function applyOverrides(profile: Profile, overrides: ProfileOverrides, source: string): Profile {
  const merged: Profile = structuredClone(profile);
  if (overrides.baseUrl !== undefined) merged.baseUrl = overrides.baseUrl;
  if (overrides.clientId !== undefined || overrides.clientSecret !== undefined) {
    // Either half may come from a different source; completeness is checked once everything is merged.
    merged.credentials = {
      ...merged.credentials,
      ...(overrides.clientId !== undefined ? { clientId: overrides.clientId } : {}),
      ...(overrides.clientSecret !== undefined ? { clientSecret: overrides.clientSecret } : {}),
    } as Profile['credentials'];
  }
  const http = { ...merged.http };
  if (overrides.timeoutMs !== undefined) http.timeoutMs = overrides.timeoutMs;
  if (overrides.ca !== undefined) http.ca = overrides.ca;
  if (overrides.cert !== undefined) http.cert = overrides.cert;
  if (overrides.key !== undefined) http.key = overrides.key;
  if (overrides.insecure !== undefined) http.insecure = overrides.insecure;
  if (Object.keys(http).length) merged.http = http;
  if (overrides.jwksUrl !== undefined) merged.auth = { ...merged.auth, jwksUrl: overrides.jwksUrl };
  validateProfile(merged, source);
  return merged;
}

/** Replaces every "env:NAME" string in the profile by the variable's value. */
export function resolveEnvReferences<T>(value: T, env: NodeJS.ProcessEnv, keyPath = ''): T {
  if (typeof value === 'string' && value.startsWith('env:')) {
    const name = value.slice(4);
    const resolved = env[name];
    if (resolved === undefined) {
      throw new ConfigError(`${keyPath || '(root)'}: refers to environment variable ${name}, which is not set (example: export ${name}=…)`, keyPath);
    }
    return resolved as T;
  }
  if (Array.isArray(value)) return value.map((v, i) => resolveEnvReferences(v, env, `${keyPath}/${i}`)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, resolveEnvReferences(v, env, `${keyPath}/${k}`)]),
    ) as T;
  }
  return value;
}
