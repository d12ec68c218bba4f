// The run's settings (runner/settings.ts): every default in one place, a
// choice no run can use refused before anything starts, and what the
// Playwright process reads back validated, naming the key that is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { ConfigError } from '../../src/config/errors.ts';
import {
  DEFAULT_CHECK_TIMEOUT_MS,
  defaultWorkers,
  handOffIn,
  parseRunSettings,
  readRunSettings,
  resolveRunSettings,
  RUN_SETTINGS_ENV,
  writeRunSettings,
} from '../../runner/settings.ts';

const profile = { baseUrl: 'http://127.0.0.1:9', credentials: { clientId: 'x', clientSecret: 'x' } } as ResolvedProfile;
const slowWebhooks = { ...profile, webhooks: { retryDelaysMs: [12_000], additionalUsers: Array.from({ length: 11 }, (_, i) => ({ userId: `u${i}` })) } } as unknown as ResolvedProfile;

test('the defaults: workers by the profile, the check time limit, progress on; no grep or shard unless chosen', () => {
  const settings = resolveRunSettings({ targets: [{ name: 't', profile }] });
  assert.equal(settings.workers, defaultWorkers([{ name: 't', profile }]));
  assert.equal(settings.checkTimeoutMs, DEFAULT_CHECK_TIMEOUT_MS);
  assert.equal(settings.progress, true);
  assert.equal('grep' in settings, false);
  assert.equal('shard' in settings, false);
});

test('declared slow webhooks ask for a worker per webhook user', () => {
  assert.equal(defaultWorkers([{ name: 't', profile: slowWebhooks }]), 12);
  assert.ok(defaultWorkers([{ name: 't', profile }]) <= 8);
  assert.equal(defaultWorkers([{ name: 't', profile: slowWebhooks }], 5), 5, 'no more workers than tests');
});

test('a run of a few tests starts a worker per 12 of them, a full run as many as the cores ask for', () => {
  const targets = [{ name: 't', profile }];
  const byCores = defaultWorkers(targets);
  assert.deepEqual([1, 12, 13, 24, 25].map((tests) => defaultWorkers(targets, tests)), [1, 1, 2, 2, 3].map((n) => Math.min(n, byCores)));
  assert.equal(defaultWorkers(targets, 108), byCores);
  assert.equal(resolveRunSettings({ targets, tests: 3 }).workers, 1);
  assert.equal(resolveRunSettings({ targets, tests: 3, workers: 6 }).workers, 6, 'a chosen number stands');
});

test('a choice no run can use is refused with the flag and an example', () => {
  for (const workers of [0, -1, 2.5, Number.NaN]) {
    assert.throws(() => resolveRunSettings({ targets: [], workers }), (e: unknown) => e instanceof ConfigError && /--workers must be a whole number of at least 1, e\.g\. --workers 4/.test(e.message));
  }
  assert.throws(() => resolveRunSettings({ targets: [], checkTimeoutMs: 0 }), /--check-timeout-ms must be a whole number/);
});

test('written for the child process and read back the same, the file private', () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-settings-'));
  const handOff = handOffIn(resolveRunSettings({ targets: [{ name: 't', profile, grep: '@area:auth' }], workers: 3, shard: { index: 1, total: 2 } }), scratch);
  const file = path.join(scratch, 'settings.json');
  const env = writeRunSettings(handOff, file);
  assert.deepEqual(env, { [RUN_SETTINGS_ENV]: file });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(parseRunSettings(JSON.stringify(handOff), file), handOff);
  assert.ok(handOff.paths.results.startsWith(scratch) && handOff.paths.locks.startsWith(scratch));
});

test('a settings file of the wrong shape is refused, naming the key', () => {
  const good = handOffIn(resolveRunSettings({ targets: [{ name: 't', profile }] }), '/tmp/x');
  const bad = (patch: Record<string, unknown>) => JSON.stringify({ ...good, ...patch });
  assert.throws(() => parseRunSettings(bad({ workers: '4' }), 'f'), /the run settings in f are not valid: \/workers must be integer/);
  assert.throws(() => parseRunSettings(bad({ targets: [{ profile }] }), 'f'), /\/targets\/0 must have required property 'name'/);
  assert.throws(() => parseRunSettings(bad({ paths: { results: 'r' } }), 'f'), /\/paths must have required property/);
  assert.throws(() => parseRunSettings(bad({ extra: true }), 'f'), /must NOT have additional properties/);
  assert.throws(() => parseRunSettings(bad({ checkTimeoutMs: 0 }), 'f'), /\/checkTimeoutMs must be >= 1/);
});

test('Playwright started by hand, without the settings, says how to run the checks', () => {
  assert.throws(() => readRunSettings({}), new RegExp(`${RUN_SETTINGS_ENV} names no run settings: run the checks through \`ptas run\``));
});
