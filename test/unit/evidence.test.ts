// The one evidence builder (src/http/evidence.ts) through its three callers:
// the HTTP client, a received webhook delivery and the 413 probe's raw sized
// exchanges. Each keeps secrets out of the URL, headers, body and curl line;
// each keeps its body by its own policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTransport, HttpClient } from '../../src/http/client.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { Redactor, secretMarker } from '../../src/http/redact.ts';
import type { ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { deliveryExchange } from '../../src/webhooks/evidence.ts';
import type { SizedExchange } from '../../load/probes/body-size/run.ts';
import { sizedEvidence } from '../../load/probes/body-size/evidence.ts';
import { startServer } from '../support/servers.ts';

const SECRET = 'top-secret-value';
const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJjbGllbnQiLCJqdGkiOiIxMjM0In0.c2lnbmF0dXJlLWJ5dGVz';
const redactor = () => new Redactor([[SECRET, 'client_secret']]);

function assertNoLeak(exchange: RecordedExchange, secrets: string[]): void {
  const text = JSON.stringify(exchange);
  for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} leaked`);
}

test('the client: URL, headers and JSON body redacted; the curl line has placeholders and the body on one line', async (t) => {
  const server = await startServer((req, res) => req.resume().on('end', () => res.end('{}')));
  t.after(() => server.close());
  const exchanges: RecordedExchange[] = [];
  const http = new HttpClient({ baseUrl: server.url, transport: createTransport({}), redactor: redactor(), recorder: { record: (e) => exchanges.push(e) } });
  await http.post('/v1/oauth/token', {
    query: { hint: SECRET },
    headers: { 'x-api-key': 'api-key-123456' },
    bearer: JWT,
    json: { client_secret: SECRET, refresh_token: 'first-seen-refresh-1' },
    label: 'refresh',
  });
  const [exchange] = exchanges;
  assertNoLeak(exchange!, [SECRET, JWT, 'api-key-123456', 'first-seen-refresh-1']);
  assert.ok(exchange!.request.url.endsWith(`?hint=${secretMarker('client_secret', SECRET)}`));
  assert.match(exchange!.request.headers['authorization']!, /^Bearer «/);
  assert.deepEqual(JSON.parse(exchange!.request.body!), {
    client_secret: secretMarker('client_secret', SECRET),
    refresh_token: secretMarker('refresh_token', 'first-seen-refresh-1'),
  });
  assert.equal(exchange!.request.bodyBytes, Buffer.byteLength(JSON.stringify({ client_secret: SECRET, refresh_token: 'first-seen-refresh-1' })));
  const curl = exchange!.curl;
  assert.match(curl, /\?hint=\$PTAS_CLIENT_SECRET/);
  assert.match(curl, /Bearer \$BEARER/);
  assert.match(curl, /x-api-key: \$X_API_KEY/);
  assert.ok(curl.endsWith(`--data-raw "{\\"client_secret\\": \\"$PTAS_CLIENT_SECRET\\",\\"refresh_token\\": \\"$REFRESH_TOKEN\\"}"`), curl);
  assert.ok(!curl.includes('\n'), 'the curl body is folded onto one line');
});

function delivery(body: string): ReceivedDelivery {
  return {
    seq: 2,
    method: 'POST',
    requestTarget: `/hook?t=${SECRET}`,
    targetUri: `https://receiver.test/hook?t=${SECRET}`,
    fieldLines: [
      ['content-type', 'application/json'],
      ['signature', 'sig1=:c2lnbmF0dXJl:'],
      ['x-bts-idempotency-key', 'key-1'],
    ],
    body: Buffer.from(body),
    bodyTruncated: false,
    receivedAt: new Date(0),
    receivedAtMs: 0,
    answer: { status: 204, delayMs: 12, written: true },
  } as ReceivedDelivery;
}

test('a delivery: the body kept byte for byte but for known secrets, the signature hidden, a replayable curl line', () => {
  // Spacing, key order and a secret-named key a structured redaction would rewrite: a reader recomputes the digest over these bytes.
  const body = `{"event":"trade",  "client_secret":"x",\n  "echo":"${SECRET}"}`;
  const exchange = deliveryExchange(delivery(body), redactor());
  assertNoLeak(exchange, [SECRET, 'c2lnbmF0dXJl']);
  assert.equal(exchange.request.body, body.replace(SECRET, secretMarker('client_secret', SECRET)));
  assert.equal(exchange.request.bodyBytes, Buffer.byteLength(body));
  assert.equal(exchange.request.url, `https://receiver.test/hook?t=${secretMarker('client_secret', SECRET)}`);
  assert.match(exchange.request.headers['signature']!, /^«signature#/);
  assert.equal(exchange.label, "delivery #2 to the suite's receiver (key key-1)");
  assert.deepEqual(exchange.response, { status: 204, headers: {}, bodyBytes: 0, truncated: false });
  assert.match(exchange.curl, /hook\?t=\$PTAS_CLIENT_SECRET/);
  assert.match(exchange.curl, /signature: \$SIGNATURE/);
  assert.ok(exchange.curl.includes(`"client_secret":"x",\n  "echo":"$PTAS_CLIENT_SECRET"`.replace(/"/g, '\\"')), 'the curl body is the delivery as received');
  assert.equal(deliveryExchange(delivery(''), redactor()).request.body, undefined, 'an empty delivery body shows as none');
});

function sized(requestBody: string, sizeBytes: number): SizedExchange {
  return {
    step: { purpose: 'boundary', sizeBytes, framing: 'content-length', outcome: 'accepted', status: 200, durationMs: 4 },
    url: `http://target.test/v1/oauth/token?s=${SECRET}`,
    method: 'POST',
    requestHeaders: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${SECRET}` },
    requestBody,
    response: {
      outcome: 'accepted',
      status: 200,
      headers: { 'set-cookie': 'session=cookie-value-1' },
      body: '{"access_token":"issued-access-1"}',
      durationMs: 4,
      bytesSent: sizeBytes,
      beforeBodyComplete: false,
      resetAfterResponse: false,
    },
  };
}

test('a sized exchange: redacted like the client, the padded body clipped with a note, the declared size kept', () => {
  const small = 'grant_type=client_credentials&client_secret=' + SECRET;
  const [exchange] = sizedEvidence([sized(small, 70_000)], redactor());
  assertNoLeak(exchange!, [SECRET, 'cookie-value-1', 'issued-access-1']);
  assert.equal(exchange!.id, 900_000_000);
  assert.equal(exchange!.label, 'boundary: 70000-byte body, content-length');
  assert.equal(exchange!.request.body, `grant_type=client_credentials&client_secret=${secretMarker('client_secret', SECRET)}`);
  assert.equal(exchange!.request.bodyBytes, 70_000, 'the size probed, not the characters kept');
  assert.equal(exchange!.request.headers['content-length'], '70000');
  assert.equal(exchange!.request.headers['authorization'], `Basic ${secretMarker('client_secret', SECRET)}`);
  assert.equal(exchange!.request.url, `http://target.test/v1/oauth/token?s=${secretMarker('client_secret', SECRET)}`);
  assert.ok(exchange!.curl.endsWith('--data-raw "grant_type=client_credentials&client_secret=$PTAS_CLIENT_SECRET"'), exchange!.curl);
  assert.match(exchange!.curl, /token\?s=\$PTAS_CLIENT_SECRET/);
  assert.match(exchange!.curl, /authorization: Basic \$PTAS_CLIENT_SECRET/);

  const padded = `${small}&pad=${'x'.repeat(5000)}`;
  const [clipped] = sizedEvidence([sized(padded, padded.length)], redactor());
  const redacted = padded.replace(SECRET, secretMarker('client_secret', SECRET));
  assert.equal(clipped!.request.body, `${redacted.slice(0, 2048)}… [${redacted.length - 2048} more characters of padding not kept]`);
  assert.ok(!clipped!.curl.includes(SECRET));
});
