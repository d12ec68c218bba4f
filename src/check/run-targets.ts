// The targets of one Playwright run travel from `ptas run` (or the self-test)
// to the workers as JSON in a file named by PTAS_TARGETS_FILE. Every check is
// declared once per target that selects it (src/check/define.ts), in one
// Playwright project, so a worker serves every target: one project per target
// would start a worker per target, about a second each. Not in the environment itself: a
// self-test's hundred profiles exceed the kernel's 128 KiB limit on one
// environment string. The file holds credentials, so it is created 0600 in a
// 0700 scratch directory and removed when the run ends.
import { readFileSync, writeFileSync } from 'node:fs';
import type { ResolvedProfile } from '../config/profile.ts';

export interface RunTarget {
  /** Results are grouped by it. */
  name: string;
  profile: ResolvedProfile;
  /** Only checks whose title or tags match this regular expression run. */
  grep?: string;
}

export const TARGETS_FILE_ENV = 'PTAS_TARGETS_FILE';

export function writeTargetsFile(file: string, targets: RunTarget[]): void {
  writeFileSync(file, JSON.stringify(targets), { mode: 0o600 });
}

export function targetsFromEnv(env: NodeJS.ProcessEnv = process.env): RunTarget[] {
  const file = env[TARGETS_FILE_ENV];
  if (!file) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as RunTarget[];
}

const compiledGreps = new Map<string, RegExp>();

/** Whether a target's grep selects a check, matched as Playwright matches --grep: against the title and the tags. */
export function targetSelects(target: Pick<RunTarget, 'grep'>, title: string, tags: readonly string[]): boolean {
  if (!target.grep) return true;
  // Compiled once per grep: a self-test asks for every check against each of its hundreds of targets, in every worker.
  let grep = compiledGreps.get(target.grep);
  if (!grep) compiledGreps.set(target.grep, (grep = new RegExp(target.grep)));
  return grep.test(`${title} ${tags.join(' ')}`);
}

/** The annotation naming the target a test runs against (the reporter groups results by it). */
export const TARGET_ANNOTATION = 'ptas.target';
