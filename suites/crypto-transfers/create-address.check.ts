// Creating a withdrawal address (spec 4.3, 2.3): 200 with {data: address},
// JSON, carrying what was sent, created_at in UTC, KNOWN_VASP accepted.
import { defineCheck } from '../../src/check/index.ts';
import { REQUEST_FIELDS, addressOf, createAddress, postWithdrawalAddress, withdrawalFixture } from './support.ts';

const UUID_FIELDS = new Set(['coin_network_id', 'host_id']);

defineCheck(
  {
    id: 'crypto-transfers.create-address-schema',
    title: 'Creating a withdrawal address answers 200 with the address of 2.3',
    area: 'crypto-transfers',
    requirements: ['WDA-CREATE-SCHEMA'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const res = await createAddress(check, http, await tokens.get(), fixture);
    check.expectSchema(res, 'withdrawal-address-response.schema.json', 'created withdrawal address');
  },
);

defineCheck(
  {
    id: 'crypto-transfers.responses-are-json',
    title: 'Withdrawal-address answers carry JSON bodies (application/json)',
    area: 'crypto-transfers',
    requirements: ['WDA-JSON-BODY'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = await tokens.get();
    const created = await createAddress(check, http, bearer, fixture);
    check.expectJsonContentType(created, 'the 200 answer to creating a withdrawal address');
    if (created.json === undefined) check.fail(`the 200 answer to creating a withdrawal address is not JSON: ${created.jsonError}`);
    const refused = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, json: { ...fixture.body, user_owned: 'no' }, label: 'a body error, for its answer' });
    // An error body is not shown (7); when there is one it is JSON like every body of the API (1).
    if (refused.status >= 400 && refused.body.length > 0) check.expectJsonContentType(refused, `the ${refused.status} answer to a body error`);
  },
);

defineCheck(
  {
    id: 'crypto-transfers.address-echoes-request',
    title: 'The created address carries the values that were sent',
    area: 'crypto-transfers',
    requirements: ['WDA-ECHOES-REQUEST'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const res = await createAddress(check, http, await tokens.get(), fixture);
    const address = addressOf(res);
    const sent = REQUEST_FIELDS.filter((field) => fixture.body[field] !== undefined);
    const differing = sent.filter((field) => {
      const want = fixture.body[field];
      const got = address[field];
      return UUID_FIELDS.has(field) && typeof want === 'string' && typeof got === 'string' ? want.toLowerCase() !== got.toLowerCase() : want !== got;
    });
    if (differing.length) {
      const shown = differing.map((f) => `${f} sent ${JSON.stringify(fixture.body[f])}, returned ${JSON.stringify(address[f])}`);
      check.fail(`the created address does not carry what was sent: ${shown.join('; ')}`, {
        sent: Object.fromEntries(differing.map((f) => [f, fixture.body[f]])),
        returned: Object.fromEntries(differing.map((f) => [f, address[f] ?? null])),
      });
    }
    const unsent = REQUEST_FIELDS.filter((field) => fixture.body[field] === undefined);
    if (unsent.length) check.note(`not sent, so not compared: ${unsent.join(', ')} (add them to cryptoTransfers.withdrawalAddress)`);
  },
);

defineCheck(
  {
    id: 'crypto-transfers.created-at-is-utc',
    title: 'created_at is an ISO 8601 timestamp in UTC',
    area: 'crypto-transfers',
    requirements: ['WDA-CREATED-AT-UTC'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const res = await createAddress(check, http, await tokens.get(), fixture);
    const createdAt = addressOf(res).created_at;
    if (typeof createdAt !== 'string') return check.fail(`created_at is ${JSON.stringify(createdAt ?? null)}, not an ISO 8601 string`);
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})$/i.exec(createdAt);
    if (!iso || Number.isNaN(Date.parse(createdAt))) check.fail(`created_at ${createdAt} is not an ISO 8601 timestamp with a time zone`, { created_at: createdAt });
    const zone = iso![1]!;
    if (!/^(Z|\+00:?00)$/i.test(zone)) check.fail(`created_at ${createdAt} is at offset ${zone}, not in UTC (Z or +00:00)`, { created_at: createdAt });
  },
);

defineCheck(
  {
    id: 'crypto-transfers.known-vasp-accepted',
    title: 'host_type KNOWN_VASP is accepted',
    area: 'crypto-transfers',
    requirements: ['WDA-KNOWN-VASP'],
    severity: 'MUST',
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    if (fixture.body.host_type !== 'KNOWN_VASP') {
      return check.skip(`the profile's body has host_type ${JSON.stringify(fixture.body.host_type)}; KNOWN_VASP needs a VASP's host_id`, 'cryptoTransfers.withdrawalAddress.host_type');
    }
    const res = await postWithdrawalAddress(http, { bearer: await tokens.get(), userId: fixture.userId, json: fixture.body, label: 'create a KNOWN_VASP withdrawal address' });
    if (res.status !== 200) check.fail(`a withdrawal address with host_type KNOWN_VASP was refused: ${res.status}`, { expected: 200, actual: res.status, exchange: res.exchangeId });
    const hostType = addressOf(res).host_type;
    if (hostType !== 'KNOWN_VASP') check.fail(`a KNOWN_VASP address came back with host_type ${JSON.stringify(hostType ?? null)}`, { expected: 'KNOWN_VASP', actual: hostType ?? null });
  },
);
