// A client that sends its request a byte at a time holds a connection (and
// its buffers) for as long as it likes unless the server bounds how long a
// whole request may take (issue 28, finding 2: one byte every 5 s to
// POST /login stayed open 150 s and more). Against a real `ptas serve` with
// its console and a short request time-out: a body dribbled to the console's
// login and to the API is cut off (the socket closes) soon after the
// time-out, while a request that arrives whole in time is answered, and a
// run's event stream, a response that lasts, stays open past the request
// time-out and delivers its events to the end.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { readEvents, startConsoleTestServer, waitForRun, type TestServer } from '../serve/support.ts';

const REQUEST_TIMEOUT_MS = 1_000;
/** How long the test waits for the server to close a dribbling socket: the time-out, the server's checking interval and a loaded machine's slack. */
const GIVE_UP_MS = 15_000;

let lab: TestServer;
before(async () => {
  lab = await startConsoleTestServer({ requestTimeoutMs: REQUEST_TIMEOUT_MS });
});
after(async () => {
  await lab?.close();
});

interface Dribbled {
  /** Whether the server closed the socket before the test gave up. */
  closedByServer: boolean;
  afterMs: number;
  bytesSent: number;
  answer: string;
}

/** Sends the head, then the body one byte every `everyMs` (never idle long), until the server closes the socket or GIVE_UP_MS pass. */
function dribble(url: string, head: string, body: string, everyMs = 200): Promise<Dribbled> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedByServer, afterMs: performance.now() - started, bytesSent: sent, answer });
    };
    const giveUp = setTimeout(() => finish(false), GIVE_UP_MS);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent < body.length) socket.write(body[sent++]!);
      }, everyMs);
    });
  });
}

test('a body dribbled to the console\'s login is cut off after the request time-out', async () => {
  const body = `token=${'x'.repeat(400)}`;
  const { host } = new URL(lab.url);
  const result = await dribble(lab.url, `POST /login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`, body);
  assert.ok(result.closedByServer, `the socket was still open after ${GIVE_UP_MS} ms (${result.bytesSent} bytes sent)`);
  assert.ok(result.bytesSent < body.length, 'the body never finished');
  assert.match(result.answer, /^(HTTP\/1\.1 408 |$)/, result.answer);
});

test('a body dribbled to the API is cut off after the request time-out too', async () => {
  const body = JSON.stringify({ name: 'Slow', profileText: `{ "baseUrl": "https://sandbox.example.com" } // ${'x'.repeat(400)}` });
  const { host } = new URL(lab.url);
  const result = await dribble(
    lab.url,
    `PUT /api/implementations/slow HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${lab.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    body,
  );
  assert.ok(result.closedByServer, `the socket was still open after ${GIVE_UP_MS} ms (${result.bytesSent} bytes sent)`);
  assert.equal((await lab.call('GET', '/api/implementations/slow')).status, 404, 'nothing was stored');
});

test('a request sent in pieces within the time-out is answered; an event stream lasts past it and ends with its run', async () => {
  const { host } = new URL(lab.url);
  const body = `token=${encodeURIComponent(lab.token)}&next=%2F`;
  const quick = await dribble(lab.url, `POST /login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`, body, 1);
  assert.match(quick.answer, /^HTTP\/1\.1 200 [\s\S]*Signing in/, quick.answer);

  // A run that runs, and one waiting behind it: the waiting run's stream is quiet until it is cancelled.
  const ahead = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false, grep: '@check:auth\\.token-response-is-json' } } });
  const waiting = await lab.call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false } } });
  assert.equal(waiting.json.status, 'queued', waiting.text);
  const opened = performance.now();
  const stream = readEvents(lab.url, lab.token, waiting.json.id);
  await new Promise((resolve) => setTimeout(resolve, 3 * REQUEST_TIMEOUT_MS));
  await lab.call('POST', `/api/runs/${waiting.json.id}/cancel`);
  const { events } = await stream;
  assert.ok(performance.now() - opened > 3 * REQUEST_TIMEOUT_MS);
  assert.deepEqual(events.map((e) => e.event).slice(-2), ['status', 'end'], 'the stream delivered its run\'s end');
  await lab.call('POST', `/api/runs/${ahead.json.id}/cancel`);
  await waitForRun(lab.call, ahead.json.id, ['cancelled', 'finished']);
});

test('a connection time-out shorter than an event stream\'s quiet stretch or a cancel\'s wait is refused when the server is made', async () => {
  await assert.rejects(startConsoleTestServer({ connectionTimeoutMs: 5_000 }), /connectionTimeoutMs must be .* at least 20000 \(event streams are quiet for 15000 ms between heartbeats, a cancel waits up to 15000 ms\); got 5000/);
});
