// The cross-worker lock (runner/exclusive.ts): holders of one scope take
// turns, other scopes do not wait, and a lock left by a dead process is cleared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { acquireExclusive } from '../../runner/exclusive.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const locks = mkdtempSync(path.join(os.tmpdir(), 'ptas-lock-test-'));

test('holders of one scope never overlap; another scope does not wait', async () => {
  const inside: string[] = [];
  let overlap = false;
  const hold = async (name: string) => {
    const release = await acquireExclusive('user:1', undefined, locks);
    if (inside.length) overlap = true;
    inside.push(name);
    await sleep(20);
    inside.pop();
    release();
  };
  const other = (async () => {
    const started = performance.now();
    const release = await acquireExclusive('user:2', undefined, locks);
    release();
    return performance.now() - started;
  })();
  await Promise.all([hold('a'), hold('b'), hold('c')]);
  assert.equal(overlap, false);
  assert.ok((await other) < 50, 'a different user is not serialized behind the first');
});

test('a lock whose holder died is taken over', async () => {
  const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
  const lock = path.join(locks, createHash('sha256').update('user:stale').digest('hex').slice(0, 24));
  mkdirSync(lock);
  writeFileSync(path.join(lock, 'pid'), String(dead));
  let waited = false;
  const release = await acquireExclusive('user:stale', () => (waited = true), locks);
  release();
  assert.equal(waited, false);
});
