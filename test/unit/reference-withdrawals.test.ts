// The reference's withdrawal-address operation over real HTTP: what it
// stores and returns (validated against the suite's schemas), the status
// code of every refusal, and that no hostile input makes it answer 5xx.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { seedDirectory } from '../../reference/crypto-transfers/directory.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';
import { parseIso8601 } from '../../src/schemas/iso8601.ts';
import { variesPerRequest, withFreshValues } from '../../src/placeholders.ts';
import { compareField } from '../../suites/crypto-transfers/echo.ts';

const PATH = '/v1/crypto-transfers/addresses/withdrawals';

let ref: RunningReference;
let token = '';
const [owner, other] = seedUsers(1).map((u) => u.id);
const template = referenceProfile('http://127.0.0.1:1').cryptoTransfers!.withdrawalAddress!;
/** The profile's body as the suite sends it: a fresh destination tag each time. */
const fresh = () => withFreshValues(template);
const body = fresh();

interface Answer {
  status: number;
  contentType: string | null;
  json: any;
}

interface PostOptions {
  body?: string;
  json?: unknown;
  userId?: string;
  bearer?: string | null;
  contentType?: string;
  /** Another reference than the shared one (a variant's). */
  to?: { url: string; token: string };
}

async function post(options: PostOptions): Promise<Answer> {
  const target = options.to ?? { url: ref.url, token };
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  if (options.bearer !== null) headers.authorization = `Bearer ${options.bearer ?? target.token}`;
  if (options.userId !== undefined) headers['svc-user-id'] = options.userId;
  const res = await fetch(target.url + PATH, { method: 'POST', headers, body: options.body ?? JSON.stringify(options.json ?? fresh()) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), json: text ? JSON.parse(text) : undefined };
}

function assertAddress(answer: Answer): Record<string, unknown> {
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  const errors = validateAgainst('withdrawal-address-response.schema.json', answer.json);
  assert.deepEqual(errors, [], describeSchemaErrors(errors));
  return answer.json.data;
}

async function accessToken(running: RunningReference): Promise<string> {
  const res = await fetch(`${running.url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: running.options.clientId, client_secret: running.options.clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

before(async () => {
  ref = await startReference({ port: 0 });
  token = await accessToken(ref);
});

after(() => ref.close());

test("the reference's crypto-transfers profile section validates, its body against the request schema", () => {
  const section = referenceProfile('http://127.0.0.1:1').cryptoTransfers;
  assert.deepEqual(validateAgainst('profile/crypto-transfers.schema.json', section), []);
  assert.deepEqual(validateAgainst('withdrawal-address-request.schema.json', section!.withdrawalAddress), []);
  assert.deepEqual(validateAgainst('withdrawal-address-request.schema.json', fresh()), []);
});

test("the reference's profile body registers a new address on every request (a generated destination tag)", () => {
  assert.ok(variesPerRequest(template));
  const tags = new Set(Array.from({ length: 20 }, () => fresh().destination_tag));
  assert.equal(tags.size, 20);
  for (const tag of tags) assert.match(String(tag), /^\d{10}$/);
  // The host name is the short one a user types; the directory holds the registered name (directory-host-name).
  const vasp = seedDirectory(1).vasps.get(template.host_id!)!;
  assert.equal(template.host_name, vasp.shortName);
  assert.notEqual(vasp.name, vasp.shortName);
});

test('a created address matches the 2.3 schema, echoes what was sent, is in UTC and belongs to its user', async () => {
  const before = Date.now();
  const address = assertAddress(await post({ userId: owner, json: body }));
  for (const [field, value] of Object.entries(body)) assert.equal(address[field], value, field);
  assert.match(String(address.created_at), /Z$/);
  assert.ok(Math.abs(Date.parse(String(address.created_at)) - before) < 5_000);
  const network = seedDirectory(1).coinNetworks.get(body.coin_network_id!)!;
  assert.equal(address.asset_id, network.assetId);
  assert.equal(address.network_id, network.networkId);
  assert.equal(address.destination_tag_type, 'DESTINATION_TAG');

  const book = async (userId: string) => {
    const res = await fetch(`${ref.url}/reference/v1/users/${userId}/withdrawal-addresses`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { data: Array<{ id: string }> }).data.map((a) => a.id);
  };
  assert.ok((await book(owner!)).includes(String(address.id)));
  assert.ok(!(await book(other!)).includes(String(address.id)));
});

test('a self-hosted address without host_id or tag validates too (nil host_id, tag type NONE)', async () => {
  const { host_id: _id, host_name: _name, destination_tag: _tag, ...rest } = body;
  const address = assertAddress(await post({ userId: owner, json: { ...rest, host_type: 'SELF_HOSTED', user_owned: true, owner_legal_name: undefined } }));
  assert.equal(address.host_id, '00000000-0000-0000-0000-000000000000');
  assert.equal(address.destination_tag, '');
  assert.equal(address.destination_tag_type, 'NONE');
  assert.equal(address.owner_legal_name, '');
});

test('refusals carry the documented codes', async () => {
  const btc = [...seedDirectory(1).coinNetworks.values()].find((n) => n.destinationTagType === 'NONE')!;
  const cases: Array<[string, PostOptions, number]> = [
    ['no bearer', { userId: owner, bearer: null }, 401],
    ['a garbage bearer', { userId: owner, bearer: 'garbage' }, 401],
    ['no svc-user-id', {}, 422],
    ['a malformed svc-user-id', { userId: 'nope' }, 422],
    ['an unknown user', { userId: crypto.randomUUID() }, 404],
    ['text/plain', { userId: owner, contentType: 'text/plain' }, 400],
    ['an empty body', { userId: owner, body: '' }, 400],
    ['malformed JSON', { userId: owner, body: '{"address":' }, 400],
    ['a JSON array', { userId: owner, json: [body] }, 422],
    ['JSON null', { userId: owner, body: 'null' }, 422],
    ['user_owned as a string', { userId: owner, json: { ...body, user_owned: 'false' } }, 422],
    ['a malformed coin_network_id', { userId: owner, json: { ...body, coin_network_id: 'x' } }, 422],
    ['an unknown coin network', { userId: owner, json: { ...body, coin_network_id: crypto.randomUUID() } }, 422],
    ['a malformed host_id', { userId: owner, json: { ...body, host_id: '1234' } }, 422],
    ['KNOWN_VASP with an unknown VASP', { userId: owner, json: { ...body, host_id: crypto.randomUUID() } }, 422],
    ['KNOWN_VASP without host_name', { userId: owner, json: { ...body, host_name: '' } }, 422],
    ['an unknown host_type', { userId: owner, json: { ...body, host_type: 'BANK' } }, 422],
    ['not user-owned without an owner name', { userId: owner, json: { ...body, owner_legal_name: ' ' } }, 422],
    ['a tag on a network without tags', { userId: owner, json: { ...body, coin_network_id: btc.id } }, 422],
    ['an address with spaces', { userId: owner, json: { ...body, address: 'r Eb8' } }, 422],
    ['an oversize body', { userId: owner, json: { ...body, address: 'x'.repeat(70_000) } }, 413],
  ];
  for (const [what, request, expected] of cases) {
    const answer = await post(request);
    assert.equal(answer.status, expected, `${what}: ${JSON.stringify(answer.json)}`);
    assert.equal(answer.contentType, 'application/json', what);
    assert.equal(typeof answer.json.error.code, 'string', what);
  }
});

test('hostile bodies never cause a 5xx', async () => {
  const { user_owned: _owned, ...withoutOwned } = fresh();
  const hostile = [
    '\u0000\u0001\u0002',
    '{"a":'.repeat(2_000),
    '['.repeat(5_000),
    JSON.stringify({ ...body, constructor: { prototype: { polluted: true } } }),
    JSON.stringify({ ...body, address: '\u202e\ud83d\ude00' }),
    JSON.stringify({ ...body, destination_tag: 7 }),
    JSON.stringify({ ...body, user_owned: null }),
    '"just a string"',
    '12',
    'true',
    '\ufeff' + JSON.stringify(body),
  ];
  for (const text of hostile) {
    const answer = await post({ userId: owner, body: text });
    assert.ok(answer.status < 500, `${text.slice(0, 40)} → ${answer.status}`);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  // A "__proto__" member is an own property after JSON.parse: it must not supply user_owned.
  const proto = await post({ userId: owner, body: JSON.stringify(withoutOwned).replace(/^\{/, '{"__proto__":{"user_owned":true},') });
  assert.equal(proto.status, 422, JSON.stringify(proto.json));
});

describe('legitimate variants of create withdrawal address (reference/variants/crypto-transfers.ts)', () => {
  async function variantReference(variants: string[]) {
    const running = await startReference({ port: 0, variants });
    return { running, to: { url: running.url, token: await accessToken(running) } };
  }

  test('duplicate-address-refused: the same network, address and tag again is 422; another tag or another user is not a duplicate', async () => {
    const { running, to } = await variantReference(['duplicate-address-refused']);
    try {
      const first = fresh();
      assertAddress(await post({ to, userId: owner, json: first }));
      const again = await post({ to, userId: owner, json: first });
      assert.equal(again.status, 422, JSON.stringify(again.json));
      assert.equal(again.json.error.code, 'parameter_error');
      assertAddress(await post({ to, userId: owner, json: fresh() }));
      assertAddress(await post({ to, userId: other, json: first }));
      // Owner name or host differences do not make another beneficiary address.
      assert.equal((await post({ to, userId: owner, json: { ...first, owner_legal_name: 'Someone Else' } })).status, 422);
    } finally {
      await running.close();
    }
  });

  test('timestamps-iso8601-basic: created_at in basic format with a decimal comma, in UTC, valid against 2.3', async () => {
    const { running, to } = await variantReference(['timestamps-iso8601-basic']);
    try {
      const before = Date.now();
      const createdAt = String(assertAddress(await post({ to, userId: owner, json: fresh() })).created_at);
      assert.match(createdAt, /^\d{8}T\d{6},\d{3}Z$/);
      assert.ok(Math.abs(parseIso8601(createdAt)! - before) < 5_000, createdAt);
    } finally {
      await running.close();
    }
  });

  test('directory-host-name: a KNOWN_VASP comes back with the directory\'s registered name, which differs from the one sent, and may be left out', async () => {
    const { running, to } = await variantReference(['directory-host-name']);
    try {
      const vasp = seedDirectory(1).vasps.get(template.host_id!)!;
      const address = assertAddress(await post({ to, userId: owner, json: fresh() }));
      assert.equal(address.host_name, vasp.name);
      assert.notEqual(address.host_name, template.host_name);
      const { host_name: _name, ...withoutName } = fresh();
      assert.equal(assertAddress(await post({ to, userId: owner, json: withoutName })).host_name, vasp.name);
      const selfHosted = { ...fresh(), host_type: 'UNKNOWN_VASP', host_name: 'Some Wallet Ltd', destination_tag: undefined };
      assert.equal(assertAddress(await post({ to, userId: owner, json: selfHosted })).host_name, 'Some Wallet Ltd', 'only a KNOWN_VASP takes the directory name');
    } finally {
      await running.close();
    }
  });

  test('owner-name-normalised: owner_legal_name is stored trimmed, whitespace collapsed, NFC, upper case', async () => {
    const { running, to } = await variantReference(['owner-name-normalised']);
    try {
      assert.equal(assertAddress(await post({ to, userId: owner, json: fresh() })).owner_legal_name, 'ERIKA MUSTERMANN');
      const spaced = { ...fresh(), owner_legal_name: '  Jose\u0301   Mu\u0308ller ' };
      assert.equal(assertAddress(await post({ to, userId: owner, json: spaced })).owner_legal_name, 'JOS\u00c9 M\u00dcLLER');
    } finally {
      await running.close();
    }
  });

  test('unknown-user-403, missing-user-header-400, user-id-shape-unchecked: other refusal codes of 4.3\'s list', async () => {
    const { running, to } = await variantReference(['unknown-user-403', 'missing-user-header-400', 'user-id-shape-unchecked']);
    try {
      assert.equal((await post({ to, userId: crypto.randomUUID() })).status, 403);
      assert.equal((await post({ to })).status, 400);
      assert.equal((await post({ to, userId: '' })).status, 400);
      assert.equal((await post({ to, userId: 'not-a-user-id' })).status, 403);
      assertAddress(await post({ to, userId: owner }));
    } finally {
      await running.close();
    }
    const alone = await variantReference(['user-id-shape-unchecked']);
    try {
      assert.equal((await post({ to: alone.to, userId: 'not-a-user-id' })).status, 404);
      assert.equal((await post({ to: alone.to })).status, 422);
    } finally {
      await alone.running.close();
    }
  });

  test('lenient-scalar-types: "true"/"false" and numbers are read as the field\'s type, and the answer has the types of 2.3', async () => {
    const { running, to } = await variantReference(['lenient-scalar-types']);
    try {
      const asString = assertAddress(await post({ to, userId: owner, json: { ...fresh(), user_owned: 'false' } }));
      assert.equal(asString.user_owned, false);
      assert.equal(assertAddress(await post({ to, userId: owner, json: { ...fresh(), user_owned: 'true' } })).user_owned, true);
      assert.equal(assertAddress(await post({ to, userId: owner, json: { ...fresh(), address: 12345 } })).address, '12345');
      for (const refused of [{ user_owned: 'no' }, { host_id: '1234-5678' }, { coin_network_id: 42 }, { host_name: { name: 'x' } }]) {
        assert.equal((await post({ to, userId: owner, json: { ...fresh(), ...refused } })).status, 422, JSON.stringify(refused));
      }
    } finally {
      await running.close();
    }
  });
});

describe("the suite's reading of what comes back (suites/crypto-transfers/echo.ts)", () => {
  const sent = { ...fresh(), address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', destination_tag: '104938' };
  const kind = (field: string, returned: unknown, overrides: Record<string, unknown> = {}) =>
    compareField(field, { ...sent, ...overrides }, { ...sent, ...overrides, [field]: returned }).kind;

  test('beneficiary information: another value or none differs, a canonical spelling is normalised', () => {
    assert.equal(kind('owner_legal_name', 'Erika Mustermann'), 'same');
    assert.equal(kind('owner_legal_name', ' ERIKA  MUSTERMANN '), 'normalised');
    assert.equal(kind('owner_legal_name', 'Erika Mustermann', { owner_legal_name: 'Erika Muster\u0301mann' }), 'review');
    assert.equal(kind('owner_legal_name', ''), 'differs');
    assert.equal(kind('owner_legal_name', 'Max Mustermann'), 'differs');
    assert.equal(kind('address', ' rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh'), 'normalised');
    assert.equal(kind('address', 'REB8TK3GBGK5AUZKWC6SHNWRGVJH8DUALH'), 'review', 'base58: case names another address');
    assert.equal(kind('address', '0xABCDEF0123456789abcdef0123456789ABCDEF01', { address: '0xabcdef0123456789abcdef0123456789abcdef01' }), 'normalised');
    assert.equal(kind('address', 'rSomethingElse'), 'differs');
    assert.equal(kind('destination_tag', '0104938'), 'normalised');
    assert.equal(kind('destination_tag', '104939'), 'differs');
    assert.equal(kind('destination_tag', ''), 'differs');
    assert.equal(kind('user_owned', 'false'), 'differs');
    assert.equal(kind('coin_network_id', String(sent.coin_network_id).toUpperCase()), 'normalised');
    assert.equal(kind('coin_network_id', crypto.randomUUID()), 'differs');
  });

  test('the host of a KNOWN_VASP may come from the directory (review); a host the partner described is compared', () => {
    assert.equal(kind('host_name', 'Reference Custody GmbH'), 'review');
    assert.equal(kind('host_id', crypto.randomUUID()), 'review');
    assert.equal(kind('host_name', 'REFERENCE CUSTODY'), 'normalised');
    const unknownVasp = { host_type: 'UNKNOWN_VASP', host_name: 'Some Wallet Ltd' };
    assert.equal(kind('host_name', 'SOME WALLET LTD', unknownVasp), 'normalised');
    assert.equal(kind('host_name', 'Other Wallet Ltd', unknownVasp), 'differs');
    assert.equal(kind('host_type', 'SELF_HOSTED', unknownVasp), 'differs');
    assert.equal(kind('host_type', 'KNOWN_VASP', unknownVasp), 'review', 'the service recognised the host in its directory');
  });
});
