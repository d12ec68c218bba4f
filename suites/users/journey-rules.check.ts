// The journey-context parameters of user details v2 (spec 4.2 rules 1-5):
// which combinations are accepted and which are refused, one check per
// user_flow value where the rule is per flow.
import { defineCheck, isServerError, type CheckContext, type HttpResponse } from '../../runner/index.ts';
import { GET_EXECUTES_NOTHING } from '../../src/check/server-error.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { JourneyQuery } from '../../src/config/sections/users.ts';
import {
  ASSET_PARAMETERS,
  FLOWS,
  FLOWS_WITHOUT_ASSET_GROUP,
  FLOW_PARAMETERS,
  assetValue,
  describeQuery,
  existingUserId,
  flowQuery,
  getUser,
  requireAssetValue,
  requireJourneys,
} from './support.ts';
import { journeyRefused, parameterErrorCodes, type RefusalCodesInput } from './journey-judgments.ts';

/**
 * A journey-rule violation must be refused: a 2xx FAILs on the rule
 * (journeyRefused), a 5xx is judged by src/check/server-error.ts (7's row for
 * the operation lists no 500: a FAIL on the row). Which 4xx is the business
 * of users.parameter-errors-documented-code alone. A 401 or 403 means the
 * request never reached the rule, so the check cannot judge it.
 */
function expectJourneyRejected(check: CheckContext, res: HttpResponse, what: string, options: { emptyValue?: boolean } = {}): void {
  check.judge(journeyRefused, { what, status: res.status, ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}), ...(options.emptyValue ? { emptyValue: true } : {}) });
  if (isServerError(res.status)) return check.serverError(res, { operation: 'userDetails', what, effect: GET_EXECUTES_NOTHING });
  if (res.status === 401 || res.status === 403) {
    throw new Error(`${what} was refused with ${res.status} before the journey rule applied: the worker's access token is not accepted for this user`);
  }
}

defineCheck(
  {
    id: 'users.journey-and-flow-exclusive',
    title: 'user_journey[] together with user_flow is refused',
    requirements: ['USERS-JOURNEY-EXCLUSIVE'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const [journey] = requireJourneys(profile, check, 1);
    const cases: JourneyQuery[] = [{ 'user_journey[]': journey!, user_flow: 'onboard' }];
    const { value: assetGroup } = assetValue(profile, 'asset_group');
    if (assetGroup) cases.push({ 'user_journey[]': journey!, user_flow: 'trade_buy', asset_group: assetGroup });
    for (const query of cases) {
      const res = await getUser({ http, tokens, userId, query, label: 'user_journey[] and user_flow together' });
      expectJourneyRejected(check, res, `${describeQuery(query)} (both ways of giving the journey context)`);
    }
  },
);

for (const flow of FLOWS) {
  defineCheck(
    {
      id: `users.flow-accepted-${flow.replaceAll('_', '-')}`,
      title: `user_flow ${flow} with exactly its required parameters answers 200`,
      requirements: ['USERS-FLOW-VALUES'],
    },
    async ({ check, http, profile, tokens }) => {
      const userId = existingUserId(profile, check);
      const query = flowQuery(profile, check, flow);
      const res = await getUser({ http, tokens, userId, query, label: `user_flow ${flow}` });
      check.expectStatus(res, 200, `GET user details with ${describeQuery(query)}`);
    },
  );
}

defineCheck(
  {
    id: 'users.unknown-flow-rejected',
    title: 'A user_flow value outside the eight of rule 2 is refused',
    requirements: ['USERS-FLOW-UNKNOWN-REJECTED'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    for (const flow of ['not_a_flow', 'trade', 'withdraw']) {
      const query = { user_flow: flow };
      const res = await getUser({ http, tokens, userId, query, label: `unknown user_flow ${flow}` });
      expectJourneyRejected(check, res, `unknown ${describeQuery(query)}`);
    }
  },
);

for (const flow of FLOWS.filter((f) => FLOW_PARAMETERS[f]!.join() === 'asset_group')) {
  defineCheck(
    {
      id: `users.flow-${flow.replaceAll('_', '-')}-requires-asset-group`,
      title: `user_flow ${flow} without asset_group is refused`,
      requirements: ['USERS-FLOW-ASSET-GROUP-REQUIRED'],
    },
    async ({ check, http, profile, tokens }) => {
      const userId = existingUserId(profile, check);
      // An empty asset_group may be read as left out (refusal due) or as given (4.2 shows no format): its acceptance is REVIEW.
      const cases: Array<[string, JourneyQuery, boolean]> = [
        ['without asset_group', { user_flow: flow }, false],
        ['with an empty asset_group', { user_flow: flow, asset_group: '' }, true],
      ];
      for (const [what, query, emptyValue] of cases) {
        const res = await getUser({ http, tokens, userId, query, label: `user_flow ${flow} ${what}` });
        expectJourneyRejected(check, res, `user_flow ${flow} ${what}`, { emptyValue });
      }
    },
  );
}

defineCheck(
  {
    id: 'users.flow-trade-swap-requires-both-groups',
    title: 'user_flow trade_swap without source_asset_group or target_asset_group is refused',
    requirements: ['USERS-FLOW-SWAP-GROUPS-REQUIRED'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const source = requireAssetValue(profile, check, 'source_asset_group', 'send without its target');
    const target = requireAssetValue(profile, check, 'target_asset_group', 'send without its source');
    const cases: Array<[string, JourneyQuery]> = [
      ['without target_asset_group', { user_flow: 'trade_swap', source_asset_group: source }],
      ['without source_asset_group', { user_flow: 'trade_swap', target_asset_group: target }],
      ['without either group', { user_flow: 'trade_swap' }],
      // asset_group is the parameter of the other flows, not a stand-in for the two of rule 4.
      ['with asset_group instead of the two groups', { user_flow: 'trade_swap', asset_group: source }],
    ];
    for (const [what, query] of cases) {
      const res = await getUser({ http, tokens, userId, query, label: `user_flow trade_swap ${what}` });
      expectJourneyRejected(check, res, `user_flow trade_swap ${what}`);
    }
  },
);

for (const flow of FLOWS_WITHOUT_ASSET_GROUP) {
  defineCheck(
    {
      id: `users.flow-${flow.replaceAll('_', '-')}-takes-no-asset-group`,
      title: `user_flow ${flow} with an asset-group parameter is refused`,
      requirements: ['USERS-FLOW-NO-ASSET-GROUP'],
    },
    async ({ check, http, profile, tokens }) => {
      const userId = existingUserId(profile, check);
      const missingKeys: string[] = [];
      let sent = 0;
      for (const parameter of ASSET_PARAMETERS) {
        const { value, key } = assetValue(profile, parameter);
        if (!value) {
          missingKeys.push(key);
          continue;
        }
        const query = { user_flow: flow, [parameter]: value };
        const res = await getUser({ http, tokens, userId, query, label: `user_flow ${flow} with ${parameter}` });
        sent++;
        expectJourneyRejected(check, res, `${describeQuery(query)} (rule 5: ${flow} takes no asset-group parameter)`);
      }
      if (sent === 0) return check.skip(`no asset-group value to send with user_flow ${flow}`, missingKeys.join(' / '));
      if (missingKeys.length) check.note(`not tried: the parameters of ${missingKeys.join(', ')} (not set in the profile)`);
    },
  );
}

/** Every journey-rule violation the profile lets the suite build, for the status-code check. */
function violations(profile: ResolvedProfile): Array<[string, JourneyQuery]> {
  const journey = profile.users?.journeys?.[0];
  const assetGroup = profile.users?.assetGroup;
  const source = profile.users?.sourceAssetGroup;
  const cases: Array<[string, JourneyQuery]> = [
    ['an unknown user_flow', { user_flow: 'not_a_flow' }],
    ['trade_buy without asset_group', { user_flow: 'trade_buy' }],
    ['saving_create without asset_group', { user_flow: 'saving_create' }],
    ['trade_swap without either group', { user_flow: 'trade_swap' }],
  ];
  if (journey) cases.push(['user_journey[] with user_flow', { 'user_journey[]': journey, user_flow: 'onboard' }]);
  if (source) cases.push(['trade_swap without target_asset_group', { user_flow: 'trade_swap', source_asset_group: source }]);
  if (assetGroup) cases.push(['onboard with asset_group', { user_flow: 'onboard', asset_group: assetGroup }]);
  return cases;
}

defineCheck(
  {
    id: 'users.parameter-errors-documented-code',
    title: 'Journey-parameter violations are answered 400 or 422',
    requirements: ['USERS-PARAMETER-ERROR-CODE'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const answers: RefusalCodesInput['answers'] = [];
    for (const [what, query] of violations(profile)) {
      const res = await getUser({ http, tokens, userId, query, label: what });
      answers.push({ what, status: res.status });
    }
    check.judge(parameterErrorCodes, { answers });
  },
);
