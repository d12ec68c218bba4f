// The engine's transports end to end (load/engine/open-transport.ts): the raw
// HTTP/1.1 socket path against servers that answer in chunks, in pieces,
// with Connection: close, with 429 and Retry-After, with garbage or not at
// all; values extracted from one answer into the next request; the bound on
// connections; and the undici fallback taken for TLS, still correct.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runEngine, type EngineOptions } from '../../load/engine/engine.ts';
import { transportKindFor } from '../../load/engine/open-transport.ts';
import type { LoadScenario, RequestTemplate } from '../../load/scenarios/types.ts';
import { makePki, startTlsFront } from '../support/tls.ts';

interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A server speaking raw bytes: reply(request, socket) writes whatever the test wants. */
async function rawServer(reply: (request: Received, socket: net.Socket) => void) {
  const stats = { connections: 0, requests: [] as Received[] };
  const server = net.createServer((socket) => {
    stats.connections++;
    let pending = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [line, ...fields] = pending.subarray(0, end).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (pending.length < end + 4 + length) return;
        const [method, path] = line!.split(' ');
        const request = { method: method!, path: path!, headers, body: pending.subarray(end + 4, end + 4 + length).toString() };
        pending = pending.subarray(end + 4 + length);
        stats.requests.push(request);
        reply(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const get: RequestTemplate = { name: 'get', method: 'GET', path: '/thing' };

/**
 * No more than the planned arrivals, most of them sent: on a busy machine the
 * generator drops arrivals it could not start on time (or never reaches them
 * before the phase ends), so the tests judge what happened to the requests
 * sent, never how many a loaded CPU could send.
 */
function assertAllAccountedFor(p: { sent: number; dropped: number }, planned: number): void {
  assert.ok(p.sent + p.dropped <= planned, `${p.sent} sent and ${p.dropped} dropped of ${planned} planned`);
  assert.ok(p.sent >= planned / 2, `only ${p.sent} of ${planned} sent`);
}

function run(url: string, rate: number, iteration: RequestTemplate[] = [get], extra: Partial<EngineOptions> = {}) {
  const scenarios: LoadScenario['scenarios'] = { main: { executor: 'constant-arrival-rate', rate, duration: '500ms', preAllocatedVUs: 2, maxVUs: 50 } };
  return runEngine({ baseUrl: url, variables: {}, scenario: { name: 'transport-test', iteration, scenarios, thresholds: {} }, ...extra });
}

test('chunked answers written in pieces, and Connection: close on every answer: all read, one connection per request', async () => {
  const server = await rawServer((_request, socket) => {
    const parts = ['HTTP/1.1 200 OK\r\nTransfer-', 'Encoding: chunked\r\nConnection: close\r\n\r\n8\r\n{"ok', '":1}\r\n', '0\r\n\r\n'];
    // Each piece 3 ms after the previous one was written. Not one timer per piece (0, 3, 6, 9 ms): on a busy
    // machine timers of different delays that are all overdue fire in any order, and the pieces went out
    // shuffled (the engine then rightly found the answer malformed).
    const writePiece = (i: number): void => void socket.write(parts[i]!, () => (i === parts.length - 1 ? socket.end() : setTimeout(() => writePiece(i + 1), 3)));
    writePiece(0);
  });
  try {
    const result = await run(server.url, 40);
    const p = result.phases[0]!;
    assertAllAccountedFor(p, 20);
    assert.equal(p.answers['2xx'], p.sent, JSON.stringify(p.errors));
    assert.equal(server.stats.connections, p.sent, 'a closed connection is never reused');
  } finally {
    await server.stop();
  }
});

test('keep-alive: a steady rate reuses its connections', async () => {
  const server = await rawServer((_request, socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
  try {
    const p = (await run(server.url, 100)).phases[0]!;
    assertAllAccountedFor(p, 50);
    assert.equal(p.answers['2xx'], p.sent);
    assert.ok(server.stats.connections <= 5, `${server.stats.connections} connections for 50 sequential requests`);
  } finally {
    await server.stop();
  }
});

test('a malformed answer is a transport failure under its code, not a crash', async () => {
  const server = await rawServer((_request, socket) => socket.write('HTTP/1.1 OK 200\r\n\r\n'));
  try {
    const p = (await run(server.url, 20)).phases[0]!;
    assertAllAccountedFor(p, 10);
    assert.equal(p.answers.transport, p.sent);
    assert.deepEqual(p.errors, { HPE_INVALID_RESPONSE: p.sent });
  } finally {
    await server.stop();
  }
});

test('a request HTTP/1.1 cannot carry (a line break in a header value) fails under its code, and nothing is sent', async () => {
  const server = await rawServer((_request, socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
  try {
    const p = (await run(server.url, 20, [{ ...get, headers: { 'x-user': '{user}' } }], { variables: { user: 'a\r\nx-injected: 1' } })).phases[0]!;
    assertAllAccountedFor(p, 10);
    assert.deepEqual(p.errors, { ERR_INVALID_REQUEST: p.sent });
    assert.equal(server.stats.requests.length, 0);
  } finally {
    await server.stop();
  }
});

test('429 with Retry-After and RateLimit fields: counted and sampled as the rate-limit probe reads them', async () => {
  const server = await rawServer((_request, socket) =>
    socket.write('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nRateLimit: limit=10, remaining=0, reset=3\r\nContent-Length: 0\r\n\r\n'),
  );
  try {
    const result = await run(server.url, 20, [get], { rateLimitExpected: true, headerSamplesPerPhase: 2 });
    assertAllAccountedFor(result.phases[0]!, 10);
    assert.equal(result.phases[0]!.answers['429'], result.phases[0]!.sent);
    assert.deepEqual(
      result.headerSamples.map((s) => [s.status, s.headers['retry-after'], s.headers['ratelimit']]),
      [
        [429, '3', 'limit=10, remaining=0, reset=3'],
        [429, '3', 'limit=10, remaining=0, reset=3'],
      ],
    );
  } finally {
    await server.stop();
  }
});

test('values extracted from a JSON answer fill the next request, and are captured', async () => {
  let next = 0;
  const server = await rawServer((request, socket) => {
    const body = request.path === '/offers' ? JSON.stringify({ id: `o-${++next}` }) : request.body;
    socket.write(`HTTP/1.1 ${request.path === '/offers' ? 201 : 202} X\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  });
  try {
    const iteration: RequestTemplate[] = [
      { name: 'create', method: 'POST', path: '/offers', json: {}, extract: { offerId: '/id' }, setup: true },
      { name: 'accept', method: 'POST', path: '/offers/{offerId}/accept', json: { offer: '{offerId}' } },
    ];
    const result = await run(server.url, 20, iteration, { capture: { status: 202, variables: ['offerId'], limit: 3 } });
    const accepted = server.stats.requests.filter((r) => r.path.endsWith('/accept'));
    const p = result.phases[0]!;
    assertAllAccountedFor(p, 10);
    assert.equal(accepted.length, p.sent);
    for (const r of accepted) assert.equal(JSON.parse(r.body).offer, r.path.split('/')[2], 'the body carries the offer its path names');
    assert.equal(p.answers['2xx'], p.sent, 'setup requests are not measured');
    assert.equal(result.captured?.length, 3);
  } finally {
    await server.stop();
  }
});

test('a server that never answers: each request fails by its time limit', async () => {
  const server = await rawServer(() => {});
  try {
    const started = performance.now();
    const p = (await run(server.url, 10, [get], { timeoutMs: 200 })).phases[0]!;
    assertAllAccountedFor(p, 5);
    assert.deepEqual(p.errors, { ETIMEDOUT: p.sent });
    // A 0.5 s phase and a 200 ms limit: well under 5 s even on a loaded machine, far under the engine's own default limit.
    assert.ok(performance.now() - started < 5_000);
  } finally {
    await server.stop();
  }
});

test('a connection bound below the in-flight bound: requests wait for a connection, none dropped', async () => {
  const server = await rawServer((_request, socket) => setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), 30));
  try {
    const p = (await run(server.url, 100, [get], { maxConnections: 2 })).phases[0]!;
    assertAllAccountedFor(p, 50);
    assert.equal(p.answers['2xx'], p.sent);
    assert.equal(p.dropped, p.late ?? 0, 'no arrival dropped for the in-flight bound: they wait for a connection');
    assert.equal(server.stats.connections, 2);
    assert.ok(p.latency['2xx']!.maxMs > 100, 'the wait for a connection counts in the latency');
  } finally {
    await server.stop();
  }
});

test('the fast path only where it can serve: https, TLS material, framing headers go to undici', () => {
  assert.equal(transportKindFor({ baseUrl: 'http://127.0.0.1:1' }, [get]).kind, 'socket');
  assert.equal(transportKindFor({ baseUrl: 'http://127.0.0.1:1', tls: { rejectUnauthorized: false } }, [get]).kind, 'undici');
  assert.equal(transportKindFor({ baseUrl: 'https://127.0.0.1:1' }, [get]).kind, 'undici');
  assert.equal(transportKindFor({ baseUrl: 'http://127.0.0.1:1' }, [{ ...get, headers: { 'Transfer-Encoding': 'chunked' } }]).kind, 'undici');
  assert.equal(transportKindFor({ baseUrl: 'http://127.0.0.1:1' }, [get], 'undici').kind, 'undici');
});

test('with TLS material the engine takes undici, and it answers correctly over https', async () => {
  const upstream = createServer((req, res) => res.writeHead(req.url === '/thing' ? 200 : 404, { 'content-length': '0' }).end());
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const pki = makePki();
  const front = await startTlsFront(pki, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, { requireClientCert: false });
  try {
    const { readFileSync } = await import('node:fs');
    const p = (await run(front.url, 20, [get], { tls: { ca: readFileSync(pki.caCert), rejectUnauthorized: true } })).phases[0]!;
    assertAllAccountedFor(p, 10);
    assert.equal(p.answers['2xx'], p.sent, JSON.stringify(p.errors));
  } finally {
    await front.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
});
