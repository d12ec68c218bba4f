// Creating a withdrawal address (spec 4.3, 2.3): 200 with {data: address},
// JSON, carrying what was sent, created_at in UTC, KNOWN_VASP accepted.
// Every create sends a fresh fill of the profile's body (support.ts) and
// compares the answer with what it sent.
import { defineCheck, type CheckContext, type HttpClient, type HttpResponse } from '../../runner/index.ts';
import type { Bearer } from '../../src/http/outgoing.ts';
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';
import { PROFILE_BODY_KEY, REPEATS_NOTE, REQUEST_FIELDS, RESPONSE_200, addressOf, freshBody, postWithdrawalAddress, withdrawalFixture, type WithdrawalFixture } from './support.ts';
import { addressEchoes, createdAtUtc, createdIsJson, declaredBodyAccepted, knownVaspKept, type EchoInput } from './created-judgments.ts';

interface Created {
  res: HttpResponse;
  /** The body as it went on the wire. */
  sent: WithdrawalAddressRequest;
}

/**
 * Creates an address with a fresh fill of the profile's body and expects 200
 * (4.3 "Response 200"). Which bodies are valid is not shown: the profile
 * declares this one is, so a 4xx refusal is a profile-declared FAIL
 * (declaredBodyAccepted) — unless the body never varies, when the refusal may
 * be a duplicate of another check's address, which the spec allows: ERROR
 * (INCOMPLETE), with the fix.
 */
async function createAddress(check: CheckContext, http: HttpClient, bearer: Bearer, fixture: WithdrawalFixture, options: { label?: string; whatItHolds?: string } = {}): Promise<Created> {
  const label = options.label ?? 'create a withdrawal address';
  const sent = freshBody(fixture);
  const res = await postWithdrawalAddress(http, { bearer, userId: fixture.userId, json: sent, label });
  if (res.status >= 400 && res.status < 500 && !fixture.fresh) {
    throw new Error(
      `the profile's body (${PROFILE_BODY_KEY}) was refused for user ${fixture.userId} with ${res.status}; it names no generated placeholder, so this may be the implementation refusing a duplicate of an address another check created. ${REPEATS_NOTE}`,
    );
  }
  check.judge(declaredBodyAccepted, {
    status: res.status,
    ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}),
    userId: fixture.userId,
    ...(options.whatItHolds ? { whatItHolds: options.whatItHolds } : {}),
    declaredBody: check.declaredValue(PROFILE_BODY_KEY),
  });
  // A 5xx to the body the profile declares accepted: no address was registered (a transient 503 is ERROR, src/check/outcome.ts).
  check.expectStatus(res, 200, `creating a withdrawal address for user ${fixture.userId}`, { on: RESPONSE_200 });
  return { res, sent };
}

/** The request fields of a body or an address, those present only (JSON keeps no undefined). */
function requestFields(from: Record<string, unknown>): EchoInput['returned'] {
  return Object.fromEntries(REQUEST_FIELDS.filter((field) => from[field] !== undefined).map((field) => [field, from[field]]));
}

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
    check.judge(createdIsJson, { parsed: created.json !== undefined, ...(created.jsonError !== undefined ? { jsonError: created.jsonError } : {}) });
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
    check.judge(addressEchoes, { sent: requestFields(sent) as EchoInput['sent'], returned: requestFields(addressOf(res)) });
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
    const createdAt = addressOf(res).created_at;
    check.judge(createdAtUtc, { ...(createdAt !== undefined ? { createdAt } : {}), status: res.status, ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}) });
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
    check.judge(knownVaspKept, { hostType: addressOf(res).host_type ?? null });
  },
);
