// Creating a withdrawal address (spec 4.3, 2.3): 200 with {data: address},
// JSON, carrying what was sent, created_at in UTC, KNOWN_VASP accepted.
// Every create sends a fresh fill of the profile's body (support.ts) and
// compares the answer with what it sent.
import { defineCheck } from '../../runner/index.ts';
import { compareField } from './echo.ts';
import { expectTimestamp } from '../../src/check/timestamp-field.ts';
import { CREATED_AT, REQUEST_FIELDS, addressOf, createAddress, freshBody, postWithdrawalAddress, withdrawalFixture } from './support.ts';

defineCheck(
  {
    id: 'crypto-transfers.create-address-schema',
    title: 'Creating a withdrawal address answers 200 with the address of 2.3',
    requirements: ['WDA-CREATE-SCHEMA'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const { res } = await createAddress(check, http, tokens, fixture);
    check.expectSchema(res, 'withdrawal-address-response.schema.json', 'created withdrawal address');
  },
);

defineCheck(
  {
    id: 'crypto-transfers.responses-are-json',
    title: 'Withdrawal-address answers carry JSON bodies (application/json)',
    requirements: ['WDA-JSON-BODY'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const bearer = tokens;
    const { res: created } = await createAddress(check, http, bearer, fixture);
    check.expectJsonContentType(created, 'the 200 answer to creating a withdrawal address');
    if (created.json === undefined) check.fail(`the 200 answer to creating a withdrawal address is not JSON: ${created.jsonError}`);
    const refused = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, json: { ...freshBody(fixture), user_owned: 'no' }, label: 'a body error, for its answer' });
    // An error body is not shown (7); when there is one it is JSON like every body of the API (1).
    if (refused.status >= 400 && refused.body.length > 0) check.expectJsonContentType(refused, `the ${refused.status} answer to a body error`);
  },
);

// What comes back must be what was registered (1: the operation "registers a
// beneficiary address in the address book, with the beneficiary information
// required for travel-rule and crypto-asset regulation compliance"), but not
// byte for byte: the spec never says the answer repeats the request, and a
// service may keep one canonical spelling of what it was told, or take what
// it knows better from its own records. Per field (echo.ts holds the table):
// - the beneficiary information — address, destination_tag, user_owned,
//   owner_legal_name — and coin_network_id are registered as sent: another
//   value, or none, FAILs; the same value in another spelling (whitespace,
//   Unicode NFC, letter case where it does not change the meaning: a legal
//   name, a hex or bech32 address, a numeric tag's leading zeros) is INFO;
//   letter case of another address encoding (base58: case names another
//   address) and a name without its diacritics are REVIEW;
// - the host — host_type, host_name, host_id — of a KNOWN_VASP is one the
//   service knows from its VASP directory ("List of VASPs", 4.5; 2.3
//   host_name: "Name of the hosting provider"), so a difference there is
//   REVIEW; a host the partner described itself is compared like the rest.
defineCheck(
  {
    id: 'crypto-transfers.address-echoes-request',
    title: 'The created address carries the values that were sent (a canonical spelling or a directory value aside)',
    requirements: ['WDA-ECHOES-REQUEST'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const { res, sent } = await createAddress(check, http, tokens, fixture);
    const address = addressOf(res);
    const compared = REQUEST_FIELDS.filter((field) => sent[field] !== undefined).map((field) => ({ field, outcome: compareField(field, sent, address) }));
    const shown = (field: string) => `${field} sent ${JSON.stringify(sent[field])}, returned ${JSON.stringify(address[field] ?? null)}`;
    for (const { field, outcome } of compared) {
      if (outcome.kind === 'normalised') check.note(`${shown(field)}: the same value, ${outcome.how}`);
      if (outcome.kind === 'review') check.review(`${shown(field)}: ${outcome.why}`, { field, sent: sent[field], returned: address[field] ?? null });
    }
    const differing = compared.filter((c) => c.outcome.kind === 'differs');
    if (differing.length) {
      check.fail(`the created address does not carry what was registered: ${differing.map((c) => `${shown(c.field)} (${c.outcome.kind === 'differs' ? c.outcome.why : ''})`).join('; ')}`, {
        sent: Object.fromEntries(differing.map((c) => [c.field, sent[c.field]])),
        returned: Object.fromEntries(differing.map((c) => [c.field, address[c.field] ?? null])),
      });
    }
    const unsent = REQUEST_FIELDS.filter((field) => sent[field] === undefined);
    if (unsent.length) check.note(`not sent, so not compared: ${unsent.join(', ')} (add them to cryptoTransfers.withdrawalAddress)`);
  },
);

defineCheck(
  {
    id: 'crypto-transfers.created-at-is-utc',
    title: 'created_at is an ISO 8601 timestamp in UTC',
    requirements: ['WDA-CREATED-AT-UTC'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    const { res } = await createAddress(check, http, tokens, fixture);
    expectTimestamp(check, CREATED_AT, addressOf(res).created_at, { exchange: res.exchangeId });
  },
);

defineCheck(
  {
    id: 'crypto-transfers.known-vasp-accepted',
    title: 'host_type KNOWN_VASP is accepted',
    requirements: ['WDA-KNOWN-VASP'],
  },
  async ({ check, http, profile, tokens }) => {
    const fixture = withdrawalFixture(profile, check);
    if (fixture.template.host_type !== 'KNOWN_VASP') {
      return check.skip(`the profile's body has host_type ${JSON.stringify(fixture.template.host_type)}; KNOWN_VASP needs a VASP's host_id`, 'cryptoTransfers.withdrawalAddress.host_type');
    }
    // A refusal of the profile's KNOWN_VASP body is a profile-declared FAIL (createAddress): it may be KNOWN_VASP or another field.
    const { res } = await createAddress(check, http, tokens, fixture, {
      label: 'create a KNOWN_VASP withdrawal address',
      whatItHolds: 'its host_type is KNOWN_VASP, which 4.3 names as one value: a refusal of KNOWN_VASP itself would contradict the spec',
    });
    const hostType = addressOf(res).host_type;
    if (hostType !== 'KNOWN_VASP') check.fail(`a KNOWN_VASP address came back with host_type ${JSON.stringify(hostType ?? null)}`, { expected: 'KNOWN_VASP', actual: hostType ?? null });
  },
);
