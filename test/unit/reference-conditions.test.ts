// The reference's conditions (reference/conditions/) over real HTTP on
// 127.0.0.1: each behaves as its catalogue entry says, composes with the
// others, and leaves the reference as it was when not named. The slow ones
// (6 s webhooks, 65 s processing) are proven by their schedule and by the
// first second of their effect, not by waiting them out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from '../../reference/options.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { profileHints } from '../../reference/profile-hints.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { CONDITIONS, ConditionSet } from '../../reference/conditions/index.ts';
import { answerDelayMs, LATENCY_MAX_MS, LATENCY_MIN_MS } from '../../reference/conditions/latency.ts';
import { TransientAnswers } from '../../reference/conditions/transient-answers.ts';
import { TRANSIENT_PERIOD } from '../../reference/conditions/transient-period.ts';
import { GatewayPages } from '../../reference/conditions/gateway-html.ts';
import { ACCEPT_ROUTE } from '../../reference/routes/accept.ts';
import { WITHDRAWAL_ADDRESS_ROUTE } from '../../reference/routes/crypto-transfers.ts';
import { TOKEN_ROUTE } from '../../reference/routes/token.ts';
import { LONG_PROCESSING_MS, longProcessingDefaults, withLongProcessing } from '../../reference/conditions/long-processing.ts';
import { referenceClock } from '../../reference/conditions/second-resolution.ts';
import { SHORT_TOKEN_LIFETIME_SECONDS } from '../../reference/conditions/short-token-lifetime.ts';
import { deliverySchedule } from '../../reference/webhooks/schedule.ts';
import { FaultSet } from '../../reference/faults/index.ts';
import { VariantSet } from '../../reference/variants/index.ts';
import { OfferBook } from '../../reference/trading/offer-book.ts';
import { validateProfile } from '../../src/config/validate.ts';
import { withFreshValues } from '../../src/placeholders.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const JWKS = '/.well-known/jwks.json';
const NAMES = ['latency', 'connection-close', 'proxy-html', 'transient-503', 'transient-429', 'gateway-html', 'slow-webhooks', 'deterministic-tokens', 'second-resolution', 'short-token-lifetime', 'slow-processing', 'long-processing'];
const NO_FRACTION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  ms: number;
}

/** A reference under `conditions` on a free port, with a roomy token limit, and a caller that retries transient answers (429, 502, 503, 504) when asked to. */
async function withReference(conditions: string[], body: (r: Helpers) => Promise<void>, more: Partial<ReferenceOptions> = {}): Promise<void> {
  const ref = await startReference({ port: 0, tokenRatePerSecond: 1_000, tokenBurst: 1_000, conditions, ...more });
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; retry?: boolean } = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...init.headers, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) };
    for (;;) {
      const t0 = performance.now();
      const res = await fetch(ref.url + path, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
      const text = await res.text();
      const answer = { status: res.status, headers: res.headers, text, json: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined, ms: performance.now() - t0 };
      // Every transient answer a condition may give: transient-503/429, and gateway-html's 502/504 to a GET (from a random phase, so possibly the first).
      if (!init.retry || ![429, 502, 503, 504].includes(answer.status)) return answer;
    }
  };
  const grant = () => call('POST', '/v1/oauth/token', { json: { grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret }, retry: true });
  const bearer = async () => ({ authorization: `Bearer ${(await grant()).json.access_token}` });
  try {
    await body({ ref, call, grant, bearer });
  } finally {
    await ref.close();
  }
}

interface Helpers {
  ref: RunningReference;
  call: (method: string, path: string, init?: { headers?: Record<string, string>; json?: unknown; retry?: boolean }) => Promise<Answer>;
  grant: () => Promise<Answer>;
  bearer: () => Promise<Record<string, string>>;
}

/** Sends one keep-alive request on a raw socket; resolves with what came back and whether the server then closed the connection. */
function rawExchange(url: string, path: string): Promise<{ head: string; closedByServer: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const done = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ head: received.split('\r\n\r\n')[0]!, closedByServer });
    };
    socket.on('data', (chunk) => {
      received += chunk;
      // Answered; a server that keeps the connection leaves it open well past this.
      if (received.includes('\r\n\r\n')) timer ??= setTimeout(() => done(false), 500);
    });
    socket.once('end', () => done(true));
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

test('the catalogue holds the twelve conditions, each with what it does and what it touches; unknown names are refused', () => {
  assert.deepEqual(CONDITIONS.map((c) => c.name), NAMES);
  for (const c of CONDITIONS) assert.ok(c.description.length > 20 && (c.touches === 'all' || c.touches.length > 0), c.name);
  assert.throws(() => new ConditionSet(['latency', 'nope']), /unknown condition: nope \(see --list-conditions\)/);
  assert.throws(() => new ConditionSet([]).has('latancy'), /reference bug: condition latancy/);
});

test('with no condition the reference and its profile are as before: no delay, keep-alive, Node\'s own 431 for a 20 kB query, jti in access tokens', async () => {
  assert.deepEqual(referenceProfile('http://h', { conditions: [] }), referenceProfile('http://h'));
  await withReference([], async ({ ref, call, grant }) => {
    assert.equal((await rawExchange(ref.url, JWKS)).closedByServer, false);
    assert.equal((await call('GET', `/v2/users/x?f=${'a'.repeat(20_000)}`)).status, 431);
    const [a, b] = [await grant(), await grant()];
    assert.notEqual(a.json.access_token, b.json.access_token);
    assert.equal(typeof decodeJwt(a.json.access_token).jti, 'string');
  });
});

test('latency: every answer comes 50-250 ms late, after the operation ran', async () => {
  assert.equal(answerDelayMs(() => 0), LATENCY_MIN_MS);
  assert.equal(answerDelayMs(() => 0.999_999), LATENCY_MIN_MS + 0.999_999 * (LATENCY_MAX_MS - LATENCY_MIN_MS));
  await withReference(['latency'], async ({ call }) => {
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await call('GET', i % 2 ? JWKS : '/no-such-operation');
      assert.equal(answer.status, i % 2 ? 200 : 404, 'answers are unchanged, only late');
      times.push(answer.ms);
    }
    // A timer never fires early; a loaded machine may add a little on top.
    for (const ms of times) assert.ok(ms >= LATENCY_MIN_MS - 1 && ms <= LATENCY_MAX_MS + 200, `${ms.toFixed(0)} ms: ${times.map(Math.round).join(', ')}`);
  });
});

test('connection-close: every answer says Connection: close and the server closes the connection after it', async () => {
  await withReference(['connection-close'], async ({ ref, call }) => {
    for (const path of [JWKS, '/no-such-operation']) {
      const { head, closedByServer } = await rawExchange(ref.url, path);
      assert.match(head, /^connection: close$/im, head);
      assert.equal(closedByServer, true, `${path}: the connection stayed open`);
    }
    assert.equal((await call('GET', JWKS)).headers.get('connection'), 'close');
  });
});

test('proxy-html: a request-target over 8 KiB is 414 and a NUL byte is 400, both HTML, before the service; everything else passes', async () => {
  await withReference(['proxy-html'], async ({ call, bearer }) => {
    const auth = await bearer();
    const userPath = `/v2/users/${seedUsers(1)[0]!.id}`;
    const refused = [
      [`${userPath}?filler=${'f'.repeat(20_000)}`, 414],
      [`${userPath}?user_flow=%00onboard`, 400],
      ['/v2/users/%00', 400],
      [`${userPath}?x=%00`, 400],
    ] as const;
    for (const [path, status] of refused) {
      const answer = await call('GET', path, { headers: auth });
      assert.equal(answer.status, status, path.slice(0, 60));
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(answer.text, new RegExp(`<html>[\\s\\S]*<h1>${status} `));
    }
    const passed = await call('GET', `${userPath}?filler=${'f'.repeat(4_000)}`, { headers: auth });
    assert.equal(passed.status, 200, 'a 4 kB query reaches the service');
    assert.equal(passed.json.data.id, seedUsers(1)[0]!.id);
    assert.equal((await call('GET', '/v2/users/not-a-uuid', { headers: auth })).headers.get('content-type'), 'application/json', 'the service\'s own refusals stay JSON');
  });
});

/** The statuses of `count` requests to each of `paths`, interleaved, per path. */
async function statusRuns(call: Helpers['call'], paths: string[], count: number): Promise<Map<string, Answer[]>> {
  const runs = new Map(paths.map((p) => [p, [] as Answer[]]));
  for (let i = 0; i < count; i++) for (const path of paths) runs.get(path)!.push(await call('GET', path));
  return runs;
}

function assertTransientEvery20th(answers: Answer[], status: number, label: string): void {
  const at = answers.flatMap((a, i) => (a.status === status ? [i] : []));
  assert.equal(at.length, answers.length / TRANSIENT_PERIOD, `${label}: ${status} at ${at.join(', ')}`);
  at.slice(1).forEach((i, k) => assert.equal(i - at[k]!, TRANSIENT_PERIOD, `${label}: every 20th`));
  for (const i of at) {
    assert.equal(answers[i]!.headers.get('retry-after'), '1');
    assert.equal(answers[i]!.headers.get('content-type'), 'application/json');
    assert.equal(typeof answers[i]!.json.error.code, 'string', 'the reference\'s error body');
  }
  assert.ok(answers.every((a) => a.status === status || a.status === 200), `${label}: only 200 otherwise`);
}

for (const status of [503, 429] as const) {
  test(`transient-${status}: every 20th request of each operation is ${status} with Retry-After: 1 and a JSON error, never twice in a row`, async () => {
    await withReference([`transient-${status}`], async ({ call }) => {
      const runs = await statusRuns(call, [JWKS, '/reference/v1/webhooks/jwks.json'], 2 * TRANSIENT_PERIOD);
      for (const [path, answers] of runs) assertTransientEvery20th(answers, status, path);
      assert.equal((await call('GET', '/no-such-operation')).status, 404, 'no operation, no transient answer: the router\'s own 404');
    });
  });
}

test('gateway-html: every 20th request of an operation gets the gateway\'s HTML page — 502/504 in turn to a GET, 503 to the token endpoint —, every other one with Retry-After, never twice in a row', async () => {
  await withReference(['gateway-html'], async ({ ref, call }) => {
    const runs = await statusRuns(call, [JWKS, '/reference/v1/webhooks/jwks.json'], 4 * TRANSIENT_PERIOD);
    for (const [path, answers] of runs) {
      const at = answers.flatMap((a, i) => (a.status !== 200 ? [i] : []));
      assert.equal(at.length, 4, `${path}: pages at ${at.join(', ')}`);
      at.slice(1).forEach((i, k) => assert.equal(i - at[k]!, TRANSIENT_PERIOD, `${path}: every 20th`));
      assert.deepEqual(at.map((i) => answers[i]!.status), [502, 504, 502, 504], path);
      assert.deepEqual(at.map((i) => answers[i]!.headers.get('retry-after')), ['1', null, '1', null], path);
      for (const i of at) {
        assert.equal(answers[i]!.headers.get('content-type'), 'text/html');
        assert.match(answers[i]!.text, /^<html>[\s\S]*<h1>50[24] /);
      }
    }
    // A refresh answered by the gateway never reached the service: its refresh token stays usable.
    const body = { grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret };
    let refreshToken = (await call('POST', TOKEN_ROUTE, { json: body, retry: true })).json.refresh_token;
    const statuses: number[] = [];
    for (let i = 0; i < 2 * TRANSIENT_PERIOD; i++) {
      const answer = await call('POST', TOKEN_ROUTE, { json: { grant_type: 'refresh_token', client_id: ref.options.clientId, refresh_token: refreshToken } });
      statuses.push(answer.status);
      if (answer.status === 200) refreshToken = answer.json.refresh_token;
      else assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    }
    assert.deepEqual(statuses.filter((s) => s !== 200), [503, 503], 'the token endpoint\'s row does not list 503: two pages in 40 requests');
  });
  const pages = new GatewayPages(() => 0);
  for (const route of [`POST ${WITHDRAWAL_ADDRESS_ROUTE}`, `PATCH ${ACCEPT_ROUTE}`]) {
    assert.deepEqual(Array.from({ length: 2 * TRANSIENT_PERIOD }, () => pages.next(route)).filter(Boolean), [], `${route}: its row lists 503, and a 502 or 504 to it would not be sent again`);
  }
});

test('transient answers come before the operation does anything: a refresh answered 503 or 429 leaves its refresh token usable', async () => {
  await withReference(['transient-503', 'transient-429'], async ({ ref, call }) => {
    let refreshToken = (await call('POST', '/v1/oauth/token', { json: { grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret }, retry: true })).json.refresh_token;
    let transient = 0;
    for (let i = 0; i < 2 * TRANSIENT_PERIOD; i++) {
      const answer = await call('POST', '/v1/oauth/token', { json: { grant_type: 'refresh_token', client_id: ref.options.clientId, refresh_token: refreshToken } });
      if (answer.status === 503 || answer.status === 429) {
        transient++;
        continue;
      }
      assert.equal(answer.status, 200, `refresh ${i}: ${answer.text}`);
      refreshToken = answer.json.refresh_token;
    }
    assert.equal(transient, 4, 'two of each kind in 40 requests of one operation');
  });
  const both = new TransientAnswers([503, 429], () => 0);
  const seen = Array.from({ length: 2 * TRANSIENT_PERIOD }, () => both.next('GET /x') ?? '-');
  assert.deepEqual([seen.indexOf(503), seen.indexOf(429), seen.lastIndexOf(503), seen.lastIndexOf(429)], [0, 10, 20, 30], 'half a cycle apart');
});

test('slow-webhooks: first delivery after 6 s, retries 2 s then 4 s apart, 2 s to answer; the profile declares it', async () => {
  const ctx = (conditions: string[], faults: string[] = [], variants: string[] = []) => ({ options: REFERENCE_DEFAULTS, faults: new FaultSet(faults), variants: new VariantSet(variants), conditions: new ConditionSet(conditions) });
  assert.deepEqual(deliverySchedule(ctx([])), { firstDelayMs: 0, retryDelaysMs: [100, 200, 400], timeoutMs: 1_000 });
  assert.deepEqual(deliverySchedule(ctx(['slow-webhooks'])), { firstDelayMs: 6_000, retryDelaysMs: [2_000, 4_000], timeoutMs: 2_000 });
  assert.deepEqual(deliverySchedule(ctx(['slow-webhooks'], ['webhook-no-retry'])).retryDelaysMs, [], 'a fault still applies');
  const webhooks = referenceProfile('http://h', { conditions: ['slow-webhooks'] }).webhooks!;
  assert.deepEqual([webhooks.retryDelaysMs, webhooks.deliveryTimeoutMs, webhooks.slowResponseMs], [[2_000, 4_000], 12_000, 2_500]);
  assert.equal(referenceProfile('http://h', { conditions: ['slow-webhooks'], variants: ['webhook-retry-slower'] }).webhooks!.retryDelaysMs, undefined, 'a schedule the variant leaves undeclared stays so');

  // Wired into the dispatcher: nothing arrives in the first second and a half.
  const deliveries: number[] = [];
  const receiver = createServer((req, res) => {
    deliveries.push(Date.now());
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    await withReference(['slow-webhooks'], async ({ call, bearer }) => {
      const auth = await bearer();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      assert.equal((await call('PUT', '/reference/v1/webhooks/user-update', { headers: auth, json: { url } })).status, 200);
      assert.equal((await call('POST', `/reference/v1/users/${seedUsers(1)[0]!.id}/events`, { headers: auth, json: { action: 'inactivation' } })).status, 202);
      await sleep(1_500);
      assert.deepEqual(deliveries, [], 'the first delivery waits 6 s');
    });
  } finally {
    receiver.close();
  }
});

/** Waits for the start of a fresh second, so what follows happens within one. */
const startOfSecond = () => sleep(1_000 - (Date.now() % 1_000) + 5);

test('deterministic-tokens: the same claims within a second give the same access token; refresh tokens stay distinct and single-use', async () => {
  await withReference(['deterministic-tokens'], async ({ ref, call, grant }) => {
    await startOfSecond();
    const [first, second] = [await grant(), await grant()];
    const refreshed = await call('POST', '/v1/oauth/token', { json: { grant_type: 'refresh_token', client_id: ref.options.clientId, refresh_token: first.json.refresh_token } });
    assert.equal(first.json.access_token, second.json.access_token, 'two grants within a second');
    assert.equal(refreshed.json.access_token, first.json.access_token, 'a refresh within the same second');
    const claims = decodeJwt(first.json.access_token);
    assert.equal(claims.jti, undefined);
    assert.ok(Number.isInteger(claims.iat) && Number.isInteger(claims.exp));
    const refreshTokens = new Set([first.json.refresh_token, second.json.refresh_token, refreshed.json.refresh_token]);
    assert.equal(refreshTokens.size, 3, 'every refresh token is its own');
    assert.equal(typeof decodeJwt(first.json.refresh_token).jti, 'string');
    const reused = await call('POST', '/v1/oauth/token', { json: { grant_type: 'refresh_token', client_id: ref.options.clientId, refresh_token: first.json.refresh_token } });
    assert.equal(reused.status, 422, 'a refresh token works exactly once');
    const details = await call('GET', `/v2/users/${seedUsers(1)[0]!.id}`, { headers: { authorization: `Bearer ${first.json.access_token}` } });
    assert.equal(details.status, 200, 'the token opens the API');
  });
});

test('second-resolution: every timestamp is whole seconds; validity is judged by whole seconds, never shorter than nominal', async () => {
  await withReference(['second-resolution'], async ({ ref, call, bearer }) => {
    const auth = await bearer();
    const userId = (await call('POST', '/reference/v1/users', { headers: auth })).json.data.id;
    assert.match((await call('GET', `/v2/users/${userId}`, { headers: auth })).json.data.registered_at, NO_FRACTION);
    const offer = (await call('POST', `/reference/v1/users/${userId}/offers`, { headers: auth, json: { validitySeconds: 7 } })).json.data;
    assert.match(offer.created_at, NO_FRACTION);
    assert.match(offer.valid_until, NO_FRACTION);
    assert.equal(Date.parse(offer.valid_until) - Date.parse(offer.created_at), 7_000);
    const trade = await call('PATCH', `/v1/offers/${offer.id}/accept`, { headers: { ...auth, 'svc-user-id': userId } });
    assert.equal(trade.status, 200);
    assert.match(trade.json.data.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    const template = referenceProfile(ref.url).cryptoTransfers!.withdrawalAddress!;
    const address = await call('POST', '/v1/crypto-transfers/addresses/withdrawals', { headers: { ...auth, 'svc-user-id': userId }, json: withFreshValues(template) });
    assert.equal(address.status, 200, address.text);
    assert.match(address.json.data.created_at, NO_FRACTION);
  });
  const created = new Date(10_000);
  const [seconds, millis] = [new OfferBook(referenceClock(true)), new OfferBook(referenceClock(false))];
  const [a, b] = [seconds.create('u', { processingMs: 0, validitySeconds: 1 }, created), millis.create('u', { processingMs: 0, validitySeconds: 1 }, created)];
  const rules = { ownership: true, newestOnly: true, validity: true, completedStaysAccepted: true };
  assert.equal(seconds.refusal(a, 'u', rules, new Date(11_999)), undefined, 'whole second 11 is not past expiry 11');
  assert.equal(seconds.refusal(a, 'u', rules, new Date(12_000)), 'expired');
  assert.equal(millis.refusal(b, 'u', rules, new Date(11_000)), 'expired', 'the millisecond clock, as before');
  assert.equal(referenceClock(true).iso(new Date(1_234)), '1970-01-01T00:00:01Z');
});

test('short-token-lifetime: expires_in says 3 s, and after it every operation answers the token 401', async () => {
  await withReference(['short-token-lifetime'], async ({ call, grant }) => {
    const granted = await grant();
    assert.equal(granted.json.expires_in, SHORT_TOKEN_LIFETIME_SECONDS);
    const userPath = `/v2/users/${seedUsers(1)[0]!.id}`;
    const headers = { authorization: `Bearer ${granted.json.access_token}` };
    assert.equal((await call('GET', userPath, { headers })).status, 200);
    await sleep(SHORT_TOKEN_LIFETIME_SECONDS * 1000 + 1100);
    assert.equal((await call('GET', userPath, { headers })).status, 401, 'the token ran out');
    assert.equal((await call('GET', userPath, { headers: { authorization: `Bearer ${(await grant()).json.access_token}` } })).status, 200, 'a new one opens it again');
  });
});

test('long-processing: an offer answering 202 takes 65 s, offers are valid 120 s unless created with a validity; the profile declares both', async () => {
  const settings = withLongProcessing({ processingMs: 1_200, validitySeconds: 30 }, { acceptPredefinedTimeMs: 300 });
  assert.deepEqual(settings, { processingMs: LONG_PROCESSING_MS, validitySeconds: 30 });
  assert.deepEqual(withLongProcessing({ processingMs: 20, validitySeconds: 30 }, { acceptPredefinedTimeMs: 300 }).processingMs, 20, 'a fast offer stays fast');
  assert.equal(longProcessingDefaults(REFERENCE_DEFAULTS).offerValiditySeconds, 120);
  const trading = referenceProfile('http://h', { conditions: ['long-processing'] }).trading!;
  assert.deepEqual([trading.pollDeadlineMs, trading.validitySeconds], [90_000, 120]);
  await withReference(['long-processing'], async ({ call, bearer }) => {
    const auth = await bearer();
    const userId = (await call('POST', '/reference/v1/users', { headers: auth })).json.data.id;
    const create = async (json: unknown) => (await call('POST', `/reference/v1/users/${userId}/offers`, { headers: auth, json })).json.data;
    const lasting = (offer: { created_at: string; valid_until: string }) => (Date.parse(offer.valid_until) - Date.parse(offer.created_at)) / 1000;
    const fast = await create({});
    assert.deepEqual([fast.processing_ms, lasting(fast)], [20, 120]);
    assert.equal(lasting(await create({ validitySeconds: 5 })), 5, 'an explicit validity is kept');
    const slow = await create({ processingMs: 1_200 });
    assert.deepEqual([slow.processing_ms, lasting(slow)], [LONG_PROCESSING_MS, 120]);
    assert.equal((await call('PATCH', `/v1/offers/${slow.id}/accept`, { headers: { ...auth, 'svc-user-id': userId } })).status, 202);
    await sleep(1_500);
    assert.equal((await call('GET', `/reference/v1/offers/${slow.id}`, { headers: auth })).json.data.status, 'in_progress', 'still processing after its nominal 1.2 s');
  });
});

test('every condition at once, with a fault and a variant: the reference serves, and its profile validates against the schema', async () => {
  for (const name of NAMES) validateProfile(referenceProfile('http://127.0.0.1:8080', { conditions: [name] }), name);
  validateProfile(referenceProfile('http://127.0.0.1:8080', { conditions: NAMES, variants: ['offer-slow-by-body-value'] }), 'all conditions');
  const hints = profileHints({ ...REFERENCE_DEFAULTS, conditions: ['latency', 'slow-webhooks'] }, 'http://h').join('\n');
  assert.match(hints, /condition latency: /);
  assert.match(hints, /"webhooks": \{"deliveryTimeoutMs": 12000, "retryDelaysMs": \[2000,4000\], "slowResponseMs": 2500\}/);
  await withReference(NAMES, async ({ call, bearer }) => {
    const answer = await call('GET', `/v2/users/${seedUsers(1)[0]!.id}`, { headers: await bearer(), retry: true });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('connection'), 'close');
  }, { faults: ['opaque-tokens'], variants: ['json-charset-utf8'] });
});
