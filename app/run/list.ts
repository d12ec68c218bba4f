// Lists every check with its requirement ids and severity without running
// any: Playwright's --list over the suites, plus the cross-cutting checks the
// reporter adds and the load probes.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fromRoot } from '../../src/paths.ts';
import { META_ANNOTATION, type CheckMeta } from '../../src/check/model.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TARGETS_FILE_ENV, writeTargetsFile } from './targets.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';

interface JsonSuite {
  specs?: Array<{ tests?: Array<{ annotations?: Array<{ type: string; description?: string }> }> }>;
  suites?: JsonSuite[];
}

function collect(suite: JsonSuite, into: CheckMeta[]): void {
  for (const spec of suite.specs ?? []) {
    const annotation = spec.tests?.[0]?.annotations?.find((a) => a.type === META_ANNOTATION);
    if (annotation?.description) into.push(JSON.parse(annotation.description) as CheckMeta);
  }
  for (const child of suite.suites ?? []) collect(child, into);
}

export function listConformanceChecks(): CheckMeta[] {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-list-'));
  const targetsFile = path.join(scratch, 'targets.json');
  writeTargetsFile(targetsFile, [{ name: 'list', profile: { baseUrl: 'http://127.0.0.1:9', credentials: { clientId: 'x', clientSecret: 'x' } } }]);
  const result = spawnSync(process.execPath, [cli, 'test', '--config', fromRoot('playwright.config.ts'), '--list', '--reporter=json'], {
    cwd: fromRoot(),
    env: { ...process.env, [TARGETS_FILE_ENV]: targetsFile, FORCE_COLOR: '0' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(scratch, { recursive: true, force: true });
  let report: { suites?: JsonSuite[]; errors?: Array<{ message?: string }> };
  try {
    report = JSON.parse(result.stdout) as typeof report;
  } catch {
    throw new Error(`could not list the checks: ${result.stderr || result.stdout}`.trim());
  }
  if (report.errors?.length) throw new Error(`could not list the checks: ${report.errors.map((e) => e.message).join('; ')}`);
  const checks: CheckMeta[] = [];
  for (const suite of report.suites ?? []) collect(suite, checks);
  return checks;
}

/** Every check ptas has: the conformance suites, the cross-cutting checks over their exchanges, and the load probes. */
export function listAllChecks(): CheckMeta[] {
  return [...listConformanceChecks(), ...CROSSCUT_CHECKS, ...LOAD_CHECKS].sort((a, b) => a.id.localeCompare(b.id));
}
