// The conformance stage: the checks run by Playwright (runner/), then the
// cross-cutting checks of each target folded in over the exchanges all of
// them recorded (src/crosscut/).
import { scopeOfProfile, withCrossCuttingResults } from '../../src/crosscut/index.ts';
import { finishedCheck } from '../../runner/check-events.ts';
import { progressLine } from '../../runner/progress.ts';
import { runChecks, type CheckRunOutput, type CheckRunProcess } from '../../runner/run-checks.ts';
import { resolveRunSettings, type RunSettingsInput } from '../../runner/settings.ts';

export type { CheckRunOutput } from '../../runner/run-checks.ts';

/** The run's settings as the caller chooses them (the rest default: runner/settings.ts), and how its process runs. */
export type ConformanceOptions = RunSettingsInput & CheckRunProcess;

export async function runConformance(options: ConformanceOptions): Promise<CheckRunOutput> {
  // A caller that follows the checks as they finish gets the runner's event channel (runner/check-events.ts).
  const settings = resolveRunSettings({ ...options, events: options.events ?? Boolean(options.onCheck) });
  const ran = await runChecks(settings, options);
  const scopes = new Map(settings.targets.map((t) => [t.name, scopeOfProfile(t.profile)]));
  try {
    const checks = withCrossCuttingResults(ran.checks, (target) => scopes.get(target) ?? {});
    for (const check of checks.slice(ran.checks.length)) {
      if (settings.progress) (options.output ?? process.stdout).write(progressLine(check, '[over all]'));
      options.onCheck?.(finishedCheck(check));
    }
    return { ...ran, checks };
  } catch (error) {
    // A bug in a cross-cutting check must not lose the results of every other check.
    return { ...ran, errors: [...ran.errors, `the cross-cutting checks could not run: ${error instanceof Error ? error.message : String(error)}`] };
  }
}
