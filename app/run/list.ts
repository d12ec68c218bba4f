// Lists every check with its requirement ids and severity without running
// any, from the check registry (src/check/registry.ts): importing the check
// files registers the conformance checks (with no Playwright test declared);
// importing the cross-cutting checks and the load probes registers theirs.
import { pathToFileURL } from 'node:url';
import { registeringOnly } from '../../runner/define.ts';
import type { CheckMeta } from '../../src/check/model.ts';
import { registeredChecks } from '../../src/check/registry.ts';
import '../../src/crosscut/index.ts';
import '../../load/checks.ts';
import '../../explore/areas/index.ts';
import { checkFiles } from '../../runner/check-files.ts';

async function registerConformanceChecks(): Promise<void> {
  await registeringOnly(async () => {
    for (const file of checkFiles()) await import(pathToFileURL(file).href);
  });
}

/** The checks the conformance stage runs as Playwright tests. */
export async function listConformanceChecks(): Promise<CheckMeta[]> {
  await registerConformanceChecks();
  return registeredChecks('conformance');
}

/** Every check ptas has: the conformance suites, the cross-cutting checks over their exchanges, the load probes and the explored rules. */
export async function listAllChecks(): Promise<CheckMeta[]> {
  await registerConformanceChecks();
  return registeredChecks().sort((a, b) => a.id.localeCompare(b.id));
}
