// `ptas serve`'s queue is bounded, and moving it costs nothing per waiting
// run (issue 28, finding 1). Against a real server with one run at a time:
// a run against a stalled target runs (its target answers the preflight, then
// holds every request), and runs wait behind it.
// - A token may keep at most maxQueuedRunsPerToken runs waiting, and the
//   server at most maxQueuedRuns over all tokens: one more is 429 queue-full
//   with Retry-After and a JSON body naming the limit; another token still
//   gets in under the server's limit; each run records the token that asked
//   (requestedBy, its name).
// - A run started from the console records and counts against the token its
//   session signed in with, as the API does.
// - Cancelling the run at the head of the queue moves every other waiting run
//   up, but rewrites none of their run.json files (a waiting run's position
//   is kept in memory and added when it is read): before, each change at the
//   head rewrote every waiting run's record, atomically with an fsync, on the
//   event loop (1,000 waiting runs stalled every request ~0.9 s per cancel;
//   bench/serve-queue.bench.ts measures it). A live event stream of a waiting
//   run still hears of its new position, as an unnumbered status event.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { RunRecord } from '../../app/serve/contract.ts';
import { caller, consoleSignIn, startConsoleTestServer, waitForRun, type Call, type TestServer } from '../serve/support.ts';
import { startStalledTarget, type TestServer as Target } from '../support/servers.ts';

const PER_TOKEN = 20;
const TOTAL = 30;


let target: Target;
let lab: TestServer;
let running: RunRecord;
let second: { name: string; call: Call };
const waiting: RunRecord[] = [];

const ask = (call: Call) => call('POST', '/api/runs', { body: { implementation: 'stalled', options: { load: false } } });

before(async () => {
  target = await startStalledTarget();
  lab = await startConsoleTestServer({ maxConcurrentRuns: 1, maxQueuedRuns: TOTAL, maxQueuedRunsPerToken: PER_TOKEN, env: { ...process.env, PTAS_STALLED_SECRET: 'stalled-secret-value' }, secretEnv: ['PTAS_STALLED_SECRET'] });
  const profileText = JSON.stringify({ baseUrl: target.url, credentials: { clientId: 'stalled-client', clientSecret: 'env:PTAS_STALLED_SECRET' }, http: { timeoutMs: 600_000 } });
  const stored = await lab.call('PUT', '/api/implementations/stalled', { body: { name: 'Stalled', profileText } });
  assert.equal(stored.status, 201, stored.text);
  const first = await ask(lab.call);
  assert.equal(first.status, 202, first.text);
  running = await waitForRun(lab.call, first.json.id, ['running']);
  second = { name: 'ci-second', call: caller(lab.url, lab.server.services.tokens.create('ci-second')) };
});

after(async () => {
  for (const run of [...waiting, running].filter(Boolean)) await lab.call('POST', `/api/runs/${run.id}/cancel`);
  await lab?.close();
  await target?.close();
});

test('a token keeps at most maxQueuedRunsPerToken runs waiting, the server maxQueuedRuns: one more is 429 with Retry-After and a JSON body', async () => {
  for (let i = 0; i < PER_TOKEN; i++) {
    const asked = await ask(lab.call);
    assert.equal(asked.status, 202, asked.text);
    assert.equal(asked.json.queuePosition, i + 1);
    waiting.push(asked.json as RunRecord);
  }
  const overToken = await ask(lab.call);
  assert.equal(overToken.status, 429, `waiting run number ${PER_TOKEN + 1} of one token was accepted: ${overToken.status} ${overToken.text}`);
  assert.match(overToken.headers.get('content-type') ?? '', /application\/json/);
  assert.match(overToken.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal(overToken.json.error, 'queue-full');
  assert.match(overToken.json.message, new RegExp(`${PER_TOKEN} runs .*waiting`));
  assert.equal(overToken.json.details.limit, PER_TOKEN);
  const tokenName = lab.server.services.tokens.verify(lab.token)!.name;
  assert.equal(waiting[0]!.requestedBy, tokenName, 'the run names the token that asked for it');
  assert.equal(running.requestedBy, tokenName);

  // Another token is not held back by the first one's runs, until the server's own limit.
  for (let i = 0; i < TOTAL - PER_TOKEN; i++) {
    const asked = await ask(second.call);
    assert.equal(asked.status, 202, asked.text);
    assert.equal(asked.json.requestedBy, second.name);
    waiting.push(asked.json as RunRecord);
  }
  const overServer = await ask(second.call);
  assert.equal(overServer.status, 429, overServer.text);
  assert.equal(overServer.json.error, 'queue-full');
  assert.equal(overServer.json.details.limit, TOTAL);
  assert.match(overServer.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal((await lab.call('GET', '/api/runs')).json.filter((r: RunRecord) => r.status === 'queued').length, TOTAL, 'no refused request queued a run');
});

test('cancelling the run at the head moves every waiting run up without rewriting their run.json; a live stream hears the new position', async () => {
  assert.ok(waiting.length >= 3, 'runs wait behind the running one');
  const runFile = (id: string) => path.join(lab.data, 'runs', id, 'run.json');
  const snapshot = (id: string) => {
    const stats = statSync(runFile(id), { bigint: true });
    return { ino: stats.ino, mtime: stats.mtimeNs, text: readFileSync(runFile(id), 'utf8') };
  };
  const [head, ...rest] = waiting;
  const last = rest.at(-1)!;
  const lastPosition = (await lab.call('GET', `/api/runs/${last.id}`)).json.queuePosition as number;
  const before = new Map(rest.map((run) => [run.id, snapshot(run.id)]));
  const stream = await followEvents(last.id);
  try {
    const cancelled = await lab.call('POST', `/api/runs/${head!.id}/cancel`);
    assert.equal(cancelled.json.status, 'cancelled', cancelled.text);
    waiting.shift();
    const rewritten = rest.filter((run) => {
      const now = snapshot(run.id);
      const was = before.get(run.id)!;
      return now.ino !== was.ino || now.mtime !== was.mtime || now.text !== was.text;
    });
    assert.deepEqual(rewritten.map((r) => r.id), [], `${rewritten.length} of the ${rest.length} waiting runs' run.json were rewritten by one cancel at the head`);
    assert.equal(JSON.parse(snapshot(last.id).text).queuePosition, undefined, 'no position is stored');

    // Their positions moved all the same, as read.
    assert.equal((await lab.call('GET', `/api/runs/${rest[0]!.id}`)).json.queuePosition, 1);
    assert.equal((await lab.call('GET', `/api/runs/${last.id}`)).json.queuePosition, lastPosition - 1);
    const queued = ((await lab.call('GET', '/api/runs?implementation=stalled')).json as RunRecord[]).filter((r) => r.status === 'queued');
    assert.deepEqual(queued.map((r) => r.queuePosition).sort((a, b) => a! - b!), queued.map((_, i) => i + 1), 'positions 1 to n, as listed');
    const update = await stream.next((frame) => frame.data.run?.queuePosition === lastPosition - 1);
    assert.equal(update.event, 'status');
    assert.equal(update.id, undefined, 'a position update is not numbered: Last-Event-ID counts the stored events only');
  } finally {
    stream.close();
  }
  // The stored events replay as before, numbered from 1; a replayed status of a run still waiting carries its position now.
  const replay = await followEvents(last.id);
  const first = await replay.next(() => true);
  replay.close();
  assert.equal(first.id, 1);
  assert.equal(first.data.run?.queuePosition, lastPosition - 1);
});

test('the console starts runs as the token its session signed in with: recorded, and held to the same bound', async () => {
  const session = await consoleSignIn(lab.url, lab.token);
  const tokenName = lab.server.services.tokens.verify(lab.token)!.name;
  const mine = () => waiting.filter((run) => run.requestedBy === tokenName).length;
  // Up to the token's bound (cancels above made room), then one more.
  while (mine() < PER_TOKEN && waiting.length < TOTAL) {
    const started = await ask(session.call);
    assert.equal(started.status, 202, started.text);
    assert.equal(started.json.requestedBy, tokenName);
    waiting.push(started.json as RunRecord);
  }
  const refused = await ask(session.call);
  assert.equal(refused.status, 429, refused.text);
  assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/, 'the console is told when to ask again, as any API client is');
  assert.equal(refused.json.error, 'queue-full');
  assert.match(refused.json.message, /runs (are )?waiting, the most/);
});

interface Frame {
  id?: number;
  event: string;
  data: { type: string; run?: RunRecord } & Record<string, any>;
}

/** Follows a run's event stream, frame by frame (ids as sent: a frame without one has none). */
async function followEvents(runId: string): Promise<{ next(match: (frame: Frame) => boolean): Promise<Frame>; close(): void }> {
  const stop = new AbortController();
  const response = await fetch(`${lab.url}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${lab.token}` }, signal: stop.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let pending = '';
  const frames: Frame[] = [];
  const read = async (): Promise<void> => {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended');
    pending += decoder.decode(value, { stream: true });
    let boundary: number;
    while ((boundary = pending.indexOf('\n\n')) >= 0) {
      const block = pending.slice(0, boundary);
      pending = pending.slice(boundary + 2);
      const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      if (fields.event) frames.push({ ...(fields.id !== undefined ? { id: Number(fields.id) } : {}), event: fields.event, data: JSON.parse(fields.data!) });
    }
  };
  return {
    async next(match) {
      const deadline = performance.now() + 10_000;
      for (;;) {
        const at = frames.findIndex(match);
        if (at >= 0) return frames.splice(0, at + 1).at(-1)!;
        if (performance.now() > deadline) throw new Error(`no such frame; seen ${JSON.stringify(frames)}`);
        await read();
      }
    },
    close: () => stop.abort(),
  };
}
