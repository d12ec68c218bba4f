// The few questions `ptas init` asks at a terminal, each with a default that
// Enter accepts (the flag's value when one was given). Without a terminal, or
// with --yes, nothing is asked: CI gets the same file from flags alone.
import { createInterface } from 'node:readline/promises';
import type { StarterAnswers } from './starter-profile.ts';
import { PtasError } from '../../src/errors.ts';

/** An http(s) URL, or the reason it is not one. */
export function baseUrlProblem(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return 'expected an http:// or https:// URL, e.g. https://sandbox.example.com';
  try {
    new URL(value);
    return undefined;
  } catch {
    return 'not a valid URL, e.g. https://sandbox.example.com';
  }
}

/** The questions ended before their answers (Ctrl-C, end of input). */
export class QuestionsCancelled extends PtasError {
  readonly code = 'cancelled';
  constructor() {
    super('cancelled before every question was answered; nothing was written');
    this.name = 'QuestionsCancelled';
  }
}

/** The name a profile gets when none is given: the target's host. */
export function defaultName(baseUrl: string): string {
  return new URL(baseUrl).host;
}

type Ask = (question: string) => Promise<string>;

async function askText(
  ask: Ask,
  question: string,
  fallback: string | undefined,
  options: { check?: (value: string) => string | undefined; whenNone?: string } = {},
): Promise<string | undefined> {
  const { check, whenNone = 'none' } = options;
  const hint = fallback ? ` [${fallback}]` : ` (Enter: ${whenNone})`;
  let problem: string | undefined;
  for (;;) {
    const value = (await ask(`${problem ? `  ${problem}\n` : ''}${question}${hint}: `)).trim() || fallback;
    problem = value ? check?.(value) : undefined;
    if (!problem) return value || undefined;
  }
}

async function askYesNo(ask: Ask, question: string, fallback: boolean): Promise<boolean> {
  for (;;) {
    const value = (await ask(`${question} [${fallback ? 'Y/n' : 'y/N'}]: `)).trim().toLowerCase();
    if (!value) return fallback;
    if (['y', 'yes'].includes(value)) return true;
    if (['n', 'no'].includes(value)) return false;
  }
}

/** Asks on `input`/`output`; every answer defaults to what `defaults` holds. */
export async function askStarterAnswers(defaults: StarterAnswers, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<StarterAnswers> {
  const rl = createInterface({ input, output });
  // Ctrl-C at the prompt, or the input ending (Ctrl-D), cancels: a pending question would otherwise never settle.
  const closed = new Promise<never>((_resolve, reject) => rl.once('close', () => reject(new QuestionsCancelled())));
  closed.catch(() => undefined);
  rl.once('SIGINT', () => rl.close());
  const ask: Ask = (question) => Promise.race([rl.question(question), closed]);
  try {
    output.write('Describe the implementation in a few answers (Enter keeps the value in brackets); the file explains every other key.\n');
    const baseUrl = (await askText(ask, 'Base URL (the spec\'s {base_url})', defaults.baseUrl, { check: baseUrlProblem })) ?? defaults.baseUrl;
    const nameDefault = defaults.name || defaultName(baseUrl);
    const name = (await askText(ask, 'Name of the implementation (shown in the report)', nameDefault)) ?? nameDefault;
    const clientId = await askText(ask, 'client_id of your test client', defaults.clientId, { whenNone: 'read PTAS_CLIENT_ID at run time' });
    const jwksUrl = await askText(ask, 'URL or path of the JSON Web Key Set that verifies access tokens', defaults.jwksUrl);
    const webhookJwksUrl = await askText(ask, 'Webhooks signed with RFC 9421: URL or path of the signing JSON Web Key Set', defaults.webhookJwksUrl);
    const jwksNeedsBearer =
      jwksUrl || webhookJwksUrl ? await askYesNo(ask, 'Does fetching a JSON Web Key Set need the partner\'s bearer token?', defaults.jwksNeedsBearer ?? false) : defaults.jwksNeedsBearer;
    return { name, baseUrl, clientId, jwksUrl, webhookJwksUrl, jwksNeedsBearer };
  } finally {
    rl.close();
  }
}
