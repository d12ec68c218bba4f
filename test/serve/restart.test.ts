// `ptas serve` killed mid-run (SIGKILL: no chance to tidy up) and started
// again on the same store: every run is still listed, the one that was
// running and the one that was waiting are finished INCOMPLETE with a note,
// the finished one keeps its verdict and bundle, the token still works, a
// console session signed in before goes on working (its halves stored only as
// hashes), and no new first-run token is printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunEvent, RunRecord } from '../../app/serve/contract.ts';
import { processesWithMarker } from '../support/processes.ts';
import { readFileSync } from 'node:fs';
import { caller, consoleSignIn, readEvents, startServeProcess, waitForRun } from './support.ts';

const USERS = { implementation: 'reference', options: { load: false, grep: '@area:users' } };

test('a server killed mid-run loses nothing: every run listed after the restart, the one in flight INCOMPLETE', { timeout: 180_000 }, async (t) => {
  const data = mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-restart-'));
  const marker = `PTAS_TEST_MARKER=${randomUUID()}`;
  const [key, value] = marker.split('=') as [string, string];
  const first = await startServeProcess(data, { [key]: value });
  assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+$/, 'the real address of --port 0');
  assert.ok(first.token, `a first start prints its token:\n${first.stdout()}`);
  const token = first.token;
  const call = caller(first.url, token);

  const console_ = await consoleSignIn(first.url, token);
  assert.equal((await console_.call('GET', '/api/implementations')).status, 200);
  const done = (await call('POST', '/api/runs', { body: USERS })).json as RunRecord;
  assert.equal((await waitForRun(call, done.id, ['finished'])).verdict, 'CONFORMANT');
  const inFlight = (await call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false } } })).json as RunRecord;
  const waiting = (await call('POST', '/api/runs', { body: USERS })).json as RunRecord;
  assert.equal(waiting.queuePosition, 1);
  // Kill it once checks of the run in flight are finishing.
  await new Promise<void>((resolve, reject) => {
    let checks = 0;
    readEvents(first.url, token, inFlight.id, (event) => {
      if (event.event === 'check' && ++checks === 2) resolve();
    }).then(() => reject(new Error('the run ended before it could be killed')), () => undefined);
  });
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await startServeProcess(data, { [key]: value });
  try {
    assert.equal(second.token, undefined, 'no new first-run token: the first one is live');
    assert.match(second.stdout(), new RegExp(`run ${inFlight.id} of "reference": the server stopped during the run`));
    const again = caller(second.url, token);
    const runs = (await again('GET', '/api/runs')).json as RunRecord[];
    assert.deepEqual(runs.map((r) => r.id).sort(), [done.id, inFlight.id, waiting.id].sort(), 'every run is listed');
    const byId = new Map(runs.map((r) => [r.id, r]));
    assert.equal(byId.get(done.id)!.verdict, 'CONFORMANT');
    assert.equal(byId.get(done.id)!.status, 'finished');
    for (const [id, note] of [
      [inFlight.id, 'the server stopped during the run'],
      [waiting.id, 'the server stopped before the run started'],
    ] as const) {
      const run = byId.get(id)!;
      assert.equal(run.status, 'finished', id);
      assert.equal(run.verdict, 'INCOMPLETE', id);
      assert.equal(run.note, note);
      assert.equal(run.queuePosition, undefined);
      assert.ok(run.finishedAt);
    }
    // Its events replay to an end, and the finished run's bundle is still there.
    const { events } = await readEvents(second.url, token, inFlight.id);
    assert.equal(events.at(-1)?.event, 'end');
    assert.ok(events.some((e) => e.event === 'check'), 'the check events from before the kill are kept');
    // Its record says what its page shows: the counts of the checks it finished (not 0 above a table of them), and no bundle.
    const lastCheck = events.findLast((e) => e.event === 'check')!.data as Extract<RunEvent, { type: 'check' }>;
    assert.deepEqual(byId.get(inFlight.id)!.counts, lastCheck.counts);
    assert.ok(Object.values(lastCheck.counts).reduce((a, n) => a + (n ?? 0), 0) >= 2);
    assert.equal(byId.get(inFlight.id)!.bundle, false, 'killed mid-run: no bundle, so no report and nothing to download');
    assert.equal(byId.get(waiting.id)!.bundle, false);
    assert.equal(byId.get(done.id)!.bundle, true);
    assert.equal((await fetch(`${second.url}/api/runs/${done.id}/bundle`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    // The console session signed in before the kill still opens the API, with both of its halves.
    const sessionCall = caller(second.url, console_.secret);
    const withCookie = { headers: { cookie: console_.cookie } };
    assert.equal((await sessionCall('GET', '/api/implementations', withCookie)).status, 200, 'a restart signs no one out');
    assert.equal((await caller(second.url, 'x'.repeat(43))('GET', '/api/implementations', withCookie)).status, 401, 'the cookie alone opens nothing');
    const stored = readFileSync(path.join(data, 'console-sessions.json'), 'utf8');
    assert.ok(!stored.includes(console_.secret) && !stored.includes(console_.cookie.split('=')[1]!), 'the store keeps neither half, only their hashes');
    // And the restarted server runs again.
    const next = (await again('POST', '/api/runs', { body: USERS })).json as RunRecord;
    assert.equal((await waitForRun(again, next.id, ['finished'])).verdict, 'CONFORMANT');
  } finally {
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0, second.stderr());
    // What the killed server had started (its Playwright process) ends on its own; give it a moment, then stop what is left.
    const deadline = performance.now() + 30_000;
    while (processesWithMarker(marker).length && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
    const left = processesWithMarker(marker);
    t.diagnostic(`processes of the killed server still alive after 30 s: ${left.length}`);
    for (const pid of left) process.kill(pid, 'SIGKILL');
  }
});
