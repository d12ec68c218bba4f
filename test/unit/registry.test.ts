// The check registry (src/check/registry.ts): area and severity come from the
// catalogue and nowhere else, ids are unique and area-prefixed, and what
// Playwright's runner declares is exactly what `ptas list` reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { listAllChecks } from '../../app/run/list.ts';
import { META_ANNOTATION } from '../../runner/annotations.ts';
import { checkTags } from '../../runner/define.ts';
import { handOffIn, resolveRunSettings, writeRunSettings } from '../../runner/settings.ts';
import { writeSpecFiles } from '../../runner/spec-files.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { RunTarget } from '../../runner/run-targets.ts';
import { plannedTests } from '../../app/run/conformance.ts';
import { AREAS, type CheckMeta } from '../../src/check/model.ts';
import { checkStage, deriveMeta, registerCheck, registeredChecks } from '../../src/check/registry.ts';
import { fromRoot } from '../../src/paths.ts';
import { catalogue, requirementById } from '../../src/requirements.ts';

const checks = await listAllChecks();
const loadIds = new Set(registeredChecks('load').map((c) => c.id));

test('every check registered: the conformance suites, the cross-cutting checks and the load probes', () => {
  assert.equal(registeredChecks().length, checks.length);
  for (const stage of ['conformance', 'crosscut', 'load', 'explore'] as const) assert.ok(registeredChecks(stage).length > 0, `no ${stage} check registered`);
});

test("a check's severity is its requirements' level, its area their area ('load' for a load probe)", () => {
  for (const check of checks) {
    for (const id of check.requirements) {
      const requirement = requirementById(id)!;
      assert.equal(check.severity, requirement.level, `${check.id}: severity vs ${id}`);
      assert.equal(check.area, loadIds.has(check.id) ? 'load' : requirement.area, `${check.id}: area vs ${id}`);
    }
  }
});

test('check ids are unique and prefixed with their area (an explored rule: explore.<area>.); every catalogue area is a known one', () => {
  const ids = checks.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const check of checks) {
    const prefix = checkStage(check.id) === 'explore' ? `explore.${check.area}.` : `${check.area}.`;
    assert.ok(check.id.startsWith(prefix), `${check.id} is not prefixed with ${prefix}`);
  }
  for (const r of catalogue().requirements) assert.ok((AREAS as readonly string[]).includes(r.area), `${r.id} area ${r.area}`);
});

test('a declaration the catalogue cannot derive from is refused', () => {
  const declare = (id: string, requirements: string[]) => () => deriveMeta({ id, title: 't', requirements }, 'conformance');
  assert.throws(declare('auth.mixed-levels', ['TOKEN-CC-ISSUES-PAIR', 'TOKEN-EXPIRES-IN']), /different levels/);
  assert.throws(declare('auth.mixed-areas', ['TOKEN-CC-ISSUES-PAIR', 'ERROR-BODIES-JSON']), /different areas/);
  assert.throws(declare('users.wrong-prefix', ['TOKEN-CC-ISSUES-PAIR']), /prefixed with its area: "auth\."/);
  assert.throws(declare('auth.unknown', ['NO-SUCH-REQUIREMENT']), /unknown requirement/);
  assert.throws(declare('auth.none', []), /names no requirement/);
  assert.deepEqual(deriveMeta({ id: 'load.x', title: 't', requirements: ['TOKEN-RATE-LIMIT-429'] }, 'load'), {
    id: 'load.x',
    title: 't',
    area: 'load',
    requirements: ['TOKEN-RATE-LIMIT-429'],
    severity: 'MUST',
  });
});

test('a second check with a registered id is refused', () => {
  const [first] = checks;
  assert.throws(() => registerCheck({ id: first!.id, title: 'again', requirements: first!.requirements }, 'conformance'), /two checks have the id/);
});

interface ListedSuite {
  specs?: Array<{ title: string; tags?: string[]; tests?: Array<{ annotations?: Array<{ type: string; description?: string }> }> }>;
  suites?: ListedSuite[];
}

const listProfile = { baseUrl: 'http://127.0.0.1:9', credentials: { clientId: 'x', clientSecret: 'x' } } as ResolvedProfile;

/** What Playwright's runner declares for these targets (and the run's grep), per test: its title, its tags (what --grep selects) and the metadata it carries. */
function playwrightDeclared(targets: RunTarget[] = [{ name: 'list', profile: listProfile }], grep?: string): Array<{ title: string; tags: string[]; meta: CheckMeta }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-registry-test-'));
  const handOff = handOffIn(resolveRunSettings({ targets }), scratch);
  writeSpecFiles(handOff.paths.specs, targets.length);
  const settingsEnv = writeRunSettings(handOff, path.join(scratch, 'settings.json'));
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const run = spawnSync(process.execPath, [cli, 'test', '--config', fromRoot('runner', 'playwright.config.ts'), '--list', '--reporter=json', ...(grep ? ['--grep', grep] : [])], {
    cwd: fromRoot(),
    env: { ...process.env, ...settingsEnv, FORCE_COLOR: '0' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(scratch, { recursive: true, force: true });
  const report = JSON.parse(run.stdout) as { suites?: ListedSuite[]; errors?: unknown[] };
  assert.deepEqual(report.errors ?? [], [], run.stderr);
  const declared: Array<{ title: string; tags: string[]; meta: CheckMeta }> = [];
  const collect = (suite: ListedSuite): void => {
    for (const spec of suite.specs ?? []) {
      const annotation = spec.tests?.[0]?.annotations?.find((a) => a.type === META_ANNOTATION);
      declared.push({ title: spec.title, tags: spec.tags ?? [], meta: JSON.parse(annotation!.description!) as CheckMeta });
    }
    for (const child of suite.suites ?? []) collect(child);
  };
  for (const suite of report.suites ?? []) collect(suite);
  return declared;
}

test('the Playwright runner declares exactly the registered conformance checks, with their titles and tags', () => {
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  const declared = playwrightDeclared();
  assert.deepEqual(declared.map((d) => d.meta).sort(byId), registeredChecks('conformance').sort(byId));
  for (const { title, tags, meta } of declared) {
    // The target's name follows the check's title (runner/define.ts).
    assert.equal(title, `${meta.title} [list]`);
    // Playwright lists tags without their "@".
    assert.deepEqual(tags, checkTags(meta).map((tag) => tag.slice(1)), meta.id);
  }
});

test('the tests a run plans for (its default number of workers rests on them) are those Playwright declares: targets, their greps and the run\'s', async () => {
  const targets: RunTarget[] = [
    { name: 'every-check', profile: listProfile },
    { name: 'users-only', profile: listProfile, grep: '@area:users' },
  ];
  const grep = '@area:auth|@area:users';
  const planned = await plannedTests({ targets, grep });
  assert.equal(planned, playwrightDeclared(targets, grep).length);
  assert.ok(planned > registeredChecks('conformance').filter((c) => c.area === 'users').length, 'both targets count');
  assert.equal(await plannedTests({ targets, grep, shard: { index: 1, total: 2 } }), Math.ceil(planned / 2));
});

test('listing the checks loads no Playwright: the commands that only list them (run, serve, verify, list) do not pay its half second', () => {
  const probe = `
    import { createRequire } from 'node:module';
    const { listAllChecks } = await import(${JSON.stringify(fromRoot('app', 'run', 'list.ts'))});
    const listed = (await listAllChecks()).length;
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /[\\\\/]node_modules[\\\\/](@playwright|playwright)/.test(file));
    console.log(JSON.stringify({ listed, loaded }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: fromRoot(), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const { listed, loaded } = JSON.parse(run.stdout) as { listed: number; loaded: string[] };
  assert.equal(listed, checks.length);
  assert.deepEqual(loaded, [], 'a module the check files import loads Playwright at the top: import it where a check runs, inside a worker');
});
