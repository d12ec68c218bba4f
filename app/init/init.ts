// `ptas init`: writes a commented starter profile. It refuses to replace a
// file without --force, asks its few questions only at a terminal, and
// validates the file with the same loader `ptas run` uses before it takes the
// place of the target, so what it writes is always accepted as written.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../../src/config/errors.ts';
import { readProfileFile } from '../../src/config/load.ts';
import { PtasError } from '../../src/errors.ts';
import { askStarterAnswers, baseUrlProblem, defaultName } from './questions.ts';
import type { Preset } from './preset-names.ts';
import { PROFILE_SCHEMA_BUNDLE } from './schema-bundle.ts';
import { renderStarterProfile, type StarterAnswers } from './starter-profile.ts';

/** The target exists and --force was not given. */
export class InitRefused extends PtasError {
  readonly code = 'init-refused';
  override name = 'InitRefused';
}

export interface InitOptions {
  out: string;
  force: boolean;
  /** Ask at the terminal (stdin and stdout are TTYs and --yes was not given). */
  interactive: boolean;
  /** From the flags; the defaults of the questions (an empty name: the base URL's host). */
  answers: StarterAnswers;
  /** A complete profile for a target the product knows (presets.ts) instead of the starter: no question is asked. */
  preset?: Preset;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

export interface InitResult {
  file: string;
  answers: StarterAnswers;
  /** The "$schema" written: the bundle, relative to the file. */
  schemaRef: string;
  preset?: Preset;
}

/** The bundle as seen from the profile's directory ("./node_modules/ptas-conformance/schemas/…"). */
export function schemaRefFor(file: string): string {
  const relative = path.relative(path.dirname(file), PROFILE_SCHEMA_BUNDLE);
  // Another drive (Windows): no relative path exists.
  if (path.isAbsolute(relative)) return pathToFileURL(PROFILE_SCHEMA_BUNDLE).href;
  const posix = relative.split(path.sep).join('/');
  return posix.startsWith('.') ? posix : `./${posix}`;
}

/** Validates `text` as `file` would be read by `ptas run`, then puts it in place. */
function writeValidated(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const scratch = `${file}.${process.pid}.tmp`;
  writeFileSync(scratch, text);
  try {
    readProfileFile(scratch);
  } catch (error) {
    rmSync(scratch, { force: true });
    if (error instanceof ConfigError) throw new ConfigError(error.message.replaceAll(scratch, file), error.keyPath);
    throw error;
  }
  renameSync(scratch, file);
}

export async function runInit(options: InitOptions): Promise<InitResult> {
  const file = path.resolve(options.out);
  // Before any question: nobody should answer them to then be refused.
  if (existsSync(file) && !options.force) throw new InitRefused(`${options.out} already exists; pass --force to overwrite it, or --out to write another file`);
  const urlProblem = baseUrlProblem(options.answers.baseUrl);
  if (urlProblem) throw new ConfigError(`--base-url ${options.answers.baseUrl}: ${urlProblem}`, '/baseUrl');
  if (options.preset) {
    const schemaRef = schemaRefFor(file);
    const answers = { ...options.answers, name: options.answers.name || defaultName(options.answers.baseUrl) };
    const given = options.answers.name || undefined;
    // Loaded only here: a preset is the reference's own profile, and the reference's modules are many.
    const { renderPresetProfile } = await import('./presets.ts');
    writeValidated(file, renderPresetProfile(options.preset, { baseUrl: answers.baseUrl, name: given, clientId: answers.clientId, schemaRef }));
    return { file, answers, schemaRef, preset: options.preset };
  }
  const answers = options.interactive
    ? await askStarterAnswers(options.answers, options.input ?? process.stdin, options.output ?? process.stdout)
    : { ...options.answers, name: options.answers.name || defaultName(options.answers.baseUrl) };
  const schemaRef = schemaRefFor(file);
  writeValidated(file, renderStarterProfile(answers, { schemaRef }));
  return { file, answers, schemaRef };
}

/** What to do after `ptas init`, with the file's name as the user wrote it. */
export function nextSteps(result: InitResult, shownName: string): string {
  const quoted = /^[\w./@:-]+$/.test(shownName) ? shownName : JSON.stringify(shownName);
  if (result.preset) {
    return [
      `ptas: wrote ${shownName}: the ${result.preset} preset for ${result.answers.baseUrl}, complete (it validates against the profile schema)`,
      '',
      'Next:',
      '  1. export PTAS_CLIENT_SECRET=…   the secret the reference was started with (PTAS_REF_CLIENT_SECRET)',
      `  2. ptas doctor -c ${quoted}     every operation should answer OK, and certification need nothing more`,
      `  3. ptas run -c ${quoted}        the conformance run and its report`,
      '',
    ].join('\n');
  }
  const set = [
    result.answers.jwksUrl && 'auth.jwksUrl',
    result.answers.jwksNeedsBearer && 'auth.jwksAccess',
    result.answers.webhookJwksUrl && 'webhooks.signature',
  ].filter(Boolean);
  return [
    `ptas: wrote ${shownName} for ${result.answers.baseUrl} (it validates against the profile schema${set.length ? `; set: ${set.join(', ')}` : ''})`,
    '',
    'Next:',
    `  1. Edit ${quoted}: uncomment the keys your implementation needs; each names the checks it unlocks.`,
    '     Editors complete and check it through its "$schema".',
    `  2. export PTAS_CLIENT_SECRET=…${result.answers.clientId ? '' : '  PTAS_CLIENT_ID=…'}`,
    `  3. ptas doctor -c ${quoted}     try each configured operation once, and see what to fix`,
    `  4. ptas run -c ${quoted}        the conformance run and its report`,
    '',
  ].join('\n');
}
