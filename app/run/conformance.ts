// The conformance stage: the checks run by Playwright (runner/), then the
// cross-cutting checks of each target folded in over the exchanges all of
// them recorded (src/crosscut/).
import { scopeOfProfile, withCrossCuttingResults } from '../../src/crosscut/index.ts';
import { ignoreEvents, logText } from '../../src/run-events/events.ts';
import { checkTags, testTitle } from '../../runner/define.ts';
import { progressLine } from '../../runner/progress.ts';
import { runChecks, type CheckRunOutput, type CheckRunProcess } from '../../runner/run-checks.ts';
import { targetSelects } from '../../runner/run-targets.ts';
import { resolveRunSettings, type RunSettingsInput } from '../../runner/settings.ts';
import { listConformanceChecks } from './list.ts';

export type { CheckRunOutput } from '../../runner/run-checks.ts';

/** The run's settings as the caller chooses them (the rest default: runner/settings.ts), and how its process runs. */
export type ConformanceOptions = RunSettingsInput & CheckRunProcess;

/**
 * How many tests Playwright will run: each check against each target that
 * selects it, narrowed by the run's grep as Playwright matches it (the test's
 * title and tags; not its file's name) and shared out by its shard.
 */
export async function plannedTests({ targets, grep, shard }: ConformanceOptions): Promise<number> {
  const checks = await listConformanceChecks();
  let count = 0;
  for (const target of targets) {
    for (const meta of checks) {
      const tags = checkTags(meta);
      if (targetSelects(target, meta.title, tags) && targetSelects({ grep }, testTitle(meta, target), tags)) count++;
    }
  }
  return shard ? Math.ceil(count / shard.total) : count;
}

export async function runConformance(options: ConformanceOptions): Promise<CheckRunOutput> {
  // Without a chosen number of workers, the default depends on how many tests the run has (runner/settings.ts).
  const tests = options.workers === undefined ? await plannedTests(options) : undefined;
  const events = options.events ?? ignoreEvents;
  const settings = resolveRunSettings({ ...options, tests });
  const ran = await runChecks(settings, { ...options, events });
  const scopes = new Map(settings.targets.map((t) => [t.name, scopeOfProfile(t.profile)]));
  try {
    const checks = withCrossCuttingResults(ran.checks, (target) => scopes.get(target) ?? {});
    for (const check of checks.slice(ran.checks.length)) {
      if (settings.progress) logText(events, progressLine(check, '[over all]'));
      events({ kind: 'check', check });
    }
    return { ...ran, checks };
  } catch (error) {
    // A bug in a cross-cutting check must not lose the results of every other check.
    const problem = `the cross-cutting checks could not run: ${error instanceof Error ? error.message : String(error)}`;
    events({ kind: 'problem', message: problem });
    return { ...ran, errors: [...ran.errors, problem] };
  }
}
