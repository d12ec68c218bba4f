// A run's live events as the console streams them (server-sent events over
// the services' subscription): the replay then each new event, each with its
// position as id; a browser that reconnects with Last-Event-ID gets only what
// it missed; the stream ends after 'end'; and a stream left open does not
// hold up the server's shutdown.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startConsole, type RunningConsole } from './support/console-server.ts';
import { FAKE_TOKEN } from './support/fake-services.ts';
import { consoleSignIn } from './support.ts';

let server: RunningConsole;
/** Both halves of a session: its cookie and its secret as the bearer. */
let session: Record<string, string>;

before(async () => {
  server = await startConsole({ fake: { autoProgress: false, startDelayMs: 0 } });
  const signedIn = await consoleSignIn(server.url, FAKE_TOKEN);
  session = { cookie: signedIn.cookie, authorization: `Bearer ${signedIn.secret}` };
});

after(() => server?.close());

interface Frame {
  id: number;
  event: string;
  data: { type: string; run?: { status: string } };
}

/** Reads frames from an event stream until `until` says stop (or the stream ends). */
async function readFrames(body: ReadableStream<Uint8Array>, until: (frames: Frame[]) => boolean): Promise<{ frames: Frame[]; ended: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = '';
  while (!until(frames)) {
    const { value, done } = await reader.read();
    if (done) return { frames, ended: true, reader };
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      if (fields.event) frames.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data!) as Frame['data'] });
    }
  }
  return { frames, ended: false, reader };
}

async function runningRun(): Promise<string> {
  const impl = await server.fake.implementations.create({ name: `Events ${Math.random()}`, profileText: '{}' });
  const run = await server.fake.runs.start(impl.id, { load: false });
  while ((await server.fake.runs.get(run.id))?.status !== 'running') await new Promise((resolve) => setTimeout(resolve, 5));
  return run.id;
}

test('the replay, then live events, then a reconnection that gets only what it missed, ending after end', async () => {
  const runId = await runningRun();
  const first = await fetch(`${server.url}/console/api/runs/${runId}/events`, { headers: session });
  assert.equal(first.status, 200);
  assert.match(first.headers.get('content-type')!, /^text\/event-stream/);
  assert.equal(first.headers.get('cache-control'), 'no-store');
  server.fake.emitCheck(runId);
  server.fake.emitCheck(runId);
  const live = await readFrames(first.body!, (f) => f.filter((x) => x.event === 'check').length === 2);
  assert.deepEqual(live.frames.map((f) => f.event), ['status', 'status', 'check', 'check'], 'queued, running, then the checks');
  assert.deepEqual(live.frames.map((f) => f.id), [1, 2, 3, 4], 'numbered from 1, as the API numbers them');
  await live.reader.cancel();

  server.fake.emitCheck(runId);
  server.fake.finish(runId);
  const again = await fetch(`${server.url}/console/api/runs/${runId}/events`, { headers: { ...session, 'last-event-id': '4' } });
  const rest = await readFrames(again.body!, () => false);
  assert.ok(rest.ended, 'the stream ends after end');
  assert.deepEqual(rest.frames.map((f) => [f.id, f.event]), [[5, 'check'], [6, 'end']]);
  assert.equal(rest.frames.at(-1)!.data.run!.status, 'finished');
});

test('a finished run replays its whole life and the stream ends', async () => {
  const runId = await runningRun();
  server.fake.emitCheck(runId);
  server.fake.finish(runId);
  const answer = await fetch(`${server.url}/console/api/runs/${runId}/events`, { headers: session });
  const all = await readFrames(answer.body!, () => false);
  assert.ok(all.ended);
  assert.deepEqual(all.frames.map((f) => f.event), ['status', 'status', 'check', 'end']);
});

test('the stream wants both halves of the session: the cookie alone is 401', async () => {
  const runId = await runningRun();
  assert.equal((await fetch(`${server.url}/console/api/runs/${runId}/events`, { headers: { cookie: session.cookie! } })).status, 401);
  assert.equal((await fetch(`${server.url}/console/api/runs/${runId}/events`, { headers: { authorization: session.authorization! } })).status, 401);
  server.fake.finish(runId);
});

test('an unknown run is a 404, and a live view left open does not hold up the server’s shutdown', async () => {
  assert.equal((await fetch(`${server.url}/console/api/runs/AAAAAAAAAAAAAAAAAAAAAA/events`, { headers: session })).status, 404);
  const runId = await runningRun();
  const answer = await fetch(`${server.url}/console/api/runs/${runId}/events`, { headers: session });
  const opened = await readFrames(answer.body!, (f) => f.length >= 2);
  const started = performance.now();
  await server.close();
  assert.ok(performance.now() - started < 2000, `closed in ${performance.now() - started} ms`);
  const { done } = await opened.reader.read();
  assert.equal(done, true, 'the stream ended with the server');
});
