// `ptas run --waivers` end to end: a known failure with an unexpired waiver
// makes the run CONFORMANT WITH WAIVERS (exit 6) and the manifest records the
// waiver file's hash; under --strict-waivers a waiver that matches no check
// makes it INCOMPLETE (exit 5). The waiver semantics themselves:
// test/unit/waivers.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPtas } from '../support/cli.ts';
import type { Manifest } from '../../src/certify/manifest.ts';
import type { RunResults } from '../../src/results/model.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-waivers-'));
const waiver = {
  check: 'auth.refresh-token-single-use',
  reason: 'Refresh tokens become single-use in release 4.2.',
  owner: 'Payments API team <payments-api@example.com>',
  tracking: 'https://tracker.example.com/PAY-1234',
  expires: '2999-12-31',
  expect: { verdict: 'FAIL', reason: 'was accepted' },
};
/** The fault also breaks the race check: a waiver by requirement covers it. */
const raceWaiver = { ...waiver, check: undefined, requirement: 'TOKEN-REFRESH-SINGLE-USE-ATOMIC', expect: { verdict: 'FAIL' } };
/** The two checks the fault breaks (both waived below), on one worker: a second would only add a worker start for one check. */
const run = (file: string, out: string, ...extra: string[]) =>
  runPtas(['run', '--no-load', '--fault', 'refresh-token-reusable', '--grep', '@TOKEN-REFRESH-SINGLE-USE', '--workers', '1', '--waivers', file, '--out', out, ...extra]);

test('a waived known failure: CONFORMANT WITH WAIVERS, exit 6, the waiver file hashed into the manifest', async () => {
  const dir = tmp();
  const file = path.join(dir, 'waivers.json');
  writeFileSync(file, JSON.stringify({ waivers: [waiver, raceWaiver] }));
  const out = path.join(dir, 'out');
  const result = await run(file, out);
  assert.equal(result.code, 6, result.stdout + result.stderr);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  assert.equal(results.verdict, 'CONFORMANT WITH WAIVERS');
  const check = results.checks.find((c) => c.id === 'auth.refresh-token-single-use');
  assert.equal(check?.verdict, 'WAIVED');
  assert.equal(check?.waived?.verdict, 'FAIL', 'the verdict the check gave is kept');
  assert.equal(results.checks.find((c) => c.id === 'auth.refresh-token-single-use-race')?.verdict, 'WAIVED', 'waived by its requirement');
  const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as Manifest;
  assert.equal(manifest.waivers?.sha256, createHash('sha256').update(readFileSync(file)).digest('hex'));
});

test('--strict-waivers: a waiver that matches no check of the run makes it INCOMPLETE (exit 5)', async () => {
  const dir = tmp();
  const file = path.join(dir, 'waivers.json');
  writeFileSync(file, JSON.stringify({ waivers: [waiver, raceWaiver, { ...waiver, check: 'users.details-schema', expect: { verdict: 'FAIL' } }] }));
  const result = await run(file, path.join(dir, 'out'), '--strict-waivers');
  assert.equal(result.code, 5, result.stdout + result.stderr);
  assert.match(result.stdout, /unmatched/);
});
