// The explored model of user details v2 (explore/areas/users.ts): (1) its
// named judgments (explore/areas/users-judgments.ts) FAIL or WARN on an input
// that contradicts their rule and make no finding on one that holds it,
// live and judged again from the record; (2) what the model says 4.2
// determines of a query: a journey rule is broken only when every reading a
// service may take of the query breaks it, a context is served only when
// its one reading is valid, and everything else is left open (recorded,
// never judged); (3) its cases are plain JSON, and the simplest is the
// plain valid request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CheckContext } from '../../src/check/context.ts';
import { contextWith, toItsEnd } from '../support/check-context.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import type { NamedJudgment } from '../../src/check/judgments.ts';
import { requirementById } from '../../src/requirements.ts';
import type { JourneyQuery } from '../../src/config/sections/users.ts';
import { declaredJourneysServed, undeclaredLanguageAnswered, violationRefusalCode } from '../../explore/areas/users-judgments.ts';
import { caseArbitrary, classifyQuery, describeCase, queryOf, readingsOf, sameQuery, type Setup, type UsersCase } from '../../explore/areas/users.ts';

/** Verdict and basis of a judgment applied through a context of `requirement`: live, and judged again from the record. */
function verdictOf<I>(requirement: string, judgment: NamedJudgment<I>, input: I, answers: Array<[number, number]> = []) {
  const context: CheckContext = contextWith({ requirements: [requirement], answers: Object.fromEntries(answers) });
  toItsEnd(() => context.judge(judgment, input));
  const meta = { severity: requirementById(requirement)!.level, requirements: [requirement] };
  const live = decideOutcome({ severity: meta.severity, claims: context.claims });
  const again = judgeRecord(meta, { claims: JSON.parse(JSON.stringify(context.entries)) });
  assert.equal(again.verdict, live.verdict, 'judged again from the record: the same verdict');
  return { verdict: live.verdict, basis: live.basis?.kind };
}

test('(1) explore.users.declared-journeys-served: two declared values refused FAIL on 4.2; one refused FAILs against users.journeys; 200 passes; a 503 decides nothing', () => {
  const input = (status: number, distinct: number) => ({ what: 'user_journey[]=trading&user_journey[]=crypto', status, exchange: 1, distinct, journeys: ['trading', 'crypto'] });
  const requirement = 'USERS-JOURNEY-REPEATABLE';
  assert.deepEqual(verdictOf(requirement, declaredJourneysServed, input(422, 2), [[1, 422]]), { verdict: 'FAIL', basis: 'spec' });
  assert.deepEqual(verdictOf(requirement, declaredJourneysServed, input(422, 1), [[1, 422]]), { verdict: 'FAIL', basis: 'profile-declared' });
  assert.equal(verdictOf(requirement, declaredJourneysServed, input(200, 2), [[1, 200]]).verdict, 'PASS');
  assert.equal(verdictOf(requirement, declaredJourneysServed, input(503, 2), [[1, 503]]).verdict, 'ERROR');
});

test('(1) explore.users.violation-refusal-code: 404 to a violation WARNs (a SHOULD); 400 and 422 pass; 401 and 403 refuse for the credential; 429 decides nothing', () => {
  const requirement = 'USERS-PARAMETER-ERROR-CODE';
  const input = (status: number) => ({ what: 'user_flow=not_a_flow', status, exchange: 1 });
  assert.equal(verdictOf(requirement, violationRefusalCode, input(404), [[1, 404]]).verdict, 'WARN');
  assert.equal(verdictOf(requirement, violationRefusalCode, input(409), [[1, 409]]).verdict, 'WARN');
  for (const status of [400, 422, 401, 403]) assert.equal(verdictOf(requirement, violationRefusalCode, input(status), [[1, status]]).verdict, 'PASS', String(status));
  assert.equal(verdictOf(requirement, violationRefusalCode, input(429), [[1, 429]]).verdict, 'ERROR');
});

test('(1) explore.users.undeclared-language-answered: * refused while the request without it is served is for a human, never a finding; a refusal both share is not the header\'s', () => {
  const requirement = 'USERS-ACCEPT-LANGUAGE';
  assert.equal(verdictOf(requirement, undeclaredLanguageAnswered, { value: '*', status: 400, exchange: 1, controlStatus: 200 }, [[1, 400]]).verdict, 'REVIEW');
  assert.equal(verdictOf(requirement, undeclaredLanguageAnswered, { value: '*', status: 422, exchange: 1, controlStatus: 422 }, [[1, 422]]).verdict, 'PASS');
  assert.equal(verdictOf(requirement, undeclaredLanguageAnswered, { value: '*', status: 200, exchange: 1 }, [[1, 200]]).verdict, 'PASS');
});

const SETUP: Setup = {
  userId: '3f2b8c1e-8d4a-4f6b-9c2e-1a2b3c4d5e6f',
  journeys: ['trading', 'crypto'],
  groups: { asset_group: 'crypto', source_asset_group: 'crypto', target_asset_group: 'metals' },
  languages: ['en', 'de'],
  termsCases: [
    { query: { 'user_journey[]': ['trading', 'crypto'] }, expectedTerms: [201, 301] },
    { query: { user_flow: 'trade_sell', asset_group: 'metals' }, expectedTerms: [201, 302] },
  ],
};

test('(2) a journey rule is broken only when every reading of the query breaks it', () => {
  const broken = (query: Record<string, string | string[]>) => classifyQuery(SETUP, query).violated;
  assert.deepEqual(broken({ 'user_journey[]': 'trading', user_flow: 'onboard' }), ['exclusive']);
  assert.deepEqual(broken({ user_flow: 'not_a_flow' }), ['unknown-flow']);
  assert.deepEqual(broken({ user_flow: 'trade_buy' }), ['asset-group-required']);
  assert.deepEqual(broken({ user_flow: 'saving_create', source_asset_group: 'crypto' }), ['asset-group-required']);
  assert.deepEqual(broken({ user_flow: 'trade_swap', source_asset_group: 'crypto' }), ['swap-groups-required']);
  assert.deepEqual(broken({ user_flow: 'stake', asset_group: 'crypto' }), ['no-asset-group']);
  // A repeated user_flow broken whichever value is read: still broken.
  assert.deepEqual(broken({ user_flow: ['not_a_flow', 'withdraw'] }), ['unknown-flow']);
  assert.deepEqual(broken({ 'user_journey[]': 'trading', user_flow: ['onboard', 'stake'] }), ['exclusive']);
  // Empty values: a service may take them as given or as left out, so no rule is broken in every reading.
  assert.deepEqual(broken({ user_flow: 'trade_buy', asset_group: '' }), []);
  assert.deepEqual(broken({ user_flow: '' }), []);
  assert.deepEqual(broken({ 'user_journey[]': '', user_flow: 'onboard' }), []);
  assert.deepEqual(broken({ user_flow: 'onboard', asset_group: '' }), []);
  // A repeated user_flow whose first and last values differ in what they break: nothing is broken in both.
  assert.deepEqual(broken({ user_flow: ['trade_buy', 'onboard'] }), []);
  assert.deepEqual(broken({ user_flow: ['not_a_flow', 'onboard'] }), []);
});

test('(2) a context is served only when its one reading is valid; the profile\'s declared contexts are served with their terms', () => {
  const served = (query: Record<string, string | string[]>) => classifyQuery(SETUP, query).served;
  assert.deepEqual(served({}), { basis: 'default' });
  assert.deepEqual(served({ user_flow: 'onboard' }), { basis: 'flow', flow: 'onboard' });
  assert.deepEqual(served({ user_flow: 'trade_swap', source_asset_group: 'crypto', target_asset_group: 'metals' }), { basis: 'flow', flow: 'trade_swap' });
  assert.deepEqual(served({ 'user_journey[]': ['crypto', 'trading'] }), { basis: 'journeys', distinct: 2, termsCase: 0 });
  assert.deepEqual(served({ 'user_journey[]': 'trading' }), { basis: 'journeys', distinct: 1 });
  // Declared only by users.termsCases (metals is not the profile's asset_group): served, by the declaration.
  assert.deepEqual(served({ user_flow: 'trade_sell', asset_group: 'metals' }), { basis: 'declared', termsCase: 1 });
  // Repetition may be refused: never served, whatever value is read.
  assert.equal(served({ user_flow: ['onboard', 'onboard'] }), undefined);
  assert.equal(classifyQuery(SETUP, { user_flow: ['onboard', 'onboard'] }).repeated, true);
});

test('(2) what the spec leaves open is neither broken nor served, and says why', () => {
  const open: JourneyQuery[] = [
    { source_asset_group: 'crypto', target_asset_group: 'metals' }, // groups without user_flow (variant asset-groups-without-flow-ignored)
    { 'user_journey[]': 'trading', asset_group: 'crypto' }, // groups with user_journey[]
    { 'user_journey[]': 'not_a_journey' }, // a value the profile does not declare
    { 'user_journey[]': ['trading', 'trading'] }, // a declared value twice
    { 'user_journey[]': ['trading', ''] }, // an empty value
    { user_flow: 'trade_buy', asset_group: 'metals' }, // a group value the profile does not declare
    { user_flow: 'trade_swap', source_asset_group: 'crypto', target_asset_group: 'metals', asset_group: 'crypto' }, // a group the flow does not name
    { user_flow: ['stake', 'onboard'] }, // repeated (variant repeated-parameter-last-wins)
    { user_flow: '' },
  ];
  for (const query of open) {
    const verdict = classifyQuery(SETUP, query);
    assert.deepEqual(verdict.violated, [], JSON.stringify(query));
    assert.equal(verdict.served, undefined, JSON.stringify(query));
    assert.ok(verdict.open.length > 0, `says why ${JSON.stringify(query)} is open`);
  }
});

test('(2) readings: an empty value given or left out, a repeated value first or last', () => {
  assert.equal(readingsOf({ user_flow: 'onboard' }).readings.length, 1);
  assert.equal(readingsOf({ user_flow: '', asset_group: '' }).readings.length, 4);
  const repeated = readingsOf({ user_flow: ['trade_buy', 'stake'] });
  assert.deepEqual(repeated.readings.map((r) => r.flow), ['trade_buy', 'stake']);
  assert.equal(repeated.repeated, true);
  assert.ok(sameQuery({ 'user_journey[]': ['crypto', 'trading'] }, { 'user_journey[]': ['trading', 'crypto'] }));
  assert.ok(!sameQuery({ user_flow: 'onboard' }, { user_flow: 'onboard', asset_group: 'crypto' }));
});

test('(3) cases are plain JSON, and the simplest case is the plain valid request', () => {
  const arbitrary = caseArbitrary(SETUP);
  const json = (value: unknown) => JSON.stringify(value);
  for (const c of fc.sample(arbitrary, { numRuns: 300, seed: 7 })) {
    // A replay file holds the case as JSON: read back, it is the same case, sending the same request.
    const replayed = JSON.parse(json(c)) as UsersCase;
    assert.equal(json(replayed), json(c));
    assert.equal(describeCase(SETUP, replayed), describeCase(SETUP, c));
    assert.equal(json(queryOf(SETUP, replayed.query)), json(queryOf(SETUP, c.query)));
  }
  // Shrinking walks back towards the first choice of each: a valid bearer, the profile's user, no query, no Accept-Language.
  const simplest: UsersCase = { bearer: 'valid', user: { kind: 'existing' }, query: { kind: 'generated', journeys: [], flow: { kind: 'absent' }, groups: { kind: 'fitting' } }, language: { kind: 'absent' } };
  assert.deepEqual(queryOf(SETUP, simplest.query), {});
  assert.deepEqual(classifyQuery(SETUP, queryOf(SETUP, simplest.query)).served, { basis: 'default' });
  // A failing property over any case shrinks to that one (every case "fails" here).
  const details = fc.check(fc.property(arbitrary, () => false), { seed: 7 });
  assert.equal(json(details.counterexample?.[0]), json(simplest));
});
