// The targets of one check run: every check is declared once per target that
// selects it (runner/define.ts), in one Playwright project, so a worker
// serves every target: one project per target would start a worker per
// target, about a second each. They travel to the Playwright process inside
// the run's settings (runner/settings.ts).
import type { ResolvedProfile } from '../src/config/profile.ts';

export interface RunTarget {
  /** Results are grouped by it. */
  name: string;
  profile: ResolvedProfile;
  /** Only checks whose title or tags match this regular expression run. */
  grep?: string;
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
