// The reference's user-details route (spec 4.2, 2.2): every 200 body it
// emits validates against the suite's own schema, the journey rules resolve
// as documented in reference/fixtures/users.ts, and errors use the codes the
// route documents.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { FaultSet } from '../../reference/faults/index.ts';
import { ASSET_GROUP_JOURNEY, DEFAULT_JOURNEYS, FLOWS, JOURNEYS, LANGUAGES, seedUsers } from '../../reference/fixtures/users.ts';
import { matchedLanguageRange, negotiateLanguage, resolveJourneyContext, termsForJourneys } from '../../reference/routes/users.ts';
import { usersSection } from '../../reference/profile-sections/users.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from '../../reference/options.ts';
import { VariantSet } from '../../reference/variants/index.ts';
import { usersVariants } from '../../reference/variants/users.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { parseIso8601 } from '../../src/schemas/iso8601.ts';

const SCHEMA = 'user-details.schema.json';
const CLEAN = new FaultSet();
const ASSET_GROUPS = Object.keys(ASSET_GROUP_JOURNEY);

function resolve(query: Record<string, string | string[]>, faults = CLEAN) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
  return resolveJourneyContext(params, faults);
}

function journeysOf(query: Record<string, string | string[]>): string[] {
  const context = resolve(query);
  assert.ok(context.ok, `expected ${JSON.stringify(query)} to resolve, got: ${context.ok ? '' : context.message}`);
  return [...context.journeys].sort();
}

function assertRefused(query: Record<string, string | string[]>, pattern: RegExp): void {
  const context = resolve(query);
  assert.ok(!context.ok, `expected ${JSON.stringify(query)} to be refused`);
  assert.match(context.message, pattern);
}

/** Every journey context the reference accepts, for the schema sweep. */
function acceptedQueries(): Array<Record<string, string | string[]>> {
  const queries: Array<Record<string, string | string[]>> = [{}, { 'user_journey[]': [...JOURNEYS] }];
  for (const journey of JOURNEYS) queries.push({ 'user_journey[]': journey });
  for (const [flow, rule] of Object.entries(FLOWS)) {
    if (rule.parameters === 'none') queries.push({ user_flow: flow });
    if (rule.parameters === 'asset_group') for (const g of ASSET_GROUPS) queries.push({ user_flow: flow, asset_group: g });
    if (rule.parameters === 'source_and_target') {
      for (const s of ASSET_GROUPS) for (const t of ASSET_GROUPS) queries.push({ user_flow: flow, source_asset_group: s, target_asset_group: t });
    }
  }
  return queries;
}

describe('journey context resolution (spec 4.2 rules 1-6)', () => {
  test('no journey parameter resolves to the default journeys (rule 6)', () => {
    assert.deepEqual(journeysOf({}), [...DEFAULT_JOURNEYS].sort());
  });

  test('user_journey[] repeats, duplicates collapse, unknown and empty values are refused', () => {
    assert.deepEqual(journeysOf({ 'user_journey[]': ['trading', 'crypto', 'trading'] }), ['crypto', 'trading']);
    assertRefused({ 'user_journey[]': ['trading', 'no-such-journey'] }, /unknown user_journey\[\] value "no-such-journey"/);
    assertRefused({ 'user_journey[]': '' }, /unknown user_journey\[\] value ""/);
    assertRefused({ 'user_journey[]': Array.from({ length: 40 }, () => 'trading') }, /at most/);
  });

  test('user_journey[] and user_flow exclude each other (rule 1)', () => {
    assertRefused({ 'user_journey[]': 'trading', user_flow: 'onboard' }, /exclude each other/);
    assertRefused({ 'user_journey[]': 'trading', user_flow: 'trade_buy', asset_group: 'crypto' }, /exclude each other/);
  });

  test('every user_flow value resolves with exactly its parameters (rules 2-5)', () => {
    assert.deepEqual(journeysOf({ user_flow: 'onboard' }), ['onboarding']);
    assert.deepEqual(journeysOf({ user_flow: 'trade_buy', asset_group: 'crypto' }), ['crypto', 'trading']);
    assert.deepEqual(journeysOf({ user_flow: 'trade_sell', asset_group: 'metals' }), ['metals', 'trading']);
    assert.deepEqual(journeysOf({ user_flow: 'trade_swap', source_asset_group: 'crypto', target_asset_group: 'securities' }), ['crypto', 'securities', 'trading']);
    assert.deepEqual(journeysOf({ user_flow: 'saving_create', asset_group: 'securities' }), ['savings', 'securities']);
    assert.deepEqual(journeysOf({ user_flow: 'stake' }), ['crypto', 'staking']);
    assert.deepEqual(journeysOf({ user_flow: 'unstake' }), ['crypto', 'staking']);
    assert.deepEqual(journeysOf({ user_flow: 'crypto_transfer' }), ['crypto', 'crypto_transfer']);
  });

  test('trade_buy, trade_sell and saving_create require asset_group (rule 3)', () => {
    for (const flow of ['trade_buy', 'trade_sell', 'saving_create']) {
      assertRefused({ user_flow: flow }, /requires asset_group/);
      assertRefused({ user_flow: flow, asset_group: '' }, /requires asset_group/);
      assertRefused({ user_flow: flow, asset_group: 'beanie-babies' }, /unknown asset_group/);
      assertRefused({ user_flow: flow, asset_group: 'crypto', source_asset_group: 'crypto' }, /takes no source_asset_group/);
    }
  });

  test('trade_swap requires source_asset_group and target_asset_group (rule 4)', () => {
    assertRefused({ user_flow: 'trade_swap' }, /requires source_asset_group/);
    assertRefused({ user_flow: 'trade_swap', source_asset_group: 'crypto' }, /requires target_asset_group/);
    assertRefused({ user_flow: 'trade_swap', target_asset_group: 'crypto' }, /requires source_asset_group/);
    assertRefused({ user_flow: 'trade_swap', asset_group: 'crypto' }, /takes no asset_group/);
  });

  test('onboard, stake, unstake and crypto_transfer take no asset-group parameter (rule 5)', () => {
    for (const flow of ['onboard', 'stake', 'unstake', 'crypto_transfer']) {
      for (const parameter of ['asset_group', 'source_asset_group', 'target_asset_group']) {
        assertRefused({ user_flow: flow, [parameter]: 'crypto' }, new RegExp(`takes no ${parameter}`));
      }
    }
  });

  test('unknown, empty and repeated user_flow values are refused; asset groups need a flow', () => {
    assertRefused({ user_flow: 'trade' }, /unknown user_flow "trade"/);
    assertRefused({ user_flow: '' }, /unknown user_flow ""/);
    assertRefused({ user_flow: 'x'.repeat(5000) }, /unknown user_flow "x{40}…"/);
    assertRefused({ user_flow: ['onboard', 'stake'] }, /only once/);
    assertRefused({ user_flow: 'trade_buy', asset_group: ['crypto', 'metals'] }, /asset_group may be given only once/);
    assertRefused({ asset_group: 'crypto' }, /only together with user_flow/);
    assertRefused({ 'user_journey[]': 'trading', asset_group: 'crypto' }, /only together with user_flow/);
  });

  test('terms are filtered to those of the resolved journeys', () => {
    const all = [101, 102, 201, 301, 302, 303, 401, 501, 601];
    assert.deepEqual(termsForJourneys(all, ['onboarding']), [101, 102]);
    assert.deepEqual(termsForJourneys(all, ['crypto_transfer', 'crypto']), [102, 301, 601]);
    assert.deepEqual(termsForJourneys([201, 501], ['onboarding']), []);
  });
});

describe('Accept-Language negotiation', () => {
  test('picks the supported language of highest weight, falling back to the first supported', () => {
    assert.equal(negotiateLanguage(undefined), 'en');
    assert.equal(negotiateLanguage('de'), 'de');
    assert.equal(negotiateLanguage('de-CH, fr;q=0.9'), 'de');
    assert.equal(negotiateLanguage('it, fr;q=0.4, de;q=0.6'), 'de');
    assert.equal(negotiateLanguage('ja'), 'en');
    assert.equal(negotiateLanguage('*'), 'en');
    assert.equal(negotiateLanguage(';;q=abc,,*-*;q=9, de;q=0'), 'en');
  });
});

describe('the reference profile section', () => {
  test('validates against schemas/profile/users.schema.json', () => {
    const section = usersSection('http://127.0.0.1:1', { ...REFERENCE_DEFAULTS });
    assert.deepEqual(validateAgainst('profile/users.schema.json', section), []);
  });
});

describe('GET /v2/users/{User-ID} over HTTP', () => {
  let reference: RunningReference;
  let token: string;
  const users = seedUsers(REFERENCE_DEFAULTS.seed);

  const tokenFor = async (clientId: string): Promise<string> => {
    const res = await fetch(`${reference.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: reference.options.clientSecret }),
    });
    assert.equal(res.status, 200);
    return ((await res.json()) as { access_token: string }).access_token;
  };

  const get = async (path: string, query: Record<string, string | string[]> = {}, headers: Record<string, string> = {}, bearer = token) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
    const res = await fetch(`${reference.url}${path}${params.size ? `?${params}` : ''}`, { headers: { authorization: `Bearer ${bearer}`, ...headers } });
    return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
  };

  before(async () => {
    reference = await startReference({ port: 0, clientSecret: `test-${crypto.randomUUID()}`, tokenRatePerSecond: 1_000, tokenBurst: 1_000 });
    token = await tokenFor(reference.options.clientId);
  });
  after(() => reference.close());

  test('every 200 body validates against user-details.schema.json (all users, contexts, languages)', async () => {
    let bodies = 0;
    for (const user of users) {
      for (const query of acceptedQueries()) {
        for (const language of [...LANGUAGES, 'ja']) {
          const res = await get(`/v2/users/${user.id}`, query, { 'accept-language': language });
          assert.equal(res.status, 200, `${user.id} ${JSON.stringify(query)}`);
          const errors = validateAgainst(SCHEMA, res.body);
          assert.deepEqual(errors, [], `${JSON.stringify(query)}: ${describeSchemaErrors(errors)}`);
          bodies++;
        }
      }
    }
    assert.ok(bodies > 100);
  });

  test('the schema is strict where 2.2 is: the output faults do not validate', async () => {
    for (const fault of ['users-external-meta-number', 'users-registered-at-no-offset', 'users-is-pep-missing', 'users-data-null']) {
      const faulty = await startReference({ port: 0, clientSecret: reference.options.clientSecret, faults: [fault] });
      try {
        const res = await fetch(`${faulty.url}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'client_credentials', client_id: faulty.options.clientId, client_secret: faulty.options.clientSecret }),
        });
        const { access_token: bearer } = (await res.json()) as { access_token: string };
        const user = await fetch(`${faulty.url}/v2/users/${users[0]!.id}`, { headers: { authorization: `Bearer ${bearer}` } });
        assert.notDeepEqual(validateAgainst(SCHEMA, await user.json()), [], `${fault} should break the schema`);
      } finally {
        await faulty.close();
      }
    }
  });

  test('users-journey-and-flow-accepted-behind-429: a 429 first, then the combination accepted, per query', async () => {
    const faulty = await startReference({ port: 0, clientSecret: reference.options.clientSecret, faults: ['users-journey-and-flow-accepted-behind-429'] });
    try {
      const token = await fetch(`${faulty.url}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: faulty.options.clientId, client_secret: faulty.options.clientSecret }),
      });
      const { access_token: bearer } = (await token.json()) as { access_token: string };
      const ask = (query: string) => fetch(`${faulty.url}/v2/users/${users[0]!.id}?${query}`, { headers: { authorization: `Bearer ${bearer}` } });
      const both = `user_journey%5B%5D=${JOURNEYS[0]}&user_flow=onboard`;
      const first = await ask(both);
      assert.equal(first.status, 429);
      assert.equal(first.headers.get('retry-after'), '1');
      assert.equal((await ask(both)).status, 200, 'asked again, the combination the spec excludes is accepted');
      assert.equal((await ask('user_flow=onboard')).status, 200, 'one way alone is never rate limited');
    } finally {
      await faulty.close();
    }
  });

  test('terms_not_accepted follows the journey context and trading.reason the language', async () => {
    const pending = users.find((u) => !u.trading.active)!;
    const de = await get(`/v2/users/${pending.id}`, {}, { 'accept-language': 'de-DE, en;q=0.5' });
    assert.equal(de.headers.get('content-language'), 'de');
    assert.match((de.body as { data: { trading: { reason: string } } }).data.trading.reason, /Verifizierung/);
    const first = await get(`/v2/users/${users[0]!.id}`, { user_flow: 'trade_swap', source_asset_group: 'crypto', target_asset_group: 'metals' });
    assert.deepEqual((first.body as { data: { terms_not_accepted: number[] } }).data.terms_not_accepted, [201, 301, 302]);
  });

  test('errors: 401 without a bearer, 403 for the own-licence client, 422 for parameter errors, 404 for an unknown user', async () => {
    const noBearer = await fetch(`${reference.url}/v2/users/${users[0]!.id}`);
    assert.equal(noBearer.status, 401);
    const ownLicence = await get(`/v2/users/${users[0]!.id}`, {}, {}, await tokenFor(reference.options.ownLicenceClientId));
    assert.equal(ownLicence.status, 403);
    assert.equal((await get('/v2/users/not-a-uuid')).status, 422);
    const refused = await get(`/v2/users/${users[0]!.id}`, { user_flow: 'trade_buy' });
    assert.equal(refused.status, 422);
    assert.deepEqual(Object.keys((refused.body as { error: object }).error).sort(), ['code', 'message']);
    assert.equal((await get(`/v2/users/${crypto.randomUUID()}`)).status, 404);
  });
});

describe('user-details variants (reference/variants/users.ts)', () => {
  const users = seedUsers(REFERENCE_DEFAULTS.seed);
  const user = users[0]!;

  /** A reference with the variants on, a token of `clientId`, and a GET of user details. */
  async function withVariants(variants: string[], body: (get: Getter, ref: RunningReference) => Promise<void>, overrides: Partial<ReferenceOptions> = {}) {
    const ref = await startReference({ port: 0, variants, tokenRatePerSecond: 1_000, tokenBurst: 1_000, ...overrides });
    const tokens = new Map<string, string>();
    const tokenOf = async (clientId: string) => {
      if (!tokens.has(clientId)) {
        const res = await fetch(`${ref.url}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: ref.options.clientSecret }),
        });
        tokens.set(clientId, ((await res.json()) as { access_token: string }).access_token);
      }
      return tokens.get(clientId)!;
    };
    const get: Getter = async (path, query = {}, headers = {}, clientId = ref.options.clientId) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
      const res = await fetch(`${ref.url}${path}${params.size ? `?${params}` : ''}`, { headers: { authorization: `Bearer ${await tokenOf(clientId)}`, ...headers } });
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    };
    try {
      await body(get, ref);
    } finally {
      await ref.close();
    }
  }
  const tokenFor = async (ref: RunningReference) => {
    const res = await fetch(`${ref.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  type Getter = (
    path: string,
    query?: Record<string, string | string[]>,
    headers?: Record<string, string>,
    clientId?: string,
  ) => Promise<{ status: number; headers: Headers; body: any }>;

  test('every variant cites what allows it and exists in the catalogue', () => {
    for (const variant of usersVariants) {
      assert.match(variant.allowedBy, /\d\.\d|7/, `${variant.name} cites no clause`);
      assert.ok(new VariantSet([variant.name]).has(variant.name));
    }
  });

  test('journey-errors-400: journey violations are 400, a malformed id stays 422', async () => {
    await withVariants(['journey-errors-400'], async (get) => {
      assert.equal((await get(`/v2/users/${user.id}`, { user_flow: 'trade_buy' })).status, 400);
      assert.equal((await get(`/v2/users/${user.id}`, { 'user_journey[]': 'trading', user_flow: 'onboard' })).status, 400);
      assert.equal((await get('/v2/users/not-a-uuid')).status, 422);
    });
  });

  test('malformed-user-id-404: a malformed id is record not found', async () => {
    await withVariants(['malformed-user-id-404'], async (get) => {
      assert.equal((await get('/v2/users/not-a-uuid')).status, 404);
      assert.equal((await get(`/v2/users/${user.id}`, { user_flow: 'trade_buy' })).status, 422);
    });
  });

  test('own-licence-not-found: the own-licence client gets 404, and the profile documents it', async () => {
    await withVariants(['own-licence-not-found'], async (get, ref) => {
      assert.equal((await get(`/v2/users/${user.id}`, {}, {}, ref.options.ownLicenceClientId)).status, 404);
      assert.equal(referenceProfile(ref.url, ref.options).users?.ownLicence?.restrictedStatus, 404);
    });
  });

  test('asset-groups-without-flow-ignored: asset groups without user_flow leave the context as it is', () => {
    const variants = new VariantSet(['asset-groups-without-flow-ignored']);
    const resolveWith = (query: Record<string, string>) => resolveJourneyContext(new URLSearchParams(query), CLEAN, variants);
    assert.deepEqual(resolveWith({ asset_group: 'crypto' }), { ok: true, journeys: DEFAULT_JOURNEYS, source: 'default' });
    const journeys = resolveWith({ 'user_journey[]': 'trading', asset_group: 'crypto' });
    assert.ok(journeys.ok && journeys.journeys.join() === 'trading');
    assert.ok(!resolveWith({ user_flow: 'onboard', asset_group: 'crypto' }).ok, 'rule 5 still applies to flows');
  });

  test('registered-at-offset and registered-at-fractional-seconds: the same instant, written otherwise, still valid', async () => {
    await withVariants(['registered-at-offset', 'registered-at-fractional-seconds'], async (get) => {
      for (const seeded of users) {
        const res = await get(`/v2/users/${seeded.id}`);
        const value = res.body.data.registered_at as string;
        assert.match(value, /\.000\+02:00$/);
        assert.equal(Date.parse(value), Date.parse(seeded.registered_at));
        assert.deepEqual(validateAgainst(SCHEMA, res.body), []);
      }
    });
  });

  test('timestamps-iso8601-basic: registered_at in basic format, a whole-hour offset as ±hh, the same instant, still valid', async () => {
    await withVariants(['timestamps-iso8601-basic'], async (get) => {
      const written = new Set<string>();
      for (const seeded of users) {
        const res = await get(`/v2/users/${seeded.id}`);
        const value = res.body.data.registered_at as string;
        assert.match(value, /^\d{8}T\d{6}(Z|\+02)$/);
        written.add(value.slice(15));
        assert.equal(parseIso8601(value), Date.parse(seeded.registered_at));
        assert.deepEqual(validateAgainst(SCHEMA, res.body), []);
      }
      assert.deepEqual([...written].sort(), ['+02', 'Z'], 'both offsets the seed has, each written the basic way');
    });
  });

  test('terms-descending: the same terms, largest id first', async () => {
    await withVariants(['terms-descending'], async (get) => {
      const terms = (await get(`/v2/users/${user.id}`, { user_flow: 'crypto_transfer' })).body.data.terms_not_accepted as number[];
      assert.deepEqual(terms, [601, 301, 102]);
    });
  });

  test('repeated-parameter-last-wins: a single-valued parameter given twice is read as its last value', () => {
    const variants = new VariantSet(['repeated-parameter-last-wins']);
    const resolveWith = (params: URLSearchParams) => resolveJourneyContext(params, CLEAN, variants);
    const flow = resolveWith(new URLSearchParams([['user_flow', 'onboard'], ['user_flow', 'stake']]));
    assert.ok(flow.ok && flow.source === 'user_flow' && [...flow.journeys].sort().join() === 'crypto,staking', JSON.stringify(flow));
    const group = resolveWith(new URLSearchParams([['user_flow', 'trade_buy'], ['asset_group', 'metals'], ['asset_group', 'crypto']]));
    assert.ok(group.ok && [...group.journeys].sort().join() === 'crypto,trading', JSON.stringify(group));
    const unknownLast = resolveWith(new URLSearchParams([['user_flow', 'trade_buy'], ['asset_group', 'crypto'], ['asset_group', 'b']]));
    assert.ok(!unknownLast.ok, 'the last value is still held to the asset groups');
    assert.ok(!resolveJourneyContext(new URLSearchParams([['user_flow', 'onboard'], ['user_flow', 'stake']]), CLEAN).ok, 'without the variant a repeat is refused');
  });

  test('content-language: only in answer to Accept-Language, naming the tag as the client wrote it', async () => {
    await withVariants(['content-language'], async (get, ref) => {
      // fetch always sends Accept-Language (*), so the header-less request goes through node:http.
      const bearer = await tokenFor(ref);
      const withoutAcceptLanguage = await new Promise<IncomingMessage>((resolve, reject) =>
        httpGet(`${ref.url}/v2/users/${user.id}`, { headers: { authorization: `Bearer ${bearer}` } }, resolve).on('error', reject),
      );
      withoutAcceptLanguage.resume();
      assert.equal(withoutAcceptLanguage.statusCode, 200);
      assert.equal(withoutAcceptLanguage.headers['content-language'], undefined);
      assert.equal((await get(`/v2/users/${user.id}`, {}, { 'accept-language': 'de-DE, en;q=0.5' })).headers.get('content-language'), 'de-DE');
      assert.equal((await get(`/v2/users/${user.id}`, {}, { 'accept-language': 'ja' })).headers.get('content-language'), 'en');
    });
    assert.equal(matchedLanguageRange('fr-CA;q=0.8, de', 'de'), 'de');
    assert.equal(matchedLanguageRange('*', 'en'), 'en');
  });
});
