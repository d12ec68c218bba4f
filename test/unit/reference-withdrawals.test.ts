// The reference's withdrawal-address operation over real HTTP: what it
// stores and returns (validated against the suite's schemas), the status
// code of every refusal, and that no hostile input makes it answer 5xx.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { seedDirectory } from '../../reference/crypto-transfers/directory.ts';
import { seedUsers } from '../../reference/fixtures/users.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { describeSchemaErrors, validateAgainst } from '../../src/schemas/registry.ts';

const PATH = '/v1/crypto-transfers/addresses/withdrawals';

let ref: RunningReference;
let token = '';
const [owner, other] = seedUsers(1).map((u) => u.id);
const body = referenceProfile('http://127.0.0.1:1').cryptoTransfers!.withdrawalAddress!;

interface Answer {
  status: number;
  contentType: string | null;
  json: any;
}

async function post(options: { body?: string; json?: unknown; userId?: string; bearer?: string | null; contentType?: string }): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  if (options.bearer !== null) headers.authorization = `Bearer ${options.bearer ?? token}`;
  if (options.userId !== undefined) headers['svc-user-id'] = options.userId;
  const res = await fetch(ref.url + PATH, { method: 'POST', headers, body: options.body ?? JSON.stringify(options.json ?? body) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), json: text ? JSON.parse(text) : undefined };
}

function assertAddress(answer: Answer): Record<string, unknown> {
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  const errors = validateAgainst('withdrawal-address-response.schema.json', answer.json);
  assert.deepEqual(errors, [], describeSchemaErrors(errors));
  return answer.json.data;
}

before(async () => {
  ref = await startReference({ port: 0 });
  const res = await fetch(`${ref.url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: ref.options.clientId, client_secret: ref.options.clientSecret }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
});

after(() => ref.close());

test("the reference's crypto-transfers profile section validates, its body against the request schema", () => {
  const section = referenceProfile('http://127.0.0.1:1').cryptoTransfers;
  assert.deepEqual(validateAgainst('profile/crypto-transfers.schema.json', section), []);
  assert.deepEqual(validateAgainst('withdrawal-address-request.schema.json', section!.withdrawalAddress), []);
});

test('a created address matches the 2.3 schema, echoes what was sent, is in UTC and belongs to its user', async () => {
  const before = Date.now();
  const address = assertAddress(await post({ userId: owner }));
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
  const cases: Array<[string, Parameters<typeof post>[0], number]> = [
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
  const { user_owned: _owned, ...withoutOwned } = body;
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
