// The reference's trade offers over real HTTP: the 200 and 202 paths, the
// acceptance rules, the atomicity of accept under concurrency, and the accept
// rate limit (whose conformance checks are load probes, so its two faults are
// pinned here too). Every trade body is validated against the suite's schema.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { referenceProfile } from '../../reference/profile.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { parseIso8601 } from '../../src/schemas/iso8601.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  headers: Headers;
  json: any;
  ms: number;
}

/** A reference on a free port with a token, and small helpers for its trading operations. */
async function tradingReference(overrides: Partial<ReferenceOptions> = {}) {
  const ref: RunningReference = await startReference({ port: 0, acceptPredefinedTimeMs: 150, ...overrides });
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string; bearer?: string | null } = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.bearer !== null) headers.authorization = `Bearer ${init.bearer ?? token}`;
    if (init.body !== undefined) headers['content-type'] ??= 'application/json';
    const t0 = performance.now();
    const res = await fetch(ref.url + path, { method, headers, body: init.body });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined, ms: performance.now() - t0 };
  };
  let token = '';
  const issued = await call('POST', '/v1/oauth/token', {
    bearer: null,
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret }),
  });
  token = issued.json.access_token;
  const newUser = async (): Promise<string> => (await call('POST', '/reference/v1/users')).json.data.id;
  const createOffer = async (userId: string, body: Record<string, unknown> = {}): Promise<string> => {
    const res = await call('POST', `/reference/v1/users/${userId}/offers`, { body: JSON.stringify(body) });
    assert.equal(res.status, 201, JSON.stringify(res.json));
    return res.json.data.id;
  };
  const accept = (offerId: string, userId: string | undefined, query = '', body?: string) =>
    call('PATCH', `/v1/offers/${offerId}/accept${query}`, { headers: userId === undefined ? {} : { 'svc-user-id': userId }, body });
  const status = async (offerId: string): Promise<string> => (await call('GET', `/reference/v1/offers/${offerId}`)).json.data.status;
  return { ref, call, newUser, createOffer, accept, status };
}

function assertTrade(body: unknown): void {
  const errors = validateAgainst('accepted-trade.schema.json', body);
  assert.deepEqual(errors, [], describeSchemaErrors(errors));
}

describe('reference trade offers', () => {
  let r: Awaited<ReturnType<typeof tradingReference>>;
  before(async () => {
    // A roomy rate limit: these tests are about the acceptance rules, not the limit.
    r = await tradingReference({ acceptBurst: 200, acceptRatePerSecond: 500 });
  });
  after(() => r.ref.close());

  test('a fast offer is answered 200 with a trade that matches accepted-trade.schema.json, and is accepted afterwards', async () => {
    const user = await r.newUser();
    const offer = await r.createOffer(user, { processingMs: 5 });
    assert.equal(await r.status(offer), 'offered');
    const res = await r.accept(offer, user);
    assert.equal(res.status, 200);
    assertTrade(res.json);
    assert.equal(res.json.data.id, offer);
    const view = (await r.call('GET', `/reference/v1/offers/${offer}`)).json.data;
    assert.equal(view.status, 'accepted');
    assertTrade({ data: view.trade });
    assert.equal(view.trade.trade_id, res.json.data.trade_id, 'the status shows the trade of the execution (trading.offerStatus.extract.tradeId)');
  });

  test('a request body is ignored: no body is shown, and an accept with {} executes like one without', async () => {
    const user = await r.newUser();
    const offer = await r.createOffer(user, { processingMs: 0 });
    const res = await r.accept(offer, user, '', '{}');
    assert.equal(res.status, 200);
    assertTrade(res.json);
  });

  test('a slow offer is answered 202 at the predefined time, then reaches accepted', async () => {
    const user = await r.newUser();
    const offer = await r.createOffer(user, { processingMs: 600 });
    const res = await r.accept(offer, user);
    assert.equal(res.status, 202);
    assert.ok(res.ms < 500, `202 took ${res.ms} ms`);
    assert.deepEqual(res.json, { data: { id: offer, status: 'in_progress' } });
    assert.equal(await r.status(offer), 'in_progress');
    await sleep(700);
    assert.equal(await r.status(offer), 'accepted');
  });

  test('only the newest offer is acceptable (409), an expired one is gone (410), an accepted one conflicts (409)', async () => {
    const user = await r.newUser();
    const older = await r.createOffer(user, { processingMs: 0 });
    const newer = await r.createOffer(user, { processingMs: 0, validitySeconds: 1 });
    assert.equal((await r.accept(older, user)).status, 409);
    assert.equal(await r.status(older), 'superseded');
    assert.equal((await r.accept(newer, user)).status, 200);
    assert.equal((await r.accept(newer, user)).status, 409);

    const expiring = await r.createOffer(user, { processingMs: 0, validitySeconds: 1 });
    await sleep(1_050);
    assert.equal(await r.status(expiring), 'expired');
    assert.equal((await r.accept(expiring, user)).status, 410);
  });

  test('an expired offer is gone (410) on the slow path too, and nothing executes', async () => {
    const user = await r.newUser();
    const expiring = await r.createOffer(user, { processingMs: 600, validitySeconds: 1 });
    await sleep(1_050);
    assert.equal((await r.accept(expiring, user)).status, 410);
    assert.equal(await r.status(expiring), 'expired');
  });

  test('ownership, unknown offers, the user header and external_transaction_id', async () => {
    const [owner, other] = [await r.newUser(), await r.newUser()];
    const offer = await r.createOffer(owner, { processingMs: 0 });
    assert.equal((await r.accept(offer, other)).status, 403);
    assert.equal((await r.accept(crypto.randomUUID(), owner)).status, 404);
    assert.equal((await r.accept('not-an-offer', owner)).status, 404);
    assert.equal((await r.accept(offer, undefined)).status, 422);
    assert.equal((await r.accept(offer, 'not-a-uuid')).status, 422);
    assert.equal((await r.accept(offer, owner, `?external_transaction_id=${'x'.repeat(257)}`)).status, 422);
    assert.equal((await r.accept(offer, owner, '?external_transaction_id=a&external_transaction_id=b')).status, 422);
    assert.equal((await r.call('PATCH', `/v1/offers/${offer}/accept`, { bearer: null, headers: { 'svc-user-id': owner } })).status, 401);
    assert.equal(await r.status(offer), 'offered', 'refused accepts must leave the offer untouched');
    assert.equal((await r.accept(offer, owner, '?external_transaction_id=partner-42')).status, 200);
    assert.equal((await r.call('GET', `/reference/v1/offers/${offer}`)).json.data.external_transaction_id, 'partner-42');
    assert.equal((await r.call('GET', `/reference/v1/offers/${offer}`, { headers: { 'svc-user-id': other } })).status, 403);
  });

  test('create-offer input is validated, never a 5xx', async () => {
    const user = await r.newUser();
    const post = (body: string, contentType = 'application/json') =>
      r.call('POST', `/reference/v1/users/${user}/offers`, { body, headers: { 'content-type': contentType } });
    assert.equal((await post('')).status, 201, 'an empty body takes the defaults');
    assert.equal((await post('{')).status, 400);
    assert.equal((await post('processingMs=1', 'text/plain')).status, 400);
    for (const body of ['[]', 'null', '{"processingMs":-1}', '{"processingMs":1.5}', '{"validitySeconds":0}', '{"validitySeconds":"30"}']) {
      assert.equal((await post(body)).status, 422, body);
    }
    assert.equal((await r.call('POST', `/reference/v1/users/${crypto.randomUUID()}/offers`, { body: '{}' })).status, 404);
  });

  test('a created fixture user is a real user', async () => {
    const user = await r.newUser();
    assert.equal((await r.call('GET', `/v2/users/${user}`)).status, 200);
  });

  test('of 20 simultaneous accepts of one offer exactly one executes', async () => {
    const user = await r.newUser();
    for (const processingMs of [0, 400]) {
      const offer = await r.createOffer(user, { processingMs });
      const statuses = (await Promise.all(Array.from({ length: 20 }, () => r.accept(offer, user)))).map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200 || s === 202).length, 1, `processing ${processingMs} ms: ${statuses.join(',')}`);
      assert.ok(statuses.every((s) => [200, 202, 409].includes(s)), statuses.join(','));
    }
  });
});

test('the accept-race fault lets simultaneous accepts all execute, each with a trade of its own (the atomicity check counts trade ids)', async () => {
  const r = await tradingReference({ faults: ['accept-race'] });
  try {
    const user = await r.newUser();
    const offer = await r.createOffer(user, { processingMs: 0 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => r.accept(offer, user)));
    const executed = answers.filter((a) => a.status === 200);
    assert.ok(executed.length > 1, answers.map((a) => a.status).join(','));
    assert.equal(new Set(executed.map((a) => a.json.data.trade_id)).size, executed.length);
  } finally {
    await r.ref.close();
  }
});

test('the offer-accept-repeatable fault executes an accepted offer again: a new trade id', async () => {
  const r = await tradingReference({ faults: ['offer-accept-repeatable'] });
  try {
    const user = await r.newUser();
    const offer = await r.createOffer(user, { processingMs: 0 });
    const [first, second] = [await r.accept(offer, user), await r.accept(offer, user)];
    assert.deepEqual([first.status, second.status], [200, 200]);
    assert.notEqual(first.json.data.trade_id, second.json.data.trade_id);
  } finally {
    await r.ref.close();
  }
});

test("an offer created for another user in between does not supersede a user's newest offer", async () => {
  const r = await tradingReference();
  try {
    const [user, other] = [await r.newUser(), await r.newUser()];
    const own = await r.createOffer(user, { processingMs: 0 });
    await r.createOffer(other, { processingMs: 0 });
    assert.equal(await r.status(own), 'offered');
    assert.equal((await r.accept(own, user)).status, 200);
  } finally {
    await r.ref.close();
  }
});

test("the offer-newest-across-users fault lets another user's newer offer supersede a user's newest offer (409)", async () => {
  const r = await tradingReference({ faults: ['offer-newest-across-users'] });
  try {
    const [user, other] = [await r.newUser(), await r.newUser()];
    const own = await r.createOffer(user, { processingMs: 0 });
    const others = await r.createOffer(other, { processingMs: 0 });
    assert.equal(await r.status(own), 'superseded');
    assert.equal((await r.accept(own, user)).status, 409);
    assert.equal((await r.accept(others, other)).status, 200, 'the newest offer of all is still acceptable');
  } finally {
    await r.ref.close();
  }
});

test('the offer-status-404-while-processing fault answers 404 for an offer in progress, and 200 before and after', async () => {
  const r = await tradingReference({ faults: ['offer-status-404-while-processing'] });
  try {
    const user = await r.newUser();
    const offer = await r.createOffer(user, { processingMs: 600 });
    const read = () => r.call('GET', `/reference/v1/offers/${offer}`);
    assert.equal((await read()).status, 200);
    assert.equal((await r.accept(offer, user)).status, 202);
    assert.equal((await read()).status, 404);
    await sleep(700);
    const done = await read();
    assert.equal(done.status, 200);
    assert.equal(done.json.data.status, 'accepted');
  } finally {
    await r.ref.close();
  }
});

test('the offer-expiry-fast-path-only fault: an expired fast offer is gone (410), an expired slow one is answered 202 and executes', async () => {
  const r = await tradingReference({ faults: ['offer-expiry-fast-path-only'] });
  try {
    const [user, other] = [await r.newUser(), await r.newUser()];
    const fast = await r.createOffer(user, { processingMs: 0, validitySeconds: 1 });
    const slow = await r.createOffer(other, { processingMs: 600, validitySeconds: 1 });
    await sleep(1_050);
    assert.equal((await r.accept(fast, user)).status, 410);
    assert.equal((await r.accept(slow, other)).status, 202);
    await sleep(700);
    const view = (await r.call('GET', `/reference/v1/offers/${slow}`)).json.data;
    assert.equal(view.status, 'accepted');
    assert.ok(view.trade?.trade_id, 'the expired offer executed: its status shows a trade');
  } finally {
    await r.ref.close();
  }
});

test('the accept-body-500 fault answers 500 to an accept with a body, and not to one without', async () => {
  const r = await tradingReference({ faults: ['accept-body-500'] });
  try {
    const user = await r.newUser();
    const offer = await r.createOffer(user, { processingMs: 0 });
    assert.equal((await r.accept(offer, user, '', '{}')).status, 500);
    assert.equal(await r.status(offer), 'offered');
    assert.equal((await r.accept(offer, user)).status, 200);
  } finally {
    await r.ref.close();
  }
});

describe('legitimate variants of accept (reference/variants/trading.ts)', () => {
  const roomy = { acceptBurst: 200, acceptRatePerSecond: 500 };

  test('accept-replay-idempotent: a repeated accept answers the same trade, 202 while processing, and executes nothing', async () => {
    const r = await tradingReference({ ...roomy, variants: ['accept-replay-idempotent'] });
    try {
      const user = await r.newUser();
      const fast = await r.createOffer(user, { processingMs: 0 });
      const first = await r.accept(fast, user);
      const again = await r.accept(fast, user);
      assert.deepEqual([first.status, again.status], [200, 200]);
      assert.equal(again.json.data.trade_id, first.json.data.trade_id);
      assertTrade(again.json);

      const slow = await r.createOffer(user, { processingMs: 400 });
      assert.equal((await r.accept(slow, user)).status, 202);
      assert.equal((await r.accept(slow, user)).status, 202, 'still processing');
      await sleep(450);
      const view = (await r.call('GET', `/reference/v1/offers/${slow}`)).json.data;
      const replayed = await r.accept(slow, user);
      assert.equal(replayed.status, 200);
      assert.equal(replayed.json.data.trade_id, view.trade.trade_id);

      const raced = await r.createOffer(user, { processingMs: 20 });
      const answers = await Promise.all(Array.from({ length: 10 }, () => r.accept(raced, user)));
      assert.ok(answers.every((a) => a.status === 200), answers.map((a) => a.status).join(','));
      assert.equal(new Set(answers.map((a) => a.json.data.trade_id)).size, 1);

      const other = await r.newUser();
      assert.equal((await r.accept(fast, other)).status, 403, 'only the owner gets the replay');
      await r.createOffer(user, { processingMs: 0 });
      assert.equal((await r.accept(raced, user)).status, 200, 'an accepted offer replays even once superseded');
    } finally {
      await r.ref.close();
    }
  });

  test('accept-refusals-as-deployed: unknown id 410, missing svc-user-id 403, reused external_transaction_id 406, older and accepted 409', async () => {
    const r = await tradingReference({ ...roomy, variants: ['accept-refusals-as-deployed'] });
    try {
      const user = await r.newUser();
      assert.equal((await r.accept(crypto.randomUUID(), user)).status, 410);
      assert.equal((await r.accept('not-an-offer', user)).status, 410);
      const older = await r.createOffer(user, { processingMs: 0 });
      const offer = await r.createOffer(user, { processingMs: 0 });
      assert.equal((await r.accept(older, user)).status, 409);
      assert.equal((await r.accept(offer, undefined)).status, 403);
      assert.equal((await r.accept(offer, user, '?external_transaction_id=partner-1')).status, 200);
      assert.equal((await r.accept(offer, user)).status, 409);
      const next = await r.createOffer(user, { processingMs: 0 });
      assert.equal((await r.accept(next, user, '?external_transaction_id=partner-1')).status, 406);
      assert.equal(await r.status(next), 'offered');
      assert.equal((await r.accept(next, user, '?external_transaction_id=partner-2')).status, 200);
    } finally {
      await r.ref.close();
    }
  });

  test('trade-decimal-exponent and trade-time-offset: the same values, written another way the schema accepts', async () => {
    const plain = await tradingReference(roomy);
    const varied = await tradingReference({ ...roomy, variants: ['trade-decimal-exponent', 'trade-time-offset'] });
    try {
      const trades = [];
      for (const r of [plain, varied]) {
        const user = await r.newUser();
        const res = await r.accept(await r.createOffer(user, { processingMs: 0 }), user);
        assertTrade(res.json);
        trades.push(res.json.data);
      }
      const [a, b] = trades;
      assert.match(b.asset_amount, /^\d(\.\d+)?e-?\d+$/);
      assert.match(b.spread, /E/);
      for (const key of ['asset_amount', 'spread']) assert.equal(Number(b[key]), Number(a[key]), key);
      assert.match(b.time, /\+01:00$/);
      assert.ok(Math.abs(Date.parse(b.time) - Date.parse(a.time)) < 5_000);
      const view = (await varied.call('GET', `/reference/v1/offers/${b.id}`)).json.data;
      assertTrade({ data: view.trade });
      assert.match(view.trade.time, /\+01:00$/);
    } finally {
      await plain.ref.close();
      await varied.ref.close();
    }
  });

  test('timestamps-iso8601-basic: the trade time at +01:00 and the offer\'s timestamps in basic format, the same instants, valid against 2.4', async () => {
    const r = await tradingReference({ ...roomy, variants: ['timestamps-iso8601-basic'] });
    try {
      const user = await r.newUser();
      const before = Date.now();
      const offer = await r.createOffer(user, { processingMs: 0 });
      const res = await r.accept(offer, user);
      assertTrade(res.json);
      assert.match(res.json.data.time, /^\d{8}T\d{6}\.\d{3}\+0100$/);
      assert.ok(Math.abs(parseIso8601(res.json.data.time)! - before) < 5_000, res.json.data.time);
      const view = (await r.call('GET', `/reference/v1/offers/${offer}`)).json.data;
      assert.equal(view.trade.time, res.json.data.time);
      for (const key of ['created_at', 'valid_until']) assert.match(view[key], /^\d{8}T\d{6}\.\d{3}Z$/, key);
      assert.ok(parseIso8601(view.valid_until)! > parseIso8601(view.created_at)!);
    } finally {
      await r.ref.close();
    }
  });

  test('accept-202-without-body: 202 with an empty body', async () => {
    const r = await tradingReference({ ...roomy, variants: ['accept-202-without-body'] });
    try {
      const user = await r.newUser();
      const res = await r.accept(await r.createOffer(user, { processingMs: 400 }), user);
      assert.equal(res.status, 202);
      assert.equal(res.json, undefined);
      assert.equal(res.headers.get('content-type'), null);
    } finally {
      await r.ref.close();
    }
  });

  test('other-users-offer-not-found and accept-body-refused', async () => {
    const r = await tradingReference({ ...roomy, variants: ['other-users-offer-not-found', 'accept-body-refused'] });
    try {
      const [owner, other] = [await r.newUser(), await r.newUser()];
      const offer = await r.createOffer(owner, { processingMs: 0 });
      assert.equal((await r.accept(offer, other)).status, 404);
      assert.equal((await r.accept(offer, owner, '', '{}')).status, 422);
      assert.equal(await r.status(offer), 'offered', 'a refused body executes nothing');
      assert.equal((await r.accept(offer, owner)).status, 200);
    } finally {
      await r.ref.close();
    }
  });
});

describe('the accept rate limit', () => {
  const limited = { acceptRatePerSecond: 1, acceptBurst: 2 };

  test('over the limit: 429 with Retry-After, and the offer is not executed', async () => {
    const r = await tradingReference(limited);
    try {
      const user = await r.newUser();
      const stale = await r.createOffer(user, { processingMs: 0 });
      await r.accept(crypto.randomUUID(), user);
      await r.accept(crypto.randomUUID(), user);
      const offer = await r.createOffer(user, { processingMs: 0 });
      const res = await r.accept(offer, user);
      assert.equal(res.status, 429);
      assert.ok(Number(res.headers.get('retry-after')) >= 1);
      assert.equal(await r.status(offer), 'offered');
      await sleep(1_050);
      assert.equal((await r.accept(offer, user)).status, 200);
      assert.equal(await r.status(stale), 'superseded');
    } finally {
      await r.ref.close();
    }
  });

  test('no-accept-rate-limit never answers 429', async () => {
    const r = await tradingReference({ ...limited, faults: ['no-accept-rate-limit'] });
    try {
      const user = await r.newUser();
      const statuses = await Promise.all(Array.from({ length: 6 }, () => r.accept(crypto.randomUUID(), user).then((a) => a.status)));
      assert.deepEqual(statuses, [404, 404, 404, 404, 404, 404]);
    } finally {
      await r.ref.close();
    }
  });

  test('rate-limited-accept-executes answers 429 and executes the offer anyway', async () => {
    const r = await tradingReference({ ...limited, faults: ['rate-limited-accept-executes'] });
    try {
      const user = await r.newUser();
      await r.accept(crypto.randomUUID(), user);
      await r.accept(crypto.randomUUID(), user);
      const offer = await r.createOffer(user, { processingMs: 0 });
      assert.equal((await r.accept(offer, user)).status, 429);
      await sleep(20);
      assert.equal(await r.status(offer), 'accepted');
    } finally {
      await r.ref.close();
    }
  });
});

test("the reference's trading profile section validates and names every key the checks and probes use", () => {
  const profile = referenceProfile('http://127.0.0.1:1');
  assert.deepEqual(validateAgainst('profile/trading.schema.json', profile.trading), []);
  const trading = profile.trading!;
  for (const key of ['userId', 'otherUserId', 'createOffer', 'offerStatus', 'terminalStatuses', 'processingTimeMs', 'pollDeadlineMs'] as const) {
    assert.ok(trading[key] !== undefined, `trading.${key}`);
  }
  assert.equal(trading.createOffer!.extract!.offerId, '/data/id');
  assert.equal(trading.offerStatus!.extract!.status, '/data/status');
  assert.equal(trading.offerStatus!.extract!.tradeId, '/data/trade/trade_id');
  // The recipes a team would write: one well within the predefined time, one well beyond it, and one that expires on each path.
  const { fast, slow, expiring, expiringSlow } = trading.offerRecipes!;
  assert.ok((fast!.values!.processingMs as number) < trading.processingTimeMs! && (slow!.values!.processingMs as number) > trading.processingTimeMs!);
  assert.deepEqual([fast!.acceptAnswers, slow!.acceptAnswers, expiring!.expiresAfterSeconds], [200, 202, 1]);
  assert.deepEqual([expiring!.values!.processingMs, expiringSlow!.values!.processingMs], [fast!.values!.processingMs, slow!.values!.processingMs]);
  assert.deepEqual([expiringSlow!.acceptAnswers, expiringSlow!.expiresAfterSeconds, expiringSlow!.values!.validitySeconds], [202, 1, 1]);
  assert.ok(seedUsers(1).some((u) => u.id === trading.userId));
});
