// The run page's reader of server-sent events (console/event-stream.ts),
// which replaced EventSource because that cannot send the session's bearer:
// the text/event-stream rules on text cut anywhere; and, run in Node against
// the console's real event stream (a real Fastify server on 127.0.0.1 with
// the fake services), the replay then live events, a dropped connection
// taken up again with Last-Event-ID (nothing lost, nothing twice), the stop
// after `end`, a 401 handed to the page; against a server that goes silent,
// a new connection once nothing arrived for the idle limit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamParser, followEvents, type StreamEvent } from '../../console/event-stream.ts';
import { startConsole, type RunningConsole } from './support/console-server.ts';
import { FAKE_TOKEN } from './support/fake-services.ts';
import { consoleSignIn } from './support.ts';

let server: RunningConsole;
let session: Record<string, string>;

before(async () => {
  server = await startConsole({ fake: { autoProgress: false, startDelayMs: 0 } });
  const signedIn = await consoleSignIn(server.url, FAKE_TOKEN);
  session = { cookie: signedIn.cookie, authorization: `Bearer ${signedIn.secret}` };
});

after(() => server?.close());

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

async function runningRun(): Promise<string> {
  const impl = await server.fake.implementations.create({ name: `Reader ${Math.random()}`, profileText: '{}' });
  const run = await server.fake.runs.start(impl.id, { load: false });
  while ((await server.fake.runs.get(run.id))?.status !== 'running') await new Promise((resolve) => setTimeout(resolve, 5));
  return run.id;
}

async function until(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('on the console’s stream: the replay, live events, a dropped connection taken up with Last-Event-ID, nothing lost or twice, the stop after end', async () => {
  const runId = await runningRun();
  const seen: StreamEvent[] = [];
  const lost: string[] = [];
  let headerCalls = 0;
  const follower = followEvents(`${server.url}/console/api/runs/${runId}/events`, {
    headers: () => (headerCalls++, session),
    onEvent: (event) => seen.push(event),
    onUnauthorized: () => lost.push('401'),
    onLost: (why) => lost.push(why),
    retryMs: 50,
  });
  server.fake.emitCheck(runId);
  await until('the replay and a live check', () => seen.length === 3);
  // The connection drops (every connection of the server closed under it).
  server.app.server.closeAllConnections();
  server.fake.emitCheck(runId);
  server.fake.emitCheck(runId);
  await until('the reconnection', () => headerCalls === 2);
  server.fake.emitCheck(runId);
  server.fake.finish(runId);
  await follower.done;
  assert.deepEqual(lost, []);
  assert.deepEqual(seen.map((e) => e.event), ['status', 'status', 'check', 'check', 'check', 'check', 'end']);
  assert.deepEqual(seen.map((e) => e.id), ['1', '2', '3', '4', '5', '6', '7'], 'each event once, in order: the second connection sent Last-Event-ID');
  assert.equal((JSON.parse(seen.at(-1)!.data) as { run: { status: string } }).run.status, 'finished');
  assert.equal(headerCalls, 2, 'no connection after end');
});

test('a 401 (the cookie alone) is handed to the page, and nothing more is tried; close stops a live stream', async () => {
  const runId = await runningRun();
  const told: string[] = [];
  const refused = followEvents(`${server.url}/console/api/runs/${runId}/events`, {
    headers: () => ({ cookie: session.cookie! }),
    onEvent: () => told.push('event'),
    onUnauthorized: () => told.push('401'),
    onLost: (why) => told.push(why),
    retryMs: 10,
  });
  await refused.done;
  assert.deepEqual(told, ['401']);

  const events: string[] = [];
  const live = followEvents(`${server.url}/console/api/runs/${runId}/events`, { headers: () => session, onEvent: (e) => events.push(e.event), onUnauthorized: () => {}, onLost: () => {} });
  await until('the replay', () => events.length === 2);
  live.close();
  await live.done;
  server.fake.emitCheck(runId);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(events, ['status', 'status']);
  server.fake.finish(runId);
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
