// A run's events as the console's run page reads them: the API's stream
// (GET /api/runs/:id/events) with the session's two halves, on a real server
// on 127.0.0.1 and real runs of the bundled reference (waiting behind one that
// runs, so their events come when the test says: a cancel), through the
// page's reader (console/event-stream.ts, which replaced
// EventSource because that cannot send the session's bearer).
// The reader: the text/event-stream rules on text cut anywhere; the replay
// then live events, a dropped connection taken up again with Last-Event-ID
// (nothing lost, nothing twice), the stop after `end`, a 401 handed to the
// page; against a server that goes silent, a new connection once nothing
// arrived for the idle limit.
// The stream: each event with its position as id, from 1; a reconnection
// with Last-Event-ID gets only what it missed; a finished run replays its
// whole life and the stream ends after 'end'; both halves of the session or
// nothing; and a stream left open does not hold up the server's shutdown.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamParser, followEvents, type StreamEvent } from '../../console/event-stream.ts';
import type { RunRecord } from '../../app/serve/contract.ts';
import { consoleSignIn, NARROW_RUN, startConsoleTestServer, waitForRun, type ConsoleSession, type TestServer } from './support.ts';

let lab: TestServer;
let signedIn: ConsoleSession;
/** Both halves of a session: its cookie and its secret as the bearer. */
let session: Record<string, string>;
/** A run of an area of checks, which runs while the file's tests do (the server's shutdown stops it): the others wait behind it. */
let running: string;
/** The run the live test followed, ended by the time the stream's tests read it. */
let followed: string | undefined;

before(async () => {
  lab = await startConsoleTestServer();
  signedIn = await consoleSignIn(lab.url, lab.token);
  session = { cookie: signedIn.cookie, authorization: `Bearer ${signedIn.secret}` };
  running = ((await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false, grep: '@area:auth' } } })).json as RunRecord).id;
});

after(() => lab?.close());

const STREAM = ': ptas run events\r\n\r\nid: 1\nevent: status\ndata: {"a":1}\n\n: keep-alive\n\nid: 2\r\nevent: log\r\ndata: line one\r\ndata: line two\r\n\r\ndata: no id, no event\rretry: 250\r\r' + 'id: 3\nevent:end\ndata:{"b":2}\nunknown: field\n\n' + 'event: nothing\n\n';

const EXPECTED: StreamEvent[] = [
  { id: '1', event: 'status', data: '{"a":1}' },
  { id: '2', event: 'log', data: 'line one\nline two' },
  { id: '2', event: 'message', data: 'no id, no event' },
  { id: '3', event: 'end', data: '{"b":2}' },
];

test('the parser follows the text/event-stream rules on text cut anywhere: LF, CRLF and CR lines, comments, multi-line data, the last id kept, retry', () => {
  const whole = new EventStreamParser();
  assert.deepEqual(whole.push(STREAM), EXPECTED);
  assert.equal(whole.retryMs, 250);
  assert.equal(whole.lastEventId, '3');
  // Every cut into two, and one character at a time: the same events (a CR at a cut may be half a CRLF).
  for (let cut = 0; cut <= STREAM.length; cut++) {
    const parser = new EventStreamParser();
    assert.deepEqual([...parser.push(STREAM.slice(0, cut)), ...parser.push(STREAM.slice(cut))], EXPECTED, `cut at ${cut}`);
  }
  const bytewise = new EventStreamParser();
  assert.deepEqual([...STREAM].flatMap((c) => bytewise.push(c)), EXPECTED);
});

/** A narrow run of the reference, started by the session as its run page's form does: it waits behind the one that runs. */
async function waitingRun(): Promise<string> {
  const started = await signedIn.call('POST', '/api/runs', { body: NARROW_RUN });
  assert.equal(started.status, 202, started.text);
  assert.equal((started.json as RunRecord).status, 'queued');
  return (started.json as RunRecord).id;
}

const eventsUrl = (runId: string) => `${lab.url}/api/runs/${runId}/events`;

async function until(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('on the API’s stream with a session: the replay, live events, a dropped connection taken up with Last-Event-ID, nothing lost or twice, the stop after end', async () => {
  const runId = await waitingRun();
  followed = runId;
  const seen: StreamEvent[] = [];
  const lost: string[] = [];
  let headerCalls = 0;
  const follower = followEvents(eventsUrl(runId), {
    headers: () => (headerCalls++, session),
    onEvent: (event) => seen.push(event),
    onUnauthorized: () => lost.push('401'),
    onLost: (why) => lost.push(why),
    retryMs: 50,
  });
  await until('the replay', () => seen.length === 1);
  // The connection drops (every connection of the server closed under it); the reader takes it up again.
  lab.server.app.server.closeAllConnections();
  await until('the reconnection', () => headerCalls === 2);
  // On the second connection: the run leaves the queue, and its stream ends.
  assert.equal((await signedIn.call('POST', `/api/runs/${runId}/cancel`)).status, 200);
  await follower.done;
  assert.deepEqual(lost, []);
  assert.deepEqual(seen.map((e) => [e.id, e.event]), [['1', 'status'], ['2', 'status'], ['3', 'end']], 'each event once, in order: the second connection sent Last-Event-ID');
  assert.equal((JSON.parse(seen.at(-1)!.data) as { run: { status: string } }).run.status, 'cancelled');
  assert.equal(headerCalls, 2, 'no connection after end');
});

test('a 401 (the cookie alone) is handed to the page, and nothing more is tried; close stops a live stream', async () => {
  const runId = await waitingRun();
  const told: string[] = [];
  const refused = followEvents(eventsUrl(runId), {
    headers: () => ({ cookie: session.cookie! }),
    onEvent: () => told.push('event'),
    onUnauthorized: () => told.push('401'),
    onLost: (why) => told.push(why),
    retryMs: 10,
  });
  await refused.done;
  assert.deepEqual(told, ['401']);

  const events: string[] = [];
  const live = followEvents(eventsUrl(runId), { headers: () => session, onEvent: (e) => events.push(e.event), onUnauthorized: () => {}, onLost: () => {} });
  await until('the replay', () => events.length >= 1);
  live.close();
  await live.done;
  const atClose = [...events];
  // Cancelled, the run has a status and `end` that the closed stream does not see.
  await signedIn.call('POST', `/api/runs/${runId}/cancel`);
  await waitForRun(lab.call, runId, ['cancelled']);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(events, atClose, 'nothing after close');
  assert.ok(!events.includes('end'));
});

test('a connection on which nothing arrives for the idle limit is opened again, with Last-Event-ID; a refusal other than 401 is the end', async () => {
  const requests: IncomingHttpHeaders[] = [];
  const silent = createServer((request, response) => {
    requests.push(request.headers);
    if (requests.length === 3) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(`id: ${requests.length}\nevent: check\ndata: {}\n\n`);
    // …then nothing: no keep-alive comment, no end.
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const seen: StreamEvent[] = [];
    const lost: string[] = [];
    const follower = followEvents(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/events`, {
      headers: () => ({ authorization: 'Bearer x' }),
      onEvent: (e) => seen.push(e),
      onUnauthorized: () => lost.push('401'),
      onLost: (why) => lost.push(why),
      idleMs: 200,
      retryMs: 10,
    });
    await follower.done;
    assert.deepEqual(seen.map((e) => e.id), ['1', '2']);
    assert.deepEqual(requests.map((h) => h['last-event-id']), [undefined, '1', '2']);
    assert.ok(requests.every((h) => h.authorization === 'Bearer x' && h.accept === 'text/event-stream'));
    assert.deepEqual(lost, ['the server answered 404']);
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('a connection cut inside a frame asks again after the last event it delivered, not after the id of the frame it lost', async () => {
  const requests: IncomingHttpHeaders[] = [];
  const cutting = createServer((request, response) => {
    requests.push(request.headers);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    // One whole event, and the next one's id and half of it in the same write; then the connection drops.
    if (requests.length === 1) return void response.write('id: 1\nevent: check\ndata: {}\n\nid: 2\nevent: check\ndata: {"ha', () => request.socket.destroy());
    response.end('id: 2\nevent: check\ndata: {}\n\nid: 3\nevent: end\ndata: {}\n\n');
  });
  await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
  try {
    const seen: StreamEvent[] = [];
    const follower = followEvents(`http://127.0.0.1:${(cutting.address() as AddressInfo).port}/events`, { headers: () => ({}), onEvent: (e) => seen.push(e), onUnauthorized: () => {}, onLost: () => {}, retryMs: 10 });
    await follower.done;
    assert.deepEqual(requests.map((h) => h['last-event-id']), [undefined, '1']);
    assert.deepEqual(seen.map((e) => e.id), ['1', '2', '3'], 'the cut event came again');
  } finally {
    await new Promise((resolve) => cutting.close(resolve));
  }
});

test('a server that keeps dropping the connection without an event is given up after a few attempts', async () => {
  let attempts = 0;
  const dropping = createServer((request) => {
    attempts++;
    request.socket.destroy();
  });
  await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
  try {
    const lost: string[] = [];
    const follower = followEvents(`http://127.0.0.1:${(dropping.address() as AddressInfo).port}/events`, { headers: () => ({}), onEvent: () => {}, onUnauthorized: () => {}, onLost: (why) => lost.push(why), retryMs: 10, maxAttempts: 3 });
    await follower.done;
    assert.equal(attempts, 3);
    assert.deepEqual(lost, ['the connection dropped 3 times in a row without an event']);
  } finally {
    await new Promise((resolve) => dropping.close(resolve));
  }
});

interface Frame {
  id: number;
  event: string;
  data: { type: string; run?: { status: string } };
}

/** Reads frames from an event stream until `until` says stop (or the stream ends). */
async function readFrames(reader: ReadableStreamDefaultReader<Uint8Array>, until: (frames: Frame[]) => boolean): Promise<{ frames: Frame[]; ended: boolean }> {
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = '';
  while (!until(frames)) {
    const { value, done } = await reader.read();
    if (done) return { frames, ended: true };
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      if (fields.event) frames.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data!) as Frame['data'] });
    }
  }
  return { frames, ended: false };
}

const events = (runId: string, headers: Record<string, string>) => fetch(eventsUrl(runId), { headers });

test('the stream: a run that ended replays its whole life, numbered from 1, and ends after end; Last-Event-ID resumes after it, nothing lost or twice', async () => {
  assert.ok(followed, 'the live test ran first');
  const whole = await events(followed, session);
  assert.equal(whole.status, 200);
  assert.match(whole.headers.get('content-type')!, /^text\/event-stream/);
  assert.equal(whole.headers.get('cache-control'), 'no-store');
  const replay = await readFrames(whole.body!.getReader(), () => false);
  assert.ok(replay.ended, 'the stream ends after end');
  assert.deepEqual(replay.frames.map((f) => f.id), replay.frames.map((_, i) => i + 1));
  assert.deepEqual([replay.frames[0]!.event, replay.frames.at(-1)!.event], ['status', 'end']);
  assert.equal(replay.frames.at(-1)!.data.run!.status, 'cancelled');

  // A browser that saw the first two events and lost its connection comes back for the rest.
  const rest = await readFrames((await events(followed, { ...session, 'last-event-id': '2' })).body!.getReader(), () => false);
  assert.ok(rest.ended);
  assert.deepEqual(rest.frames.map((f) => [f.id, f.event]), replay.frames.slice(2).map((f) => [f.id, f.event]));
});

test('the stream wants both halves of the session: the cookie alone or the secret alone is 401; an unknown run is a 404', async () => {
  assert.ok(followed);
  assert.equal((await events(followed, { cookie: session.cookie! })).status, 401);
  assert.equal((await events(followed, { authorization: session.authorization! })).status, 401);
  assert.equal((await events('AAAAAAAAAAAAAAAAAAAAAA', session)).status, 404);
});

test('a live view left open does not hold up the server’s shutdown', async () => {
  assert.equal(lab.server.services.runs.get(running)?.status, 'running');
  const reader = (await events(running, session)).body!.getReader();
  const opened = await readFrames(reader, (f) => f.length >= 1);
  assert.equal(opened.frames[0]?.event, 'status');
  const started = performance.now();
  await lab.close();
  const took = performance.now() - started;
  // The server stops the run (it ends INCOMPLETE with its partial bundle), and the stream with it.
  assert.ok(took < 5000, `closed in ${took} ms`);
  assert.equal((await readFrames(reader, () => false)).ended, true, 'the stream ended with the server');
});
