// The reference configured the way real deployments are: `ptas reference`
// flags that are sugar for legitimate variants (reference/variants/), one
// flag per question a deployment answers differently, and --deployed-api,
// the publicly deployed API's answers to all of them at once
// (REAL-API-NOTES). Pure, so the flag parsing is tested without a process.
import { SPEC_USER_ID_HEADER, type ReferenceOptions } from './options.ts';
import { ConfigError } from '../src/config/errors.ts';

/** One question, its flag, and the variants each answer switches on (the first answer is the reference's default). */
interface ModeQuestion {
  flag: string;
  answers: Record<string, string[]>;
}

export const MODE_QUESTIONS = {
  signature: { flag: '--signature', answers: { ed25519: [], 'ecdsa-p256': ['webhook-signature-ecdsa-p256'], hmac: ['webhook-signature-hmac'] } },
  signatureComponents: { flag: '--signature-components', answers: { default: [], deployed: ['webhook-signature-more-components'] } },
  jwksAuth: { flag: '--jwks-auth', answers: { none: [], bearer: ['jwks-requires-bearer'] } },
  slowOffers: { flag: '--slow-offers', answers: { 'processing-ms': [], 'body-value': ['offer-slow-by-body-value'] } },
} as const satisfies Record<string, ModeQuestion>;

export type ModeName = keyof typeof MODE_QUESTIONS;

/** --deployed-api: what the deployed API's documentation answers (REAL-API-NOTES); explicit flags still win. */
export const DEPLOYED_API_PRESET: Record<ModeName, string> = { signature: 'ecdsa-p256', signatureComponents: 'deployed', jwksAuth: 'bearer', slowOffers: 'body-value' };

export interface ReferenceModeArgs {
  signature?: string;
  signatureComponents?: string;
  jwksAuth?: string;
  slowOffers?: string;
  userIdHeader?: string;
  deployedApi?: boolean;
  /** --variant, already split at commas. */
  variant?: string[];
}

export interface ReferenceModes {
  variants: string[];
  options: Partial<Pick<ReferenceOptions, 'userIdHeader'>>;
}

/** A flag value the reference cannot take: the message names the flag, the value and the choices (a configuration error, exit 2). */
export class ModeError extends ConfigError {
  override name = 'ModeError';
}

/** RFC 9110 5.1: a field name is a token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function variantsFor(mode: ModeName, value: string, explicit: readonly string[]): string[] {
  const question: ModeQuestion = MODE_QUESTIONS[mode];
  const chosen = question.answers[value];
  if (!chosen) throw new ModeError(`${question.flag} must be one of ${Object.keys(question.answers).join(', ')} (got "${value}")`);
  // --variant naming another answer to the same question contradicts the flag.
  const contradicting = Object.values(question.answers).flat().filter((name) => !chosen.includes(name) && explicit.includes(name));
  if (contradicting.length) throw new ModeError(`${question.flag} ${value} contradicts --variant ${contradicting.join(', ')}: give one of them`);
  return chosen;
}

function userIdHeaderMode(name: string | undefined): ReferenceModes {
  if (name === undefined || name.toLowerCase() === SPEC_USER_ID_HEADER) return { variants: [], options: {} };
  if (!FIELD_NAME.test(name)) throw new ModeError(`--user-id-header must be an HTTP header name (letters, digits, - and the like; got "${name}")`);
  return { variants: ['user-id-header-renamed'], options: { userIdHeader: name.toLowerCase() } };
}

/** The variants and options the mode flags ask for, with the --variant list; throws ModeError for a value no answer has. */
export function referenceModes(args: ReferenceModeArgs): ReferenceModes {
  const explicit = args.variant ?? [];
  const variants = [...explicit];
  for (const mode of Object.keys(MODE_QUESTIONS) as ModeName[]) {
    const value = args[mode] ?? (args.deployedApi ? DEPLOYED_API_PRESET[mode] : undefined);
    if (value !== undefined) variants.push(...variantsFor(mode, value, explicit));
  }
  const header = userIdHeaderMode(args.userIdHeader);
  variants.push(...header.variants);
  return { variants: [...new Set(variants)], options: header.options };
}
