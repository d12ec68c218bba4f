// The model of Get user details v2 (spec 4.2, 2.2, 5 rule 1, 7), explored.
//
// A case is one GET: a bearer (valid, absent or forged), a User-ID (the
// profile's user, a well-formed unknown UUID, or a malformed id), a query
// (user_journey[] values, user_flow, the three asset-group parameters — or
// one of the journey contexts the profile declares with its terms) and an
// Accept-Language (absent, a declared language, a weighted list of declared
// languages, or *). What the spec allows, rule by rule:
//
//   - the query is read as a service may read it (`readingsOf` below): an
//     empty value as given or as absent, a single-valued parameter given
//     twice as its first or its last value (or refused). A journey rule
//     (4.2 rules 1-5) is broken only when it is broken in every reading;
//     the context is served only when there is one reading and it is valid
//     (rule 6: no journey parameter; user_journey[] values the profile
//     declares, each once; a user_flow of rule 2 with exactly the groups
//     rules 3-4 require, the profile's values; or a context the profile
//     declares in users.termsCases);
//   - a broken rule (judged for the profile's user with a valid bearer):
//     refused (a 2xx FAILs on it; a 5xx is no-server-error's); when nothing
//     else is odd, with 400 or 422 (the SHOULD of 7's "parameter error");
//     rule 5 is a SHOULD;
//   - without a bearer, or with a forged one: refused; 401 when that is the
//     only thing wrong (the rest a served request without Accept-Language,
//     and served by the target once the bearer is set right: a control
//     request, sent when the answer is another refusal), any refusal 7 lists
//     otherwise (the spec orders no checks); an unknown user: 404 when the
//     only thing wrong (likewise), else refused; a malformed id: refused. A
//     5xx is the rule's only when the request set right is not answered 5xx
//     too;
//   - a served context for the profile's user with a valid bearer: 200, by
//     its rule; its terms those the profile declares (users.defaultTerms,
//     users.termsCases: a profile-declared FAIL), compared only on an
//     answer to a request without Accept-Language (terms may follow a
//     language; the spec does not say they do not);
//   - with Accept-Language on a served context, a refusal is the header's
//     only when the same request without it is served (sent then as a
//     control): a declared language refused is a profile-declared FAIL, *
//     is for a human (allowed values not shown); a refusal the control
//     shares is the context's, judged on the control;
//   - every 200 holds 2.2, is JSON, names the requested user, and has a
//     registered_at with a UTC offset; no case is answered 5xx but the
//     transient 503 (7's row lists no 500).
// Recorded, never judged: whatever the readings leave open — asset groups
// without user_flow, a group a flow does not name besides those it needs,
// a user_journey[] value the profile does not declare or sent twice, an
// empty value, a user_flow given twice (REVIEW when taken, as the catalogue
// says); their refusal codes.
import fc from 'fast-check';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { JourneyQuery, TermsCase } from '../../src/config/sections/users.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { isServerError, isSuccess, type CheckContext } from '../../src/check/context.ts';
import { GET_EXECUTES_NOTHING } from '../../src/check/server-error.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';
import { ASSET_PARAMETERS, FLOWS, FLOW_PARAMETERS, USER_DETAILS_SCHEMA, describeData, describeQuery, userOf, userPath, type AssetParameter } from '../../suites/users/support.ts';
import { EMPTY_VALUE_OPEN, journeyRefused, hostileInputAccepted } from '../../suites/users/journey-judgments.ts';
import { defaultJourneyTerms, termsFollowCases, type TermsAnswer } from '../../suites/users/terms-judgments.ts';
import { registeredAtOffset, requestedUser } from '../../suites/users/body-judgments.ts';
import { languageServed } from '../../suites/users/access-judgments.ts';
import { defineExploreRule } from '../rule.ts';
import type { AreaExplorer, AreaModel, Unexplorable } from '../model.ts';
import type { CaseRun } from '../case-run.ts';
import { declaredJourneysServed, undeclaredLanguageAnswered, violationRefusalCode } from './users-judgments.ts';

export const RULES = {
  bearerRequired: defineExploreRule({
    id: 'explore.users.bearer-required',
    title: 'Generated user-details requests without a bearer credential are refused (401 when nothing else is wrong)',
    requirements: ['USERS-BEARER-REQUIRED'],
  }),
  forgedBearerRefused: defineExploreRule({
    id: 'explore.users.forged-bearer-refused',
    title: 'Generated user-details requests with a forged bearer token are refused (401 when nothing else is wrong)',
    requirements: ['USERS-BEARER-REQUIRED'],
  }),
  unknownUser: defineExploreRule({
    id: 'explore.users.unknown-user-404',
    title: 'Generated requests for an unknown well-formed user id are refused (404 when nothing else is wrong)',
    requirements: ['USERS-NOT-FOUND-404'],
  }),
  malformedId: defineExploreRule({
    id: 'explore.users.malformed-id-refused',
    title: 'Generated requests for a malformed user id are refused',
    requirements: ['USERS-MALFORMED-ID-REJECTED'],
  }),
  exclusive: defineExploreRule({
    id: 'explore.users.journey-and-flow-exclusive',
    title: 'Generated queries with user_journey[] and user_flow together are refused',
    requirements: ['USERS-JOURNEY-EXCLUSIVE'],
  }),
  unknownFlow: defineExploreRule({
    id: 'explore.users.unknown-flow-refused',
    title: 'Generated queries with a user_flow outside the eight of rule 2 are refused',
    requirements: ['USERS-FLOW-UNKNOWN-REJECTED'],
  }),
  assetGroupRequired: defineExploreRule({
    id: 'explore.users.flow-requires-asset-group',
    title: 'Generated queries with user_flow trade_buy, trade_sell or saving_create and no asset_group are refused',
    requirements: ['USERS-FLOW-ASSET-GROUP-REQUIRED'],
  }),
  swapGroupsRequired: defineExploreRule({
    id: 'explore.users.swap-requires-both-groups',
    title: 'Generated queries with user_flow trade_swap missing source_asset_group or target_asset_group are refused',
    requirements: ['USERS-FLOW-SWAP-GROUPS-REQUIRED'],
  }),
  noAssetGroup: defineExploreRule({
    id: 'explore.users.flow-takes-no-asset-group',
    title: 'Generated queries with user_flow onboard, stake, unstake or crypto_transfer and an asset-group parameter are refused',
    requirements: ['USERS-FLOW-NO-ASSET-GROUP'],
  }),
  parameterErrorCode: defineExploreRule({
    id: 'explore.users.parameter-error-code',
    title: 'Generated journey-parameter violations that are refused are answered 400 or 422',
    requirements: ['USERS-PARAMETER-ERROR-CODE'],
  }),
  flowValues: defineExploreRule({
    id: 'explore.users.flow-values-accepted',
    title: 'Generated queries with a user_flow of rule 2 and exactly its asset groups answer 200',
    requirements: ['USERS-FLOW-VALUES'],
  }),
  declaredJourneys: defineExploreRule({
    id: 'explore.users.declared-journeys-accepted',
    title: 'Generated queries with distinct user_journey[] values the profile declares answer 200',
    requirements: ['USERS-JOURNEY-REPEATABLE'],
  }),
  defaultJourneys: defineExploreRule({
    id: 'explore.users.default-journeys',
    title: 'Generated requests without a journey parameter answer 200 with the terms of the default journeys',
    requirements: ['USERS-DEFAULT-JOURNEYS'],
  }),
  termsFollowContext: defineExploreRule({
    id: 'explore.users.terms-follow-context',
    title: 'Generated requests of a journey context the profile declares carry its terms',
    requirements: ['USERS-TERMS-FILTERED'],
  }),
  acceptLanguage: defineExploreRule({
    id: 'explore.users.accept-language-served',
    title: 'Generated requests with Accept-Language of declared languages (alone or weighted) are served as without it',
    requirements: ['USERS-ACCEPT-LANGUAGE'],
  }),
  answersHold22: defineExploreRule({
    id: 'explore.users.answers-hold-2-2',
    title: 'Every 200 answer to a generated request holds {data: user} of 2.2',
    requirements: ['USERS-DETAILS-SCHEMA'],
  }),
  answerIsJson: defineExploreRule({
    id: 'explore.users.answer-is-json',
    title: 'Every 200 answer to a generated request is labelled JSON',
    requirements: ['USERS-JSON-BODY'],
  }),
  requestedUser: defineExploreRule({
    id: 'explore.users.answer-is-requested-user',
    title: 'Every 200 answer to a generated request describes the user the path names',
    requirements: ['USERS-RETURNS-REQUESTED-USER'],
  }),
  registeredAt: defineExploreRule({
    id: 'explore.users.registered-at-has-offset',
    title: 'Every 200 answer to a generated request has a registered_at with a UTC offset',
    requirements: ['USERS-TIMESTAMP-OFFSET'],
  }),
  noServerError: defineExploreRule({
    id: 'explore.users.no-server-error',
    title: 'No generated request is answered 5xx; queries the spec leaves open are recorded',
    requirements: ['USERS-NO-SERVER-ERROR-ON-BAD-INPUT'],
  }),
};

// ---------------------------------------------------------------------------
// Cases: plain JSON; the first choice of each is the simple valid request's.

export type JourneyValue = { kind: 'declared'; value: string } | { kind: 'empty' } | { kind: 'unknown'; value: string };

export type FlowChoice =
  | { kind: 'absent' }
  | { kind: 'value'; value: string }
  | { kind: 'unknown'; value: string }
  | { kind: 'empty' }
  | { kind: 'twice'; values: [string, string] };

export type GroupChoice = 'absent' | 'profile' | 'empty';

/**
 * 'fitting': exactly the groups the flow requires, the profile's values;
 * 'one-short': those groups but one (the `leftOut`-th, counting round): the
 * edge of rules 3 and 4; 'chosen': each parameter as chosen.
 */
export type Groups =
  | { kind: 'fitting' }
  | { kind: 'one-short'; leftOut: number }
  | { kind: 'chosen'; asset_group: GroupChoice; source_asset_group: GroupChoice; target_asset_group: GroupChoice };

export type QueryChoice = { kind: 'generated'; journeys: JourneyValue[]; flow: FlowChoice; groups: Groups } | { kind: 'declared'; termsCase: number };

export type LanguageChoice = { kind: 'absent' } | { kind: 'declared'; value: string } | { kind: 'weighted'; ranges: Array<{ language: string; q: string }> } | { kind: 'any' };

export type UserChoice = { kind: 'existing' } | { kind: 'unknown'; id: string } | { kind: 'malformed'; form: string; id: string };

export interface UsersCase {
  bearer: 'valid' | 'absent' | 'forged';
  user: UserChoice;
  query: QueryChoice;
  language: LanguageChoice;
}

/** What the profile gives the model. */
export interface Setup {
  userId: string;
  journeys: readonly string[];
  groups: Partial<Record<AssetParameter, string>>;
  languages: readonly string[];
  termsCases: readonly TermsCase[];
}

const UNKNOWN_FLOWS = ['not_a_flow', 'trade', 'withdraw'] as const;
const UNKNOWN_JOURNEYS = ['not_a_journey', 'journey-x'] as const;

/** One of the arbitraries, weighted; shrinking tries the first (the valid choice) across kinds. */
const oneof = <T>(...arbs: Array<{ weight: number; arbitrary: fc.Arbitrary<T> }>): fc.Arbitrary<T> => fc.oneof({ withCrossShrink: true }, ...arbs);

function userArbitrary(): fc.Arbitrary<UserChoice> {
  const uuid = fc.uuid({ version: 4 });
  const malformed = oneof<UserChoice>(
    { weight: 1, arbitrary: fc.constant({ kind: 'malformed', form: 'a word', id: 'not-a-uuid' }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'malformed', form: 'a number', id: '12345' }) },
    { weight: 1, arbitrary: uuid.map((u): UserChoice => ({ kind: 'malformed', form: 'a UUID with a suffix', id: `${u}-extra` })) },
    { weight: 1, arbitrary: uuid.map((u): UserChoice => ({ kind: 'malformed', form: 'a UUID without dashes', id: u.replaceAll('-', '') })) },
    { weight: 1, arbitrary: uuid.map((u): UserChoice => ({ kind: 'malformed', form: 'a UUID with a non-hex digit', id: `${u.slice(0, -1)}z` })) },
  );
  return oneof<UserChoice>(
    { weight: 8, arbitrary: fc.constant({ kind: 'existing' }) },
    { weight: 1, arbitrary: uuid.map((id): UserChoice => ({ kind: 'unknown', id })) },
    { weight: 1, arbitrary: malformed },
  );
}

function journeyValue(setup: Setup): fc.Arbitrary<JourneyValue> {
  return oneof<JourneyValue>(
    ...(setup.journeys.length ? [{ weight: 6, arbitrary: fc.constantFrom(...setup.journeys).map((value): JourneyValue => ({ kind: 'declared', value })) }] : []),
    { weight: 1, arbitrary: fc.constant<JourneyValue>({ kind: 'empty' }) },
    { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_JOURNEYS).map((value): JourneyValue => ({ kind: 'unknown', value })) },
  );
}

const flowArbitrary: fc.Arbitrary<FlowChoice> = oneof<FlowChoice>(
  { weight: 3, arbitrary: fc.constant<FlowChoice>({ kind: 'absent' }) },
  { weight: 6, arbitrary: fc.constantFrom(...FLOWS).map((value): FlowChoice => ({ kind: 'value', value })) },
  { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_FLOWS).map((value): FlowChoice => ({ kind: 'unknown', value })) },
  { weight: 1, arbitrary: fc.constant<FlowChoice>({ kind: 'empty' }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...FLOWS, ...UNKNOWN_FLOWS), fc.constantFrom(...FLOWS, ...UNKNOWN_FLOWS)).map((values): FlowChoice => ({ kind: 'twice', values })) },
);

function groupsArbitrary(setup: Setup): fc.Arbitrary<Groups> {
  const choice = (p: AssetParameter): fc.Arbitrary<GroupChoice> =>
    oneof<GroupChoice>(
      { weight: 2, arbitrary: fc.constant('absent' as const) },
      ...(setup.groups[p] !== undefined ? [{ weight: 2, arbitrary: fc.constant('profile' as const) }] : []),
      { weight: 1, arbitrary: fc.constant('empty' as const) },
    );
  return oneof<Groups>(
    { weight: 3, arbitrary: fc.constant<Groups>({ kind: 'fitting' }) },
    { weight: 1, arbitrary: fc.nat(1).map((leftOut): Groups => ({ kind: 'one-short', leftOut })) },
    {
      weight: 2,
      arbitrary: fc
        .record({ asset_group: choice('asset_group'), source_asset_group: choice('source_asset_group'), target_asset_group: choice('target_asset_group') })
        .map((g): Groups => ({ kind: 'chosen', ...g })),
    },
  );
}

function queryArbitrary(setup: Setup): fc.Arbitrary<QueryChoice> {
  const generated = fc
    .record({
      journeys: oneof<JourneyValue[]>({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(journeyValue(setup), { minLength: 1, maxLength: 3 }) }),
      flow: flowArbitrary,
      groups: groupsArbitrary(setup),
    })
    .map((q): QueryChoice => ({ kind: 'generated', ...q }));
  if (!setup.termsCases.length) return generated;
  return oneof<QueryChoice>(
    { weight: 6, arbitrary: generated },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: setup.termsCases.length - 1 }).map((termsCase): QueryChoice => ({ kind: 'declared', termsCase })) },
  );
}

const Q_VALUES = ['0.9', '0.8', '0.5', '0.3'] as const;

function languageArbitrary(setup: Setup): fc.Arbitrary<LanguageChoice> {
  const declared = setup.languages.length
    ? [
        { weight: 1, arbitrary: fc.constantFrom(...setup.languages).map((value): LanguageChoice => ({ kind: 'declared', value })) },
        {
          weight: 1,
          arbitrary: fc
            .uniqueArray(fc.record({ language: fc.constantFrom(...setup.languages), q: fc.constantFrom(...Q_VALUES) }), { minLength: 1, maxLength: 3, selector: (r) => r.language })
            .map((ranges): LanguageChoice => ({ kind: 'weighted', ranges })),
        },
      ]
    : [];
  return oneof<LanguageChoice>({ weight: 5, arbitrary: fc.constant<LanguageChoice>({ kind: 'absent' }) }, ...declared, { weight: 1, arbitrary: fc.constant<LanguageChoice>({ kind: 'any' }) });
}

export function caseArbitrary(setup: Setup): fc.Arbitrary<UsersCase> {
  const bearer = oneof<UsersCase['bearer']>(
    { weight: 8, arbitrary: fc.constant('valid' as const) },
    { weight: 1, arbitrary: fc.constant('absent' as const) },
    { weight: 1, arbitrary: fc.constant('forged' as const) },
  );
  return fc.record({ bearer, user: userArbitrary(), query: queryArbitrary(setup), language: languageArbitrary(setup) });
}

// ---------------------------------------------------------------------------
// The request a case sends.

/** The query on the wire. */
export function queryOf(setup: Setup, choice: QueryChoice): JourneyQuery {
  if (choice.kind === 'declared') return { ...setup.termsCases[choice.termsCase]!.query };
  const query: JourneyQuery = {};
  if (choice.journeys.length) query['user_journey[]'] = choice.journeys.map((j) => (j.kind === 'empty' ? '' : j.value));
  const flow = choice.flow;
  if (flow.kind === 'value' || flow.kind === 'unknown') query.user_flow = flow.value;
  else if (flow.kind === 'empty') query.user_flow = '';
  else if (flow.kind === 'twice') query.user_flow = [...flow.values];
  for (const p of ASSET_PARAMETERS) {
    const value = groupValue(setup, choice, p);
    if (value !== undefined) query[p] = value;
  }
  return query;
}

function groupValue(setup: Setup, choice: Extract<QueryChoice, { kind: 'generated' }>, p: AssetParameter): string | undefined {
  if (choice.groups.kind === 'fitting' || choice.groups.kind === 'one-short') {
    const flow = choice.flow.kind === 'value' ? choice.flow.value : undefined;
    const required = flow ? FLOW_PARAMETERS[flow]! : [];
    const leftOut = choice.groups.kind === 'one-short' && required.length ? required[choice.groups.leftOut % required.length] : undefined;
    return required.includes(p) && p !== leftOut ? setup.groups[p] : undefined;
  }
  const chosen = choice.groups[p];
  return chosen === 'absent' ? undefined : chosen === 'empty' ? '' : setup.groups[p];
}

export function languageOf(choice: LanguageChoice): string | undefined {
  switch (choice.kind) {
    case 'absent':
      return undefined;
    case 'declared':
      return choice.value;
    case 'weighted':
      return choice.ranges.map((r) => `${r.language};q=${r.q}`).join(', ');
    case 'any':
      return '*';
  }
}

export function describeCase(setup: Setup, c: UsersCase): string {
  const user = c.user.kind === 'existing' ? "the profile's user" : c.user.kind === 'unknown' ? `unknown user ${c.user.id}` : `a malformed user id (${c.user.form}: ${JSON.stringify(c.user.id)})`;
  const bearer = { valid: 'a valid bearer', absent: 'no bearer', forged: 'a forged bearer' }[c.bearer];
  const query = queryOf(setup, c.query);
  const shown = Object.keys(query).length ? `query ${describeQuery(query)}` : 'no query';
  const declared = c.query.kind === 'declared' ? ` (users.termsCases[${c.query.termsCase}])` : '';
  const language = languageOf(c.language);
  return `user details of ${user} with ${bearer}, ${shown}${declared}${language === undefined ? '' : `, Accept-Language: ${language}`}`;
}

/** The case without its values: of the cases for a human, one of each kind is kept. */
export function kindOfCase(c: UsersCase): string {
  const q = c.query;
  const query =
    q.kind === 'declared'
      ? 'declared terms case'
      : [
          q.journeys.length ? `journeys ${q.journeys.map((j) => j.kind).join('+')}` : 'no journeys',
          `flow ${q.flow.kind}`,
          q.groups.kind === 'fitting' ? 'fitting groups' : q.groups.kind === 'one-short' ? 'its groups but one' : `groups ${ASSET_PARAMETERS.map((p) => (q.groups as Record<AssetParameter, GroupChoice>)[p]).join('/')}`,
        ].join(', ');
  return `${c.bearer} bearer, ${c.user.kind} user, ${query}, language ${c.language.kind}`;
}

// ---------------------------------------------------------------------------
// What 4.2 determines of a query.

/** The journey rules of 4.2: 1 (exclusive), 2 (flow values), 3, 4, and 5 (a SHOULD). */
export type JourneyRule = 'exclusive' | 'unknown-flow' | 'asset-group-required' | 'swap-groups-required' | 'no-asset-group';

const RULE_OF: Record<JourneyRule, keyof typeof RULES> = {
  exclusive: 'exclusive',
  'unknown-flow': 'unknownFlow',
  'asset-group-required': 'assetGroupRequired',
  'swap-groups-required': 'swapGroupsRequired',
  'no-asset-group': 'noAssetGroup',
};

/** One way a service may take the query: each parameter once, or absent. */
export interface Reading {
  journeys: string[];
  flow?: string;
  groups: Partial<Record<AssetParameter, string>>;
  /** Parameters 4.2 does not name, as sent. */
  other: Record<string, string[]>;
}

/** Why a served context is served, for its rule. */
export type Served =
  | { basis: 'default' }
  | { basis: 'flow'; flow: string; termsCase?: number }
  | { basis: 'journeys'; distinct: number; termsCase?: number }
  /** A context only the profile's users.termsCases declares (its values are not the ones the profile declares otherwise). */
  | { basis: 'declared'; termsCase: number };

type ReadingClass = { violates: JourneyRule[] } | { serves: Served } | { open: string };

export interface ContextVerdict {
  /** How many readings the query has: one, unless a value is empty or a parameter repeated. */
  readings: number;
  /** A single-valued parameter was given more than once. */
  repeated: boolean;
  /** Rules broken in every reading: what a refusal is owed to. */
  violated: JourneyRule[];
  /** The context is served: one reading, no repetition, valid. */
  served?: Served;
  /** Why the answer is not determined, when it is not. */
  open: string[];
}

const values = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
/** An empty value: given as "", or not given at all. */
const readingsOfValue = (v: string): Array<string | undefined> => (v === '' ? [undefined, ''] : [v]);

/** Every reading of the query a service may take (a repeated parameter refused outright is allowed besides). */
export function readingsOf(query: JourneyQuery): { readings: Reading[]; repeated: boolean; empty: boolean } {
  const named = new Set(['user_journey[]', 'user_flow', ...ASSET_PARAMETERS]);
  const other = Object.fromEntries(Object.entries(query).filter(([k]) => !named.has(k)).map(([k, v]) => [k, values(v)]));
  const journeys = values(query['user_journey[]']);
  const journeyReadings = journeys.includes('') ? [journeys, journeys.filter((j) => j !== '')] : [journeys];
  let repeated = false;
  let empty = journeys.includes('');
  const single = (name: string): Array<string | undefined> => {
    const given = values(query[name]);
    if (given.length === 0) return [undefined];
    if (given.length > 1) repeated = true;
    if (given.includes('')) empty = true;
    const candidates = given.length === 1 ? readingsOfValue(given[0]!) : [...readingsOfValue(given[0]!), ...readingsOfValue(given.at(-1)!)];
    return [...new Set(candidates)];
  };
  const flows = single('user_flow');
  const groups = ASSET_PARAMETERS.map((p) => [p, single(p)] as const);
  let readings: Reading[] = journeyReadings.map((j) => ({ journeys: j, groups: {}, other }));
  readings = readings.flatMap((r) => flows.map((flow) => ({ ...r, ...(flow !== undefined ? { flow } : {}) })));
  for (const [p, options] of groups) readings = readings.flatMap((r) => options.map((v) => ({ ...r, groups: { ...r.groups, ...(v !== undefined ? { [p]: v } : {}) } })));
  return { readings, repeated, empty };
}

/** The reading as a query, to compare with the profile's declared contexts. */
function readingQuery(r: Reading): JourneyQuery {
  const q: JourneyQuery = { ...r.other };
  if (r.journeys.length) q['user_journey[]'] = r.journeys;
  if (r.flow !== undefined) q.user_flow = r.flow;
  for (const p of ASSET_PARAMETERS) if (r.groups[p] !== undefined) q[p] = r.groups[p]!;
  return q;
}

/** Two queries name the same parameters with the same values (a repeated parameter's in any order). */
export function sameQuery(a: JourneyQuery, b: JourneyQuery): boolean {
  const norm = (q: JourneyQuery) =>
    JSON.stringify(
      Object.keys(q)
        .sort()
        .map((k) => [k, [...values(q[k])].sort()]),
    );
  return norm(a) === norm(b);
}

/** What 4.2 determines of one reading. */
export function classifyReading(setup: Setup, r: Reading): ReadingClass {
  const violates: JourneyRule[] = [];
  const given = ASSET_PARAMETERS.filter((p) => r.groups[p] !== undefined);
  const flowKnown = r.flow !== undefined && Object.hasOwn(FLOW_PARAMETERS, r.flow);
  if (r.journeys.length && r.flow !== undefined) violates.push('exclusive');
  if (r.flow !== undefined && !flowKnown) violates.push('unknown-flow');
  if (flowKnown) {
    const needs = FLOW_PARAMETERS[r.flow!]!;
    if (needs.includes('asset_group') && r.groups.asset_group === undefined) violates.push('asset-group-required');
    if (r.flow === 'trade_swap' && (r.groups.source_asset_group === undefined || r.groups.target_asset_group === undefined)) violates.push('swap-groups-required');
    if (needs.length === 0 && given.length) violates.push('no-asset-group');
  }
  if (violates.length) return { violates };
  const termsCase = setup.termsCases.findIndex((c) => sameQuery(c.query, readingQuery(r)));
  const declared = termsCase >= 0 ? { termsCase } : {};
  const open = (why: string): ReadingClass => (termsCase >= 0 ? { serves: { basis: 'declared', termsCase } } : { open: why });
  if (Object.keys(r.other).length) return open(`parameters 4.2 does not name (${Object.keys(r.other).join(', ')})`);
  if (r.flow === undefined && !r.journeys.length) {
    return given.length ? open(`${given.join(', ')} without user_flow: 4.2 says which groups each flow takes, not what groups without one do`) : { serves: { basis: 'default' } };
  }
  if (r.flow === undefined) {
    if (given.length) return open(`${given.join(', ')} with user_journey[]: 4.2 ties the groups to user_flow only`);
    const undeclared = r.journeys.filter((j) => !setup.journeys.includes(j));
    if (undeclared.length) return open(`user_journey[] ${undeclared.map((j) => JSON.stringify(j)).join(', ')}: its values are not shown (4.2) and the profile does not declare ${undeclared.length > 1 ? 'these' : 'this one'}`);
    const distinct = new Set(r.journeys).size;
    if (distinct < r.journeys.length) return open('a user_journey[] value given twice: 4.2 makes the parameter repeatable, not what a repeated value means');
    return { serves: { basis: 'journeys', distinct, ...declared } };
  }
  const needs = FLOW_PARAMETERS[r.flow]!;
  const extra = given.filter((p) => !needs.includes(p));
  if (extra.length) return open(`${extra.join(', ')} with user_flow ${r.flow}, which does not name it (4.2 rules 3-4 say what it needs, not what else it takes)`);
  const undeclared = needs.filter((p) => r.groups[p] !== setup.groups[p]);
  if (undeclared.length) return open(`${undeclared.map((p) => `${p}=${JSON.stringify(r.groups[p])}`).join(', ')}: the format of asset-group values is not shown (4.2) and the profile does not declare it`);
  return { serves: { basis: 'flow', flow: r.flow, ...declared } };
}

/** What 4.2 determines of the query: the rules every reading breaks, or the context every reading serves. */
export function classifyQuery(setup: Setup, query: JourneyQuery): ContextVerdict {
  const { readings, repeated, empty } = readingsOf(query);
  const classes = readings.map((r) => classifyReading(setup, r));
  const broken = classes.map((c) => ('violates' in c ? c.violates : []));
  const violated = (Object.keys(RULE_OF) as JourneyRule[]).filter((rule) => broken.every((b) => b.includes(rule)));
  const open = [...new Set(classes.flatMap((c) => ('open' in c ? [c.open] : [])))];
  if (empty) open.unshift(EMPTY_VALUE_OPEN);
  if (repeated) open.unshift('a single-valued parameter given twice, which a service may read as its first or its last value, or refuse (4.2 types it as one string)');
  const only = classes[0]!;
  const served = readings.length === 1 && !repeated && 'serves' in only ? only.serves : undefined;
  return { readings: readings.length, repeated, violated, ...(served ? { served } : {}), open: violated.length || served ? [] : open };
}

// ---------------------------------------------------------------------------
// Running and judging a case.

const exchangeOf = (res: HttpResponse) => (res.exchangeId !== undefined ? { exchange: res.exchangeId } : {});

/** What a 200 answer held where terms_not_accepted goes, for the terms judgments (as suites/users/journey-context.check.ts reads it). */
function termsAnswer(res: HttpResponse): TermsAnswer {
  const user = userOf(res);
  return { data: describeData(res), ...(user && user.terms_not_accepted !== undefined ? { terms: user.terms_not_accepted } : {}), status: res.status, ...exchangeOf(res) };
}

/** Sends the case's request (`withLanguage` false: without its Accept-Language). */
async function sendCase(setup: Setup, c: UsersCase, run: CaseRun, label: string, withLanguage = true): Promise<HttpResponse> {
  const { tokens } = run.target;
  const bearer = c.bearer === 'valid' ? tokens : c.bearer === 'forged' ? tamperPayload(await tokens.current()) : undefined;
  const userId = c.user.kind === 'existing' ? setup.userId : c.user.id;
  const language = languageOf(c.language);
  const headers = withLanguage && language !== undefined ? { headers: { 'accept-language': language } } : {};
  return run.http.get(userPath(userId), { bearer, query: queryOf(setup, c.query), ...headers, label });
}

async function runCase(setup: Setup, c: UsersCase, run: CaseRun): Promise<void> {
  const query = queryOf(setup, c.query);
  const language = languageOf(c.language);
  const what = describeCase(setup, c);
  const res = await sendCase(setup, c, run, what);
  const context = classifyQuery(setup, query);
  answered(setup, c, run, res, what, context);
  /** The same request with one thing set right: what the target makes of the rest. */
  const control = async (fixed: UsersCase, why: string): Promise<HttpResponse> => {
    const label = `${describeCase(setup, fixed)} (control: ${why})`;
    const answer = await sendCase(setup, fixed, run, label);
    answered(setup, fixed, run, answer, label, context);
    return answer;
  };

  const plain = language === undefined;
  const served = context.served;
  // The one thing wrong with a request the spec otherwise serves as it is (no Accept-Language): its own code is due.
  const onlyThis = served !== undefined && plain;
  if (c.bearer !== 'valid') {
    const rule = c.bearer === 'absent' ? RULES.bearerRequired : RULES.forgedBearerRefused;
    const wantsCode = onlyThis && c.user.kind === 'existing';
    const fixed = needsControl(res, wantsCode, 401) ? await control({ ...c, bearer: 'valid' }, 'the same request with a valid bearer') : undefined;
    run.judge(rule.id, (check) => judgeRefusal(check, res, what, fixed, wantsCode ? () => check.expectUnauthorized(res, what, { operation: 'userDetails', effect: GET_EXECUTES_NOTHING }) : undefined));
  }
  if (c.user.kind === 'unknown') {
    const wantsCode = onlyThis && c.bearer === 'valid';
    const fixed = needsControl(res, wantsCode, 404) ? await control({ ...c, user: { kind: 'existing' } }, "the same request for the profile's user") : undefined;
    run.judge(RULES.unknownUser.id, (check) => judgeRefusal(check, res, what, fixed, wantsCode ? () => check.expectStatus(res, 404, what) : undefined));
  }
  if (c.user.kind === 'malformed') {
    const fixed = needsControl(res, false, 0) ? await control({ ...c, user: { kind: 'existing' } }, "the same request for the profile's user") : undefined;
    run.judge(RULES.malformedId.id, (check) => judgeRefusal(check, res, what, fixed));
  }
  // The journey rules weigh requests of a valid bearer for the profile's user: anything else is refused for its own rule.
  const forTheUser = c.bearer === 'valid' && c.user.kind === 'existing';
  if (!forTheUser) return;
  for (const broken of context.violated) {
    run.judge(RULES[RULE_OF[broken]].id, (check) => expectJourneyRefused(check, res, what));
  }
  if (plain && context.readings === 1 && !context.repeated && context.violated.length && res.status >= 400 && res.status < 500) {
    run.judge(RULES.parameterErrorCode.id, (check) => check.judge(violationRefusalCode, { what, status: res.status, ...exchangeOf(res) }));
  }
  if (!served) return;

  // A served context for the profile's user: 200, judged on an answer to the request without Accept-Language when the header's answer is a refusal.
  let answer = res;
  let answerWhat = what;
  if (!plain) {
    let control: HttpResponse | undefined;
    if (res.status !== 200) {
      control = await sendCase(setup, c, run, `${what} (control: the same request without Accept-Language)`, false);
      answerWhat = `${what} (control: without Accept-Language)`;
      answered(setup, { ...c, language: { kind: 'absent' } }, run, control, answerWhat, context);
      answer = control;
    }
    const controlStatus = control?.status;
    run.judge(RULES.acceptLanguage.id, (check) => {
      if (c.language.kind === 'any') return check.judge(undeclaredLanguageAnswered, { value: language!, status: res.status, ...exchangeOf(res), ...(controlStatus !== undefined ? { controlStatus } : {}) });
      // A refusal the request without the header shares is the context's, not the header's.
      if (res.status !== 200 && controlStatus !== 200) return check.note(`Accept-Language: ${language} → ${res.status}, and ${controlStatus} without the header: the refusal is not the header's`);
      check.judge(languageServed, { value: language!, status: res.status, ...exchangeOf(res), languages: check.declaredValue('users.languages') });
    });
  }
  // Terms are compared only on an answer to a request without Accept-Language.
  const termsOf = answer !== res || plain ? termsAnswer(answer) : undefined;
  // …and only when the answer names the requested user: another user's terms are answer-is-requested-user's finding.
  const named = userOf(answer)?.id;
  const sameUser = typeof named === 'string' && named.toLowerCase() === setup.userId.toLowerCase();
  const compared = termsOf && sameUser && Array.isArray(termsOf.terms) ? termsOf.terms : undefined;
  switch (served.basis) {
    case 'default':
      run.judge(RULES.defaultJourneys.id, (check) => {
        check.expectStatus(answer, 200, `${answerWhat} (no journey parameter: the default journeys, 4.2 rule 6)`);
        if (!termsOf || !compared) return;
        const defaultTerms = check.declaredValue('users.defaultTerms') as number[] | undefined;
        check.judge(defaultJourneyTerms, { ...termsOf, ...(defaultTerms !== undefined ? { defaultTerms } : {}) });
      });
      break;
    case 'flow':
      run.judge(RULES.flowValues.id, (check) => check.expectStatus(answer, 200, `${answerWhat} (user_flow ${served.flow} with exactly its asset groups)`));
      break;
    case 'journeys':
      run.judge(RULES.declaredJourneys.id, (check) =>
        check.judge(declaredJourneysServed, { what: answerWhat, status: answer.status, ...exchangeOf(answer), distinct: served.distinct, journeys: check.declaredValue('users.journeys') }),
      );
      break;
    case 'declared':
      break;
  }
  if ('termsCase' in served && served.termsCase !== undefined && termsOf) {
    const index = served.termsCase;
    run.judge(RULES.termsFollowContext.id, (check) => {
      const cases = check.declaredValue('users.termsCases') as TermsCase[] | undefined;
      const declared = cases?.[index];
      if (!declared) return check.note(`users.termsCases[${index}] is not declared`);
      const name = declared.name ?? describeQuery(declared.query);
      // A transient answer decides no rule: termsFollowCases says so itself (not observed).
      check.judge(termsFollowCases, {
        answers: [{ what: `${answerWhat} (users.termsCases[${index}]: ${name})`, status: answer.status, ...(compared ? { terms: compared } : {}), ...exchangeOf(answer) }],
        cases: [{ ...declared }],
      });
    });
  }
}

/** Whether the rule needs the request set right to judge the answer: a 5xx (whose is it?), or a refusal other than the code due when only this is wrong. */
function needsControl(res: HttpResponse, wantsCode: boolean, code: number): boolean {
  return isServerError(res.status) || (wantsCode && res.status !== code && !isSuccess(res.status));
}

/**
 * The request must be refused. With `specific` (the one thing wrong with a
 * request the spec serves), its own code is due — unless the same request
 * set right (`control`) is not served either: then the target finds more
 * wrong with it, and the spec orders no checks, so any refusal 7 lists will
 * do. A 5xx the control shares is the request's otherwise (no-server-error
 * judges every 5xx), not this rule's.
 */
function judgeRefusal(check: CheckContext, res: HttpResponse, what: string, control: HttpResponse | undefined, specific?: () => void): void {
  if (control && isServerError(res.status) && isServerError(control.status)) {
    return check.note(`${what} → ${res.status}, and ${control.status} with this set right: the server error is not this rule's (explore.users.no-server-error judges it)`);
  }
  if (specific && (!control || control.status === 200)) return specific();
  if (specific && control) check.note(`the same request with this set right was answered ${control.status}: the target finds more wrong with it, so any refusal 7 lists will do`);
  check.expectRefused(res, { operation: 'userDetails', what, effect: GET_EXECUTES_NOTHING });
}

/**
 * A journey-rule violation must be refused: a 2xx FAILs on the rule
 * (journeyRefused, as suites/users/journey-rules.check.ts judges it). A 5xx
 * is no refusal and no acceptance: every 5xx is judged by 7's row in
 * explore.users.no-server-error, whatever the query made it.
 */
function expectJourneyRefused(check: CheckContext, res: HttpResponse, what: string): void {
  if (isServerError(res.status)) return check.note(`${what} → ${res.status}: a server error, judged by explore.users.no-server-error`);
  check.judge(journeyRefused, { what, status: res.status, ...exchangeOf(res) });
}

/** What every answer is held to: no 5xx; a 200 holds 2.2, is JSON, names the requested user; an open query's answer is recorded. */
function answered(setup: Setup, c: UsersCase, run: CaseRun, res: HttpResponse, what: string, context: ContextVerdict): void {
  run.judge(RULES.noServerError.id, (check) => {
    if (isServerError(res.status)) return check.serverError(res, { operation: 'userDetails', what, effect: GET_EXECUTES_NOTHING });
    if (context.violated.length || context.served || c.bearer !== 'valid' || c.user.kind !== 'existing') return;
    const why = context.open.join('; ');
    const language = languageOf(c.language);
    // hostileInputAccepted names the request "user details with <what>".
    const sent = `query ${describeQuery(queryOf(setup, c.query))}${language === undefined ? '' : `, Accept-Language: ${language}`}`;
    if (isSuccess(res.status)) {
      check.judge(hostileInputAccepted, { what: context.repeated ? sent : `${sent} (${why})`, leniency: context.repeated ? 'one-of-repeated' : 'ignorable', status: res.status, ...exchangeOf(res) });
    } else check.note(`${what} → ${res.status}: the spec leaves it open (${why})`);
  });
  if (res.status !== 200) return;
  run.judge(RULES.answersHold22.id, (check) => check.expectSchema(res, USER_DETAILS_SCHEMA, `the 200 answer to ${what}`));
  run.judge(RULES.answerIsJson.id, (check) => check.expectJsonContentType(res, `the 200 answer to ${what}`));
  const user = userOf(res);
  // No user object: the body is answers-hold-2-2's to judge.
  if (!user) return;
  if (c.user.kind !== 'malformed') {
    const requested = c.user.kind === 'existing' ? setup.userId : c.user.id;
    run.judge(RULES.requestedUser.id, (check) => check.judge(requestedUser, { requested, data: describeData(res), ...(user.id !== undefined ? { id: user.id } : {}) }));
  }
  run.judge(RULES.registeredAt.id, (check) =>
    check.judge(registeredAtOffset, { data: describeData(res), ...(user.registered_at !== undefined ? { registeredAt: user.registered_at } : {}), status: res.status, ...exchangeOf(res) }),
  );
}

export function setupOf(profile: ResolvedProfile): Setup | Unexplorable {
  const users = profile.users;
  if (!users?.existingUserId) return { unexplorable: 'no user to read', configKey: 'users.existingUserId' };
  const groups: Setup['groups'] = {};
  if (users.assetGroup) groups.asset_group = users.assetGroup;
  if (users.sourceAssetGroup) groups.source_asset_group = users.sourceAssetGroup;
  if (users.targetAssetGroup) groups.target_asset_group = users.targetAssetGroup;
  return { userId: users.existingUserId, journeys: users.journeys ?? [], groups, languages: users.languages ?? [], termsCases: users.termsCases ?? [] };
}

export const usersModel: AreaModel<UsersCase> = {
  area: 'users',
  rules: Object.values(RULES),
  prepare(profile: ResolvedProfile): AreaExplorer<UsersCase> | Unexplorable {
    const setup = setupOf(profile);
    if ('unexplorable' in setup) return setup;
    return { cases: caseArbitrary(setup), describe: (c) => describeCase(setup, c), kindOf: kindOfCase, run: (c, run) => runCase(setup, c, run) };
  },
};
