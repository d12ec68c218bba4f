// The suite's own access token outlives the target's token lifetime (issue
// 29): the cache renews it at half its lifetime and at once after a 401 to
// it, and a request given the cache (a BearerSource) reads the token as it
// is sent and is sent again once with a renewed token after a 401 — the 401
// kept in the evidence, marked as the suite's own. A request given a token
// of its own (a check about tokens) is never renewed: its 401 is what it
// observes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessTokenCache, earliestExpiryMs } from '../../src/auth/tokens.ts';
import { closeTransport, createTransport, HttpClient } from '../../src/http/client.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { startServer } from '../support/servers.ts';

/** A target whose tokens live `lifetimeS` seconds on its own clock, which the test moves. */
async function shortLivedTarget(lifetimeS: number) {
  let now = 0;
  let issued = 0;
  const expiry = new Map<string, number>();
  const server = await startServer((request, response) => {
    let body = '';
    request.on('data', (c: Buffer) => (body += c));
    request.on('end', () => {
      const json = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (request.url === '/v1/oauth/token') {
        const token = `token-${++issued}`;
        expiry.set(token, now + lifetimeS * 1000);
        return json(200, { access_token: token, refresh_token: `refresh-${issued}`, expires_in: lifetimeS, token_type: 'Bearer' });
      }
      const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      const until = token ? expiry.get(token) : undefined;
      if (until === undefined || now >= until) return json(401, { error: 'unauthorized', message: 'token expired' });
      return json(200, { data: { token } });
    });
  });
  return { server, advance: (ms: number) => (now += ms), now: () => now, issued: () => issued };
}

const profile = { baseUrl: '', credentials: { clientId: 'c', clientSecret: 's3cret-value' } } as ResolvedProfile;

test("the suite's own token: renewed at half its lifetime, and once after a 401 to it, the 401 kept in the evidence", async () => {
  const target = await shortLivedTarget(6);
  const exchanges: RecordedExchange[] = [];
  const events: string[] = [];
  const connection = { baseUrl: target.server.url, timeoutMs: 5000, maxResponseBytes: 1_000_000, tls: undefined, insecure: false, runHeaders: {}, userIdHeader: 'svc-user-id', credentials: profile.credentials };
  const transport = createTransport(connection);
  try {
    const http = HttpClient.to(connection, { transport, redactor: new Redactor(), recorder: { record: (e) => exchanges.push(e), event: (what) => events.push(what) } });
    // The cache's clock, which may lag the target's (a target that ends tokens before expires_in says).
    let lagMs = 0;
    const tokens = new AccessTokenCache(HttpClient.to(connection, { transport, redactor: new Redactor() }), { ...profile, baseUrl: target.server.url }, () => target.now() - lagMs);

    const first = await http.get('/v2/users/1', { bearer: tokens, label: 'user details' });
    assert.equal(first.status, 200);
    target.advance(2_000);
    assert.equal((await http.get('/v2/users/1', { bearer: tokens })).status, 200);
    assert.equal(target.issued(), 1, 'within half its lifetime the token is kept');
    target.advance(1_500);
    assert.equal((await http.get('/v2/users/1', { bearer: tokens })).status, 200);
    assert.equal(target.issued(), 2, 'past half its lifetime it is renewed before it is sent');

    // The target ends the token before the cache expects (its clock runs ahead): a 401 to the suite's own token is mended, not reported.
    lagMs = 6_000;
    target.advance(6_000);
    const before = exchanges.length;
    const mended = await http.get('/v2/users/1', { bearer: tokens, label: 'user details after a wait' });
    assert.equal(mended.status, 200);
    assert.deepEqual(exchanges.slice(before).map((e) => e.response?.status), [401, 200], 'the 401 stays in the evidence, the request is sent again');
    assert.match(exchanges.at(-1)!.label ?? '', /after 401 to the suite's own access token/);
    assert.ok(events.includes("renewed the suite's own access token"));

    // A token a check holds for itself is never renewed: its 401 is the observation.
    const own = await http.get('/v2/users/1', { bearer: 'token-1', label: 'a token of its own' });
    assert.equal(own.status, 401);
    // Nor for a request sent exactly once (a race): asking again would change what it measures.
    const once = await http.get('/v2/users/1', { bearer: { current: async () => 'token-1', renewed: () => assert.fail('renewed a request sent once') }, once: true });
    assert.equal(once.status, 401);
  } finally {
    await closeTransport(transport);
    await target.server.close();
  }
});

test('two requests refused the same token renew it once', async () => {
  const target = await shortLivedTarget(60);
  const connection = { baseUrl: target.server.url, timeoutMs: 5000, maxResponseBytes: 1_000_000, tls: undefined, insecure: false, runHeaders: {}, userIdHeader: 'svc-user-id', credentials: profile.credentials };
  const transport = createTransport(connection);
  try {
    const tokens = new AccessTokenCache(HttpClient.to(connection, { transport, redactor: new Redactor() }), { ...profile, baseUrl: target.server.url }, target.now);
    const rejected = await tokens.current();
    const [a, b] = await Promise.all([tokens.renewed(rejected), tokens.renewed(rejected)]);
    assert.equal(a, b);
    assert.notEqual(a, rejected);
    assert.equal(target.issued(), 2);
    assert.equal(await tokens.renewed(rejected), a, 'a token already renewed is not renewed again');
  } finally {
    await closeTransport(transport);
    await target.server.close();
  }
});

test("the suite's own token: its lifetime counts from when it was asked for, and a renewed token refused in turn is renewed once more", async () => {
  const target = await shortLivedTarget(4);
  const exchanges: RecordedExchange[] = [];
  const connection = { baseUrl: target.server.url, timeoutMs: 5000, maxResponseBytes: 1_000_000, tls: undefined, insecure: false, runHeaders: {}, userIdHeader: 'svc-user-id', credentials: profile.credentials };
  const transport = createTransport(connection);
  try {
    // The cache's clock reads 1.5 s later at the answer than at the request: a busy worker read the answer late.
    let readsLate = false;
    const tokens = new AccessTokenCache(HttpClient.to(connection, { transport, redactor: new Redactor() }), { ...profile, baseUrl: target.server.url }, () => target.now() + (readsLate ? 1_500 : 0));
    const askedAt = target.now();
    const pending = tokens.current();
    readsLate = true;
    await pending;
    readsLate = false;
    target.advance(2_100);
    const http = HttpClient.to(connection, { transport, redactor: new Redactor(), recorder: { record: (e) => exchanges.push(e) } });
    assert.equal((await http.get('/v2/users/1', { bearer: tokens })).status, 200);
    assert.equal(target.issued(), 2, `renewed at half its 4 s lifetime counted from ${askedAt}, the request, not from the late-read answer`);

    // Every token the target issues is refused at once (its clock jumps past it): renewed once per token, then the 401 is the answer.
    let held = await tokens.current();
    const refusing = {
      current: async () => held,
      renewed: async (rejected: string) => {
        held = await tokens.renewed(rejected);
        target.advance(10_000);
        return held;
      },
    };
    target.advance(10_000);
    const before = exchanges.length;
    const refused = await http.get('/v2/users/1', { bearer: refusing });
    assert.equal(refused.status, 401);
    assert.deepEqual(exchanges.slice(before).map((e) => e.response?.status), [401, 401, 401], 'two renewals, then the 401 stands');
  } finally {
    await closeTransport(transport);
    await target.server.close();
  }
});

test('a token may be refused as run out a whole second before expires_in: a server keeping whole-second exp counts from the second it issued it in', () => {
  const seconds = { auth: {} } as unknown as ResolvedProfile;
  const milliseconds = { auth: { expiresInUnit: 'milliseconds' } } as unknown as ResolvedProfile;
  assert.equal(earliestExpiryMs(seconds, 3), 2000);
  assert.equal(earliestExpiryMs(milliseconds, 3000), 2000);
  assert.equal(earliestExpiryMs(seconds, 0.5), 0, 'never below zero');
  assert.equal(earliestExpiryMs(seconds, Number.NaN), undefined);
  assert.equal(earliestExpiryMs(seconds, 0), undefined);
});
