// What the journey context does to terms_not_accepted (spec 2.2, 4.2 rules
// 1 and 6): the default journeys, repeated user_journey[] values, and the
// filtering the profile's cases describe. Which terms a journey brings is
// not shown: the expected terms are the profile's declaration, so a
// mismatch is a profile-declared FAIL naming the key.
import { defineCheck } from '../../runner/index.ts';
import type { HttpResponse } from '../../runner/index.ts';
import { describeData, describeQuery, existingUserId, formatTerms, getUser, requireJourneys, userOf } from './support.ts';
import { caseTermsReadable, defaultJourneyTerms, termsFollowCases, type TermsAnswer, type TermsCasesInput } from './terms-judgments.ts';

/** What a 200 answer held where terms_not_accepted goes, for the terms judgments. */
function termsAnswer(res: HttpResponse): TermsAnswer {
  const user = userOf(res);
  return {
    data: describeData(res),
    ...(user && user.terms_not_accepted !== undefined ? { terms: user.terms_not_accepted } : {}),
    status: res.status,
    ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}),
  };
}

defineCheck(
  {
    id: 'users.default-journeys',
    title: 'Without a journey parameter user details answer 200 with the default journeys',
    requirements: ['USERS-DEFAULT-JOURNEYS'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const res = await getUser({ http, tokens, userId, label: 'user details without journey parameters' });
    check.expectStatus(res, 200, 'GET user details without user_journey[] or user_flow');
    const defaultTerms = check.declaredValue('users.defaultTerms') as number[] | undefined;
    check.judge(defaultJourneyTerms, { ...termsAnswer(res), ...(defaultTerms !== undefined ? { defaultTerms } : {}) });
  },
);

defineCheck(
  {
    id: 'users.journey-repeatable',
    title: 'Several user_journey[] values in one request answer 200',
    requirements: ['USERS-JOURNEY-REPEATABLE'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const journeys = requireJourneys(profile, check, 2);
    const query = { 'user_journey[]': journeys };
    const res = await getUser({ http, tokens, userId, query, label: 'user details with repeated user_journey[]' });
    check.expectStatus(res, 200, `GET user details with ${describeQuery(query)}`);
  },
);

defineCheck(
  {
    id: 'users.terms-filtered-by-journey',
    title: 'terms_not_accepted holds the terms of the resolved journeys (profile cases)',
    requirements: ['USERS-TERMS-FILTERED'],
  },
  async ({ check, http, profile, tokens }) => {
    const userId = existingUserId(profile, check);
    const cases = profile.users?.termsCases;
    if (!cases?.length) return check.skip('no journey contexts with their expected terms', 'users.termsCases');
    const distinct = new Set(cases.map((c) => formatTerms(c.expectedTerms)));
    if (distinct.size < 2) check.note('every case expects the same terms, so these cases cannot show that the journey context filters anything');
    const answers: TermsCasesInput['answers'] = [];
    for (const { name, query } of cases) {
      const what = name ?? describeQuery(query);
      const res = await getUser({ http, tokens, userId, query, label: `terms for ${what}` });
      const answer = termsAnswer(res);
      check.judge(caseTermsReadable, { what, ...answer });
      answers.push({ what, status: res.status, ...(Array.isArray(answer.terms) ? { terms: answer.terms } : {}), ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}) });
    }
    check.judge(termsFollowCases, { answers, cases: check.declaredValue('users.termsCases') as TermsCasesInput['cases'] });
  },
);
