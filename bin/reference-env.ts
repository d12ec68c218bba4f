// `ptas reference` takes every option from PTAS_REF_<OPTION> too (a flag
// given on the command line wins), and its two secrets from the environment
// only: a secret on the command line would show in ps.
// Explicit rather than yargs' .env('PTAS_REF'): that mapped every variable
// starting with PTAS_REF — PTAS_REFERENCE_CLIENT_SECRET too — to an argument
// the strict parser refused as "Unknown argument: erenceClientSecret", read
// PTAS_REF_DEPLOYED_API=1 as false, and let PTAS_REF_TOKEN_RATE=abc through
// as NaN. Here a wrong variable is a configuration error that names it.
import type { Options } from 'yargs';

export const REFERENCE_ENV_PREFIX = 'PTAS_REF_';

/** The secrets, read from these variables and nowhere else. */
export const REFERENCE_SECRET_VARIABLES = {
  clientSecret: 'PTAS_REF_CLIENT_SECRET',
  webhookSharedSecret: 'PTAS_REF_WEBHOOK_SHARED_SECRET',
} as const;

/** `token-rate` → `PTAS_REF_TOKEN_RATE`. */
export function referenceEnvVariable(option: string): string {
  return REFERENCE_ENV_PREFIX + option.replace(/-/g, '_').toUpperCase();
}

type Converted = { value: unknown } | { problem: string };

/** One variable's text as the option's type, or the sentence that says what it should be. */
function convert(name: string, raw: string, option: Options): Converted {
  if (option.array) return { value: raw.split(',').map((v) => v.trim()).filter(Boolean) };
  if (option.type === 'number') {
    const value = Number(raw);
    return Number.isFinite(value) ? { value } : { problem: `${name}=${raw}: expected a number (example: ${name}=${String(option.default ?? 1)})` };
  }
  if (option.type === 'boolean') {
    const text = raw.toLowerCase();
    if (text === '1' || text === 'true') return { value: true };
    if (text === '0' || text === 'false') return { value: false };
    return { problem: `${name}=${raw}: expected 1 or true, 0 or false` };
  }
  return { value: raw };
}

export interface EnvironmentDefaults<T> {
  /** The options, each defaulting to its PTAS_REF_<OPTION> value where that is set. */
  options: T;
  /** One sentence per variable that is unknown or not of its option's type. */
  problems: string[];
}

/**
 * The options with the environment as their defaults: a flag on the command
 * line still wins, the environment beats the built-in default. Hidden options
 * take nothing from the environment (they are the secrets' refused flags).
 */
export function withEnvironmentDefaults<T extends Record<string, Options>>(options: T, env: NodeJS.ProcessEnv): EnvironmentDefaults<T> {
  const problems: string[] = [];
  const known = new Set<string>(Object.values(REFERENCE_SECRET_VARIABLES));
  const result: Record<string, Options> = {};
  for (const [option, declared] of Object.entries(options)) {
    result[option] = declared;
    if (declared.hidden) continue;
    const name = referenceEnvVariable(option);
    known.add(name);
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const converted = convert(name, raw, declared);
    if ('problem' in converted) problems.push(converted.problem);
    else result[option] = { ...declared, default: converted.value };
  }
  for (const name of Object.keys(env).filter((n) => n.startsWith(REFERENCE_ENV_PREFIX) && !known.has(n)).sort()) {
    problems.push(`${name} is not a ptas reference setting: each option --NAME is read from PTAS_REF_NAME (see ptas reference --help)`);
  }
  return { options: result as T, problems };
}
