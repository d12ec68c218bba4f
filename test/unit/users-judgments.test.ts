// The named judgments of suites/users and suites/crypto-transfers
// (src/check/judgments.ts): what the check bodies used to judge inline, now
// recorded as name and input and judged again from them. Three things are
// shown: (1) the most important ones, applied through a CheckContext and
// judged again from the record, give the verdict, reason and basis the
// inline calls they replace gave live (a FAIL on a transient answer stays
// ERROR); (2) each judgment that can FAIL does so on an input that
// contradicts its rule and makes no FAIL claim on one that holds it; (3) an
// input judges the same after a JSON round trip (results.json keeps it so).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isServerError, type CheckContext } from '../../src/check/context.ts';
import { contextWith, toItsEnd } from '../support/check-context.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import type { NamedJudgment } from '../../src/check/judgments.ts';
import { requirementById } from '../../src/requirements.ts';
import { registeredAtOffset, requestedUser } from '../../suites/users/body-judgments.ts';
import { languageServed, ownLicenceRestricted } from '../../suites/users/access-judgments.ts';
import { caseTermsReadable, defaultJourneyTerms, termsFollowCases } from '../../suites/users/terms-judgments.ts';
import { hostileInputAccepted, journeyRefused, parameterErrorCodes as usersParameterErrorCodes } from '../../suites/users/journey-judgments.ts';
import { formatTerms, sameTerms } from '../../suites/users/support.ts';
import { addressEchoes, createdAtUtc, createdIsJson, declaredBodyAccepted, knownVaspKept } from '../../suites/crypto-transfers/created-judgments.ts';
import { invalidBodiesNotTaken, parameterErrorCodes as transfersParameterErrorCodes, requiredFields } from '../../suites/crypto-transfers/refusal-judgments.ts';
import { compareField } from '../../suites/crypto-transfers/echo.ts';
import { PROFILE_BODY_KEY, REQUEST_FIELDS, contradictionOf2_3 } from '../../suites/crypto-transfers/support.ts';

const USER = '3f2b8c1e-8d4a-4f6b-9c2e-1a2b3c4d5e6f';
const OTHER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** A check's context as the runner makes it: the requirement's sentences, the profile, and the exchanges the check recorded. */
const contextOf = (requirement: string, profile: object = {}, answers: Array<[id: number, status: number]> = []): CheckContext =>
  contextWith({ requirements: [requirement], profile, answers: Object.fromEntries(answers) });

/** Runs a check body's step; a CheckFailure is how a check ends, anything else is a bug. */
function run(context: CheckContext, step: (check: CheckContext) => void): CheckContext {
  toItsEnd(() => step(context));
  return context;
}

const metaOf = (requirement: string) => ({ severity: requirementById(requirement)!.level, requirements: [requirement] });

/** Verdict, reason and basis: live (the claims the context made), and judged again from the record. */
function verdicts(requirement: string, context: CheckContext) {
  const meta = metaOf(requirement);
  const pick = ({ verdict, reason, basis }: ReturnType<typeof decideOutcome>) => ({ verdict, reason, basis });
  return { live: pick(decideOutcome({ severity: meta.severity, claims: context.claims })), again: pick(judgeRecord(meta, { claims: context.entries })) };
}

/**
 * (1): the inline calls a judgment replaced (as the check body made them
 * before) and the judgment, each through a context: the judgment's record
 * judged again gives what the inline calls gave live.
 */
function assertSameAsInline(requirement: string, setup: { profile?: object; answers?: Array<[number, number]> }, inline: (check: CheckContext) => void, named: (check: CheckContext) => void, expected: { verdict: string; basisKind?: string }) {
  const before = verdicts(requirement, run(contextOf(requirement, setup.profile, setup.answers), inline));
  const judged = run(contextOf(requirement, setup.profile, setup.answers), named);
  assert.ok(judged.entries.some((e) => 'judgment' in e), 'the record keeps the judgment, not its claims');
  const after = verdicts(requirement, judged);
  assert.equal(before.live.verdict, expected.verdict, 'the case is the one meant');
  if (expected.basisKind) assert.equal(before.live.basis?.kind, expected.basisKind);
  assert.deepEqual(after.live, before.live, 'live: the verdict, reason and basis of the inline calls');
  assert.deepEqual(after.again, before.live, 'judged again from the record: the same');
}

test('(1) users.details-names-requested-user: another id, or an id of another type, FAILs as inline, on the same sentence', () => {
  const inline = (id: unknown) => (check: CheckContext) => {
    if (id === undefined || id === null) return check.warn(`data.id is ${id === null ? 'null' : 'left out'}, so the user cannot be matched with the requested id (users.details-schema judges the body)`);
    if (typeof id !== 'string') return check.fail(`data.id is ${typeof id}, expected the requested user id`, { actual: id }, { on: 'SPEC-2-2-ID' });
    if (id.toLowerCase() !== USER.toLowerCase()) check.fail(`asked for user ${USER}, got data.id ${id}`, { expected: USER, actual: id });
  };
  const named = (id: unknown) => (check: CheckContext) => check.judge(requestedUser, { requested: USER, data: 'object', ...(id !== undefined ? { id } : {}) });
  const requirement = 'USERS-RETURNS-REQUESTED-USER';
  assertSameAsInline(requirement, {}, inline(OTHER), named(OTHER), { verdict: 'FAIL', basisKind: 'spec' });
  assertSameAsInline(requirement, {}, inline(42), named(42), { verdict: 'FAIL', basisKind: 'spec' });
  assertSameAsInline(requirement, {}, inline(null), named(null), { verdict: 'WARN' });
  assertSameAsInline(requirement, {}, inline(undefined), named(undefined), { verdict: 'WARN' });
  assertSameAsInline(requirement, {}, inline(USER.toUpperCase()), named(USER.toUpperCase()), { verdict: 'PASS' });
  // The id of another type rests on 2.2's id row, not the requirement's quote.
  const typed = verdicts(requirement, run(contextOf(requirement), named(42)));
  assert.match(typed.again.basis?.quote ?? '', /id/);
  assert.notEqual(typed.again.basis?.quote, requirementById(requirement)!.quote);
});

test('(1) users.declared-language-served: a declared language refused is a profile-declared FAIL naming the declared value; a 503 stays ERROR', () => {
  const requirement = 'USERS-ACCEPT-LANGUAGE';
  const profile = { users: { languages: ['en', 'de'] } };
  const inline = (status: number) => (check: CheckContext) => {
    if (status !== 200) check.failDeclared('users.languages', `user details with Accept-Language: de, a language the profile declares supported, answered ${status}`, { expected: 200, actual: status, exchange: 5 });
  };
  const named = (status: number) => (check: CheckContext) => check.judge(languageServed, { value: 'de', status, exchange: 5, languages: check.declaredValue('users.languages') });
  assertSameAsInline(requirement, { profile, answers: [[5, 406]] }, inline(406), named(406), { verdict: 'FAIL', basisKind: 'profile-declared' });
  const judged = verdicts(requirement, run(contextOf(requirement, profile, [[5, 406]]), named(406)));
  assert.deepEqual(judged.again.basis?.declaredValue, ['en', 'de']);
  assert.equal(judged.again.basis?.profileKey, 'users.languages');
  // The answer the claim rests on was transient: not a verdict on the implementation, as inline (CheckContext.observedIn).
  assertSameAsInline(requirement, { profile, answers: [[5, 503]] }, inline(503), named(503), { verdict: 'ERROR' });
  assertSameAsInline(requirement, { profile, answers: [[5, 200]] }, inline(200), named(200), { verdict: 'PASS' });
});

test('(1) users.default-journey-terms: terms other than the declared default FAIL against users.defaultTerms; a terms field of another type FAILs on 2.2', () => {
  const requirement = 'USERS-DEFAULT-JOURNEYS';
  const profile = { users: { defaultTerms: [1, 2] } };
  const what = 'the answer without journey parameters';
  const inline = (value: unknown) => (check: CheckContext) => {
    if (!Array.isArray(value)) {
      if (value === undefined || value === null) return check.warn(`${what} has no terms_not_accepted, so the terms of the journey context cannot be compared (users.details-schema judges the body)`);
      return check.fail(`${what}: terms_not_accepted is ${typeof value}, 2.2 types it as an array of integer`, { actual: value, exchange: 3 }, { on: 'SPEC-2-2-TERMS' });
    }
    const expected = [1, 2];
    if (!sameTerms(value, expected)) check.failDeclared('users.defaultTerms', `without journey parameters terms_not_accepted is ${formatTerms(value)}; the profile's default journeys give ${formatTerms(expected)}`, { expected, actual: value });
  };
  const named = (value: unknown) => (check: CheckContext) =>
    check.judge(defaultJourneyTerms, { data: 'object', ...(value !== undefined ? { terms: value } : {}), status: 200, exchange: 3, defaultTerms: check.declaredValue('users.defaultTerms') as number[] });
  const setup = { profile, answers: [[3, 200]] as Array<[number, number]> };
  assertSameAsInline(requirement, setup, inline([1, 3]), named([1, 3]), { verdict: 'FAIL', basisKind: 'profile-declared' });
  assertSameAsInline(requirement, setup, inline('1,2'), named('1,2'), { verdict: 'FAIL', basisKind: 'spec' });
  assertSameAsInline(requirement, setup, inline(undefined), named(undefined), { verdict: 'WARN' });
  assertSameAsInline(requirement, setup, inline([2, 1]), named([2, 1]), { verdict: 'PASS' });
});

test('(1) crypto-transfers.address-echoes-request: what did not come back as registered FAILs as inline; a canonical spelling is INFO, a directory value REVIEW', () => {
  const requirement = 'WDA-ECHOES-REQUEST';
  const sent = { coin_network_id: 'a1b2c3d4-0000-4000-8000-000000000001', address: '0xAbC123', host_type: 'KNOWN_VASP', host_name: 'Vasp One', owner_legal_name: 'José Müller', user_owned: true };
  const inline = (returned: Record<string, unknown>) => (check: CheckContext) => {
    const compared = REQUEST_FIELDS.filter((field) => sent[field as keyof typeof sent] !== undefined).map((field) => ({ field, outcome: compareField(field, sent, returned) }));
    const shown = (field: string) => `${field} sent ${JSON.stringify((sent as Record<string, unknown>)[field])}, returned ${JSON.stringify(returned[field] ?? null)}`;
    for (const { field, outcome } of compared) {
      if (outcome.kind === 'normalised') check.note(`${shown(field)}: the same value, ${outcome.how}`);
      if (outcome.kind === 'review') check.review(`${shown(field)}: ${outcome.why}`, { field, sent: (sent as Record<string, unknown>)[field], returned: returned[field] ?? null });
    }
    const differing = compared.filter((c) => c.outcome.kind === 'differs');
    if (differing.length) {
      check.fail(`the created address does not carry what was registered: ${differing.map((c) => `${shown(c.field)} (${c.outcome.kind === 'differs' ? c.outcome.why : ''})`).join('; ')}`, {
        sent: Object.fromEntries(differing.map((c) => [c.field, (sent as Record<string, unknown>)[c.field]])),
        returned: Object.fromEntries(differing.map((c) => [c.field, returned[c.field] ?? null])),
      });
    }
    const unsent = REQUEST_FIELDS.filter((field) => (sent as Record<string, unknown>)[field] === undefined);
    if (unsent.length) check.note(`not sent, so not compared: ${unsent.join(', ')} (add them to cryptoTransfers.withdrawalAddress)`);
  };
  const named = (returned: Record<string, unknown>) => (check: CheckContext) => check.judge(addressEchoes, { sent, returned });
  const differs = { ...sent, address: '0xDEF456', user_owned: false };
  assertSameAsInline(requirement, {}, inline(differs), named(differs), { verdict: 'FAIL', basisKind: 'spec' });
  const renamed = { ...sent, host_name: 'Another Directory Name', owner_legal_name: 'JOSÉ MÜLLER', address: '0xabc123' };
  assertSameAsInline(requirement, {}, inline(renamed), named(renamed), { verdict: 'REVIEW' });
  const { owner_legal_name: _left, ...withoutName } = sent;
  assertSameAsInline(requirement, {}, inline(withoutName), named(withoutName), { verdict: 'FAIL' });
  // The findings too, in order: INFO for each canonical spelling, REVIEW for the directory's name, the unsent fields.
  const judged = run(contextOf(requirement), named(renamed));
  const again = judgeRecord(metaOf(requirement), { claims: judged.entries });
  assert.deepEqual(
    again.findings.map((f) => f.level),
    ['INFO', 'REVIEW', 'INFO', 'INFO'],
  );
});

test('(1) crypto-transfers.invalid-bodies-not-taken: a 2xx whose body contradicts 2.3 FAILs on the first such answer\'s sentence, a lenient one WARNs', () => {
  const requirement = 'WDA-INVALID-BODY-REJECTED';
  const answers = [
    { what: 'an empty body', status: 400, exchange: 1 },
    { what: 'JSON null', status: 200, exchange: 2, jsonError: 'empty body' },
    { what: 'a malformed host_id', status: 200, exchange: 3, json: { data: { id: USER, host_id: '1234-5678' } } },
    { what: 'address as a number', status: 201, exchange: 4, json: { data: { id: USER, address: '12345' } } },
    { what: 'a JSON array', status: 500, exchange: 5 },
  ];
  const inline = (check: CheckContext) => {
    const contradictions: Array<{ why: string; on: string; exchange: number }> = [];
    const lenient: string[] = [];
    for (const answer of answers) {
      if ((answer.status >= 400 && answer.status < 500) || isServerError(answer.status)) continue;
      const contradiction = contradictionOf2_3(answer);
      if (contradiction) contradictions.push({ ...contradiction, why: `${answer.what} was answered ${answer.status}, and ${contradiction.why}`, exchange: answer.exchange });
      else lenient.push(`${answer.what}: ${answer.status}`);
    }
    if (lenient.length) {
      check.warn(
        `requests the operation does not take were not refused: ${lenient.join('; ')}. The spec gives each field's type (4.3) without a rule that a wrong one is refused, so this is leniency, not a contradiction; the answers carry 2.3's types`,
        { notRefused: lenient },
      );
    }
    const also = contradictions.map((c) => c.why);
    const [first] = contradictions;
    if (first) check.fail(`bodies the operation does not take: ${also.join('; ')}`, { contradictions: also, exchange: first.exchange }, { on: first.on });
  };
  const named = (check: CheckContext) => check.judge(invalidBodiesNotTaken, { answers });
  const exchanges = answers.map((a): [number, number] => [a.exchange, a.status]);
  assertSameAsInline(requirement, { answers: exchanges }, inline, named, { verdict: 'FAIL', basisKind: 'spec' });
  const judged = verdicts(requirement, run(contextOf(requirement, {}, exchanges), named));
  assert.match(judged.again.reason!, /^bodies the operation does not take: JSON null was answered 200, and its body is not JSON/);
  assert.match(judged.again.basis?.quote ?? '', /JSON/, 'the first contradiction names 1\'s sentence');
  const lenientOnly = [{ what: 'address as a number', status: 201, exchange: 4, json: { data: { id: USER, address: '12345' } } }];
  const lenient = verdicts(requirement, run(contextOf(requirement, {}, [[4, 201]]), (check) => check.judge(invalidBodiesNotTaken, { answers: lenientOnly })));
  assert.equal(lenient.again.verdict, 'WARN');
});

test('(1) crypto-transfers.declared-body-accepted: a refusal of the declared body is a FAIL against cryptoTransfers.withdrawalAddress with the body declared', () => {
  const requirement = 'WDA-CREATE-SCHEMA';
  const body = { coin_network_id: 'a1b2c3d4-0000-4000-8000-000000000001', address: 'rXYZ', destination_tag: '{uniqueDigits}' };
  const profile = { cryptoTransfers: { withdrawalAddress: body } };
  const inline = (status: number) => (check: CheckContext) => {
    if (status >= 400 && status < 500) {
      check.failDeclared(PROFILE_BODY_KEY, `the profile's body (${PROFILE_BODY_KEY}) was refused for user ${USER} with ${status}, though the profile declares it a body the implementation accepts`, { expected: 200, actual: status, exchange: 9 });
    }
  };
  const named = (status: number) => (check: CheckContext) => check.judge(declaredBodyAccepted, { status, exchange: 9, userId: USER, declaredBody: check.declaredValue(PROFILE_BODY_KEY) });
  assertSameAsInline(requirement, { profile, answers: [[9, 422]] }, inline(422), named(422), { verdict: 'FAIL', basisKind: 'profile-declared' });
  const judged = verdicts(requirement, run(contextOf(requirement, profile, [[9, 422]]), named(422)));
  assert.deepEqual(judged.again.basis?.declaredValue, body);
  assertSameAsInline(requirement, { profile, answers: [[9, 200]] }, inline(200), named(200), { verdict: 'PASS' });
});

/** The claims a judgment makes of an input, and whether they end the check. */
const fails = (judgment: NamedJudgment<unknown>, input: unknown) => judgment.judge(input).claims.some((c) => c.level === 'FAIL');

/** (2) and (3): each judgment that can FAIL, an input contradicting its rule and one holding it. */
const CASES: Array<{ judgment: NamedJudgment<any>; requirement: string; contradicts: unknown; holds: unknown }> = [
  { judgment: requestedUser, requirement: 'USERS-RETURNS-REQUESTED-USER', contradicts: { requested: USER, data: 'object', id: OTHER }, holds: { requested: USER, data: 'object', id: USER } },
  { judgment: registeredAtOffset, requirement: 'USERS-TIMESTAMP-OFFSET', contradicts: { data: 'object', registeredAt: '2024-05-01T10:00:00', status: 200, exchange: 1 }, holds: { data: 'object', registeredAt: '2024-05-01T10:00:00+02:00', status: 200, exchange: 1 } },
  { judgment: languageServed, requirement: 'USERS-ACCEPT-LANGUAGE', contradicts: { value: 'de', status: 406, exchange: 1, languages: ['de'] }, holds: { value: 'de', status: 200, exchange: 1, languages: ['de'] } },
  { judgment: ownLicenceRestricted, requirement: 'USERS-OWN-LICENCE-RESTRICTED', contradicts: { status: 200, clientId: 'partner-x' }, holds: { status: 403, clientId: 'partner-x' } },
  { judgment: ownLicenceRestricted, requirement: 'USERS-OWN-LICENCE-RESTRICTED', contradicts: { status: 404, clientId: 'partner-x', restrictedStatus: 403 }, holds: { status: 403, clientId: 'partner-x', restrictedStatus: 403 } },
  { judgment: defaultJourneyTerms, requirement: 'USERS-DEFAULT-JOURNEYS', contradicts: { data: 'object', terms: [1, 3], status: 200, exchange: 1, defaultTerms: [1, 2] }, holds: { data: 'object', terms: [2, 1], status: 200, exchange: 1, defaultTerms: [1, 2] } },
  { judgment: caseTermsReadable, requirement: 'USERS-TERMS-FILTERED', contradicts: { what: 'onboard', data: 'object', terms: { id: 1 }, status: 200, exchange: 1 }, holds: { what: 'onboard', data: 'object', terms: [], status: 200, exchange: 1 } },
  {
    judgment: termsFollowCases, requirement: 'USERS-TERMS-FILTERED',
    contradicts: { answers: [{ what: 'onboard', status: 200, terms: [1] }, { what: 'stake', status: 400 }], cases: [{ expectedTerms: [1] }, { expectedTerms: [2] }] },
    holds: { answers: [{ what: 'onboard', status: 200, terms: [1] }, { what: 'stake', status: 200, terms: [2] }], cases: [{ expectedTerms: [1] }, { expectedTerms: [2] }] },
  },
  { judgment: journeyRefused, requirement: 'USERS-FLOW-UNKNOWN-REJECTED', contradicts: { what: 'user_flow=not_a_flow', status: 200, exchange: 1 }, holds: { what: 'user_flow=not_a_flow', status: 422, exchange: 1 } },
  { judgment: journeyRefused, requirement: 'USERS-FLOW-UNKNOWN-REJECTED', contradicts: { what: 'user_flow=not_a_flow', status: 302, exchange: 1 }, holds: { what: 'user_flow=not_a_flow', status: 500, exchange: 1 } },
  { judgment: usersParameterErrorCodes, requirement: 'USERS-PARAMETER-ERROR-CODE', contradicts: { answers: [{ what: 'a', status: 400 }, { what: 'b', status: 404 }] }, holds: { answers: [{ what: 'a', status: 400 }, { what: 'b', status: 200 }, { what: 'c', status: 422 }] } },
  { judgment: declaredBodyAccepted, requirement: 'WDA-CREATE-SCHEMA', contradicts: { status: 422, exchange: 1, userId: USER, declaredBody: { address: 'x' } }, holds: { status: 200, exchange: 1, userId: USER, declaredBody: { address: 'x' } } },
  { judgment: createdIsJson, requirement: 'WDA-JSON-BODY', contradicts: { parsed: false, jsonError: 'empty body' }, holds: { parsed: true } },
  { judgment: addressEchoes, requirement: 'WDA-ECHOES-REQUEST', contradicts: { sent: { address: 'rAbc', user_owned: true }, returned: { address: 'rABC', user_owned: false } }, holds: { sent: { address: 'rAbc', user_owned: true }, returned: { address: ' rAbc ', user_owned: true } } },
  { judgment: createdAtUtc, requirement: 'WDA-CREATED-AT-UTC', contradicts: { createdAt: '2024-05-01T10:00:00+02:00', status: 200, exchange: 1 }, holds: { createdAt: '2024-05-01T10:00:00Z', status: 200, exchange: 1 } },
  { judgment: knownVaspKept, requirement: 'WDA-KNOWN-VASP', contradicts: { hostType: null }, holds: { hostType: 'KNOWN_VASP' } },
  {
    judgment: invalidBodiesNotTaken, requirement: 'WDA-INVALID-BODY-REJECTED',
    contradicts: { answers: [{ what: 'a malformed host_id', status: 200, exchange: 1, json: { data: { host_id: '1234' } } }] },
    holds: { answers: [{ what: 'a malformed host_id', status: 422, exchange: 1 }, { what: 'address as a number', status: 200, exchange: 2, json: { data: { address: '12345' } } }] },
  },
  { judgment: transfersParameterErrorCodes, requirement: 'WDA-PARAMETER-ERROR-CODE', contradicts: { answers: [{ what: 'JSON null', status: 404 }] }, holds: { answers: [{ what: 'JSON null', status: 422 }, { what: 'a JSON array', status: 200 }] } },
  { judgment: requiredFields, requirement: 'WDA-REQUIRED-FIELDS', contradicts: { answers: [{ field: 'address', status: 500 }] }, holds: { answers: [{ field: 'address', status: 422, repeats: true }, { field: 'host_name', status: 200 }] } },
];

for (const { judgment, contradicts, holds } of CASES) {
  test(`(2) ${judgment.name}: FAILs on an input that contradicts its rule, makes no FAIL claim on one that holds it`, () => {
    assert.equal(fails(judgment, contradicts), true, JSON.stringify(judgment.judge(contradicts)));
    assert.equal(judgment.judge(contradicts).ends, true, 'a FAIL ends the check');
    assert.equal(fails(judgment, holds), false, JSON.stringify(judgment.judge(holds)));
  });
}

/** Inputs of judgments that cannot FAIL, and the edge inputs whose fields may be left out or null. */
const MORE_INPUTS: Array<[NamedJudgment<any>, unknown]> = [
  [hostileInputAccepted, { what: 'user_flow given twice', leniency: 'one-of-repeated', status: 200, exchange: 1 }],
  [hostileInputAccepted, { what: 'an empty user_flow', leniency: 'empty-value', status: 200, exchange: 2 }],
  [hostileInputAccepted, { what: 'user_flow=trade', leniency: 'unknown-flow', status: 200, exchange: 2 }],
  [journeyRefused, { what: 'user_flow trade_buy with an empty asset_group', status: 200, exchange: 3, emptyValue: true }],
  [hostileInputAccepted, { what: 'a 20 kB query string', leniency: 'ignorable', status: 200 }],
  [requestedUser, { requested: USER, data: 'null' }],
  [requestedUser, { requested: USER, data: 'object', id: null }],
  [requestedUser, { requested: USER, data: 'object' }],
  [registeredAtOffset, { data: 'object', status: 200, exchange: 1 }],
  [registeredAtOffset, { data: 'object', registeredAt: null, status: 200, exchange: 1 }],
  [createdAtUtc, { status: 200, exchange: 1 }],
  [defaultJourneyTerms, { data: 'object', terms: [1], status: 200, exchange: 1 }],
  [defaultJourneyTerms, { data: 'an array', status: 200, exchange: 1, defaultTerms: [1] }],
  [caseTermsReadable, { what: 'stake', data: 'object', terms: null, status: 200 }],
  [caseTermsReadable, { what: 'stake', data: 'object', status: 503, exchange: 4 }],
  [ownLicenceRestricted, { status: 502, clientId: 'partner-x' }],
  [ownLicenceRestricted, { status: 418, clientId: 'partner-x' }],
  [addressEchoes, { sent: { host_type: 'KNOWN_VASP', host_id: 'ABC', host_name: 'A' }, returned: { host_type: 'KNOWN_VASP', host_id: 'def' } }],
  [createdIsJson, { parsed: false }],
];

test('(3) every input judges the same after a JSON round trip: the claims, and whether they end the check', () => {
  const inputs: Array<[NamedJudgment<any>, unknown]> = [...CASES.flatMap(({ judgment, contradicts, holds }): Array<[NamedJudgment<any>, unknown]> => [[judgment, contradicts], [judgment, holds]]), ...MORE_INPUTS];
  const named = new Set(inputs.map(([judgment]) => judgment.name));
  assert.equal(named.size, 18, 'every judgment of the two areas is among them');
  for (const [judgment, input] of inputs) {
    const live = judgment.judge(input);
    assert.deepEqual(judgment.judge(JSON.parse(JSON.stringify(input))), live, `${judgment.name} of ${JSON.stringify(input)}`);
  }
});

test('(3) through a context too: the redacted input a record keeps judges again, after its JSON round trip, to the verdict made live', () => {
  for (const { judgment, requirement, contradicts } of CASES) {
    const context = run(contextOf(requirement, {}, [[1, 200]]), (check) => check.judge(judgment, contradicts));
    const stored = JSON.parse(JSON.stringify(context.entries));
    const again = judgeRecord(metaOf(requirement), { claims: stored });
    const live = decideOutcome({ severity: metaOf(requirement).severity, claims: context.claims });
    assert.notEqual(live.verdict, 'PASS', `${judgment.name}: the contradicting input is a finding`);
    assert.deepEqual({ verdict: again.verdict, reason: again.reason, basis: again.basis }, { verdict: live.verdict, reason: live.reason, basis: live.basis }, judgment.name);
  }
});

test('an empty value a service may read as left out is for a human when accepted, as exploration reads it: REVIEW, never FAIL or WARN', () => {
  const refused = journeyRefused.judge({ what: 'user_flow trade_buy with an empty asset_group', status: 200, exchange: 3, emptyValue: true });
  assert.deepEqual(refused.claims.map((c) => c.level), ['REVIEW']);
  assert.deepEqual(journeyRefused.judge({ what: 'user_flow trade_buy without asset_group', status: 200, exchange: 3 }).claims.map((c) => c.level), ['FAIL']);
  const lenient = hostileInputAccepted.judge({ what: 'an empty user_flow', leniency: 'empty-value', status: 200, exchange: 2 });
  assert.deepEqual(lenient.claims.map((c) => c.level), ['REVIEW']);
});

test('a case answered only transiently decides no terms rule: not observed (ERROR), unless another case contradicts it on a real answer', () => {
  const cases = [{ expectedTerms: [1] }, { expectedTerms: [2] }];
  const onlyTransient = termsFollowCases.judge({ answers: [{ what: 'onboard', status: 200, terms: [1] }, { what: 'stake', status: 503, exchange: 4 }], cases });
  assert.deepEqual(onlyTransient.claims.map((c) => c.level), ['ERROR']);
  assert.match(onlyTransient.claims[0]!.message, /stake: 503 \(exchange 4\)/);
  const alsoWrong = termsFollowCases.judge({ answers: [{ what: 'onboard', status: 200, terms: [3] }, { what: 'stake', status: 503, exchange: 4 }], cases });
  assert.deepEqual(alsoWrong.claims.map((c) => c.level), ['FAIL']);
  assert.doesNotMatch(alsoWrong.claims[0]!.message, /stake/, 'the FAIL names only the real answer');
});
