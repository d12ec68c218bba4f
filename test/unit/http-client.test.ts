import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTransport, HttpClient, TransportError } from '../../src/http/client.ts';
import { Redactor } from '../../src/http/redact.ts';
import { TransientAnswerError } from '../../src/http/transient.ts';
import { buildOutgoing, PathOutsideTarget } from '../../src/http/outgoing.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { startServer } from '../support/servers.ts';

function client(baseUrl: string, options: { timeoutMs?: number; maxResponseBytes?: number } = {}) {
  const exchanges: RecordedExchange[] = [];
  const redactor = new Redactor([['top-secret-value', 'client_secret']]);
  const http = new HttpClient({ baseUrl, transport: createTransport(options), redactor, recorder: { record: (e) => exchanges.push(e) } });
  return { http, exchanges };
}

test('records the exchange with secrets redacted and a curl line using placeholders', async (t) => {
  const server = await startServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ echo: JSON.parse(body), access_token: 'issued-access-token-1' }));
    });
  });
  t.after(() => server.close());
  const { http, exchanges } = client(server.url);
  const res = await http.post('/v1/oauth/token', { json: { client_secret: 'top-secret-value' }, bearer: 'bearer-token-xyz', label: 'issue' });
  assert.equal(res.status, 200);
  assert.deepEqual((res.json as { echo: unknown }).echo, { client_secret: 'top-secret-value' }, 'the check itself sees real values');
  const [exchange] = exchanges;
  const text = JSON.stringify(exchange);
  for (const secret of ['top-secret-value', 'bearer-token-xyz', 'issued-access-token-1']) assert.ok(!text.includes(secret), `${secret} leaked`);
  assert.equal(exchange!.label, 'issue');
  assert.match(exchange!.curl, /\$PTAS_CLIENT_SECRET/);
  assert.match(exchange!.curl, /Bearer \$BEARER/);
});

test('repeated query parameters are sent as repeated keys', async (t) => {
  const server = await startServer((req, res) => res.end(req.url));
  t.after(() => server.close());
  const { http } = client(server.url);
  const res = await http.get('/q', { query: { 'user_journey[]': ['a', 'b'], user_flow: undefined } });
  assert.equal(decodeURIComponent(res.text), '/q?user_journey[]=a&user_journey[]=b');
});

test('a response over the cap is cut and marked truncated, not buffered whole', async (t) => {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < 200 && res.write(chunk)) sent++;
      if (sent >= 200) res.end();
      else res.once('drain', pump);
    };
    pump();
  });
  t.after(() => server.close());
  const { http } = client(server.url, { maxResponseBytes: 100_000 });
  const res = await http.get('/big');
  assert.equal(res.truncated, true);
  assert.equal(res.body.length, 100_000);
  assert.equal(res.json, undefined);
  assert.match(res.jsonError!, /cut off/);
});

test('a slow server hits the whole-exchange timeout as TransportError TIMEOUT, recorded as evidence', async (t) => {
  const server = await startServer((_req, res) => {
    res.writeHead(200);
    const timer = setInterval(() => res.write('x'), 100);
    res.on('close', () => clearInterval(timer));
  });
  t.after(() => server.close());
  const { http, exchanges } = client(server.url, { timeoutMs: 300 });
  const started = performance.now();
  await assert.rejects(http.get('/drip'), (e: unknown) => e instanceof TransportError && e.kind === 'TIMEOUT');
  assert.ok(performance.now() - started < 2_000);
  assert.equal(exchanges[0]!.error?.code, 'TIMEOUT');
});

test('redirects are not followed (so Authorization never travels to another origin)', async (t) => {
  let otherHits = 0;
  const other = await startServer((_req, res) => {
    otherHits++;
    res.end('{}');
  });
  const server = await startServer((_req, res) => {
    res.writeHead(302, { location: `${other.url}/steal` });
    res.end();
  });
  t.after(async () => {
    await server.close();
    await other.close();
  });
  const { http } = client(server.url);
  const res = await http.get('/', { bearer: 'bearer-token-redirect' });
  assert.equal(res.status, 302);
  assert.equal(otherHits, 0);
});

test('a refused connection is CONNECTION_REFUSED', async () => {
  const server = await startServer((_req, res) => res.end());
  const url = server.url;
  await server.close();
  const { http } = client(url);
  await assert.rejects(http.get('/'), (e: unknown) => e instanceof TransportError && e.kind === 'CONNECTION_REFUSED');
});

test('a connection reset mid-body is CONNECTION_RESET', async (t) => {
  const server = await startServer((req, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write('partial');
    setTimeout(() => req.socket.destroy(), 20);
  });
  t.after(() => server.close());
  const { http } = client(server.url);
  await assert.rejects(http.get('/'), (e: unknown) => e instanceof TransportError && e.kind === 'CONNECTION_RESET');
});

test('a 429 or 503 is asked again, honouring Retry-After; each attempt is evidence; still transient at the end: TransientAnswerError', async (t) => {
  let calls = 0;
  const server = await startServer((req, res) => {
    calls++;
    const transient = req.url === '/always' || calls <= 2;
    res.writeHead(transient ? (calls % 2 ? 503 : 429) : 200, transient ? { 'retry-after': '0' } : {});
    res.end();
  });
  t.after(() => server.close());
  const { http, exchanges } = client(server.url);
  const res = await http.post('/v1/oauth/token', { json: {}, label: 'issue' });
  assert.equal(res.status, 200);
  assert.deepEqual(exchanges.map((e) => e.response?.status), [503, 429, 200]);
  assert.match(exchanges[2]!.label!, /attempt 3, after 429/);

  calls = 0;
  await assert.rejects(http.get('/always', { label: 'always busy' }), (error: unknown) => {
    assert.ok(error instanceof TransientAnswerError);
    assert.match(error.checkReason(), /^not observed: GET \/always was answered 503, 429, 503, 429, 503, 429 in 6 attempts/);
    return true;
  });
  calls = 0;
  assert.equal((await http.get('/always', { once: true })).status, 503, 'once: the transient answer comes back as it is');
});

test('a connection reset is asked again for an idempotent method only (RFC 9110 9.2.2)', async (t) => {
  let calls = 0;
  const server = await startServer((req, res) => {
    calls++;
    if (calls === 1) return req.socket.destroy();
    res.end('{}');
  });
  t.after(() => server.close());
  const { http } = client(server.url);
  assert.equal((await http.get('/x')).status, 200);
  calls = 0;
  await assert.rejects(http.post('/x', { json: {} }), (error: unknown) => error instanceof TransportError && error.kind === 'CONNECTION_RESET');
});

test('a request that may not be sent twice goes on a connection of its own: a kept-alive one the service is closing as idle cannot reset it', async (t) => {
  // The service's side of the keep-alive race: the second request on a connection arrives as the service gives the connection up.
  const served = new WeakMap<object, number>();
  let connections = 0;
  const server = await startServer((req, res) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    if (n === 1) connections++;
    if (n > 1) return req.socket.destroy();
    res.end('{}');
  });
  t.after(() => server.close());
  const { http } = client(server.url);
  for (const n of [1, 2, 3]) assert.equal((await http.post('/token', { json: { n } })).status, 200, `POST ${n}`);
  assert.equal(connections, 3, 'each POST opened its own connection');
  connections = 0;
  assert.equal((await http.get('/a')).status, 200);
  // The GET after it reuses the kept-alive connection, is reset, and is asked again on a new one (it may be).
  assert.equal((await http.get('/b')).status, 200);
  assert.equal(connections, 2, 'GETs keep their connection alive');
});

test('a gateway\'s 502 or 504 is asked again for an idempotent method only; each attempt names the one it repeats (retryOf)', async (t) => {
  let calls = 0;
  const server = await startServer((req, res) => {
    calls++;
    if (calls <= 2) {
      res.writeHead(calls === 1 ? 502 : 504, { 'content-type': 'text/html', ...(calls === 1 ? { 'retry-after': '0' } : {}) });
      return res.end('<html><h1>Bad Gateway</h1></html>');
    }
    res.end('{}');
  });
  t.after(() => server.close());
  const { http, exchanges } = client(server.url);
  assert.equal((await http.get('/v2/users/u1', { label: 'user details' })).status, 200);
  assert.deepEqual(exchanges.map((e) => e.response?.status), [502, 504, 200]);
  assert.deepEqual(exchanges.map((e) => e.retryOf), [undefined, exchanges[0]!.id, exchanges[1]!.id], 'each later attempt names the attempt it repeats');
  assert.match(exchanges[2]!.label!, /^user details \(attempt 3, after 504\)$/);

  // A POST or PATCH may have reached the service behind the gateway: it is not sent again, and the check is ERROR "not observed".
  for (const send of [() => http.post('/v1/crypto-transfers/addresses/withdrawals', { json: {} }), () => http.patch('/v1/offers/o1/accept', { json: {} })]) {
    calls = 0;
    exchanges.length = 0;
    await assert.rejects(send(), (error: unknown) => {
      assert.ok(error instanceof TransientAnswerError);
      assert.match(error.checkReason(), /^not observed: (POST|PATCH) \/v1\/\S+ was answered 502, a gateway's answer that may come after the service acted on the request, so a (POST|PATCH) is not sent again \(RFC 9110 9\.2\.2\)/);
      return true;
    });
    assert.equal(exchanges.length, 1, 'sent once');
  }
  // A 503 says the request was not handled: asked again whatever the method (the evidence of a retry after a 503 names it too).
  let busy = 0;
  const unavailable = await startServer((_req, res) => {
    busy++;
    res.writeHead(busy === 1 ? 503 : 200, { 'retry-after': '0' });
    res.end('{}');
  });
  t.after(() => unavailable.close());
  const other = client(unavailable.url);
  assert.equal((await other.http.post('/v1/oauth/token', { json: {} })).status, 200);
  assert.equal(other.exchanges[1]!.retryOf, other.exchanges[0]!.id);
});

test('a relative path never leaves the target: one that would name another host or port after the base URL is refused before anything is sent', () => {
  const redactor = new Redactor();
  const base = 'https://sandbox.acme.example';
  assert.equal(buildOutgoing(base, { method: 'GET', path: '/v2/users/1' }, redactor).url.href, 'https://sandbox.acme.example/v2/users/1');
  assert.equal(buildOutgoing(`${base}/api/`, { method: 'GET', path: '/v2/users/1' }, redactor).url.href, 'https://sandbox.acme.example/api/v2/users/1');
  assert.equal(buildOutgoing(base, { method: 'GET', path: 'https://keys.acme.example/jwks.json' }, redactor).url.host, 'keys.acme.example', 'an absolute URL is written out whole');
  for (const path of ['@169.254.169.254/latest/meta-data', '.evil.example/x', ':8443/x']) {
    assert.throws(() => buildOutgoing(base, { method: 'GET', path }, redactor), PathOutsideTarget, path);
  }
});
