// What the journey context does to terms_not_accepted (spec 2.2, 4.2 rules
// 1 and 6): the default journeys, repeated user_journey[] values, and the
// filtering the profile's cases describe. Which terms a journey brings is
// not shown: the expected terms are the profile's declaration, so a
// mismatch is a profile-declared FAIL naming the key.
import { defineCheck } from '../../runner/index.ts';
import type { CheckContext, HttpResponse } from '../../runner/index.ts';
import { describeData, describeQuery, existingUserId, formatTerms, getUser, requireJourneys, sameTerms, termsOf, userOf } from './support.ts';

/**
 * data.terms_not_accepted of a 200, or undefined when there is none to
 * compare: no user object or no field is a WARN here (users.details-schema
 * FAILs the body for it), another type a FAIL on 2.2 ("array of integer").
 */
function termsArray(check: CheckContext, res: HttpResponse, what: string): unknown[] | undefined {
  const terms = termsOf(res);
  if (terms) return terms;
  const user = userOf(res);
  if (!user) {
    check.warn(`${what}: data is ${describeData(res)}, not a user object, so the terms of the journey context cannot be compared (users.details-schema judges the body)`);
    return undefined;
  }
  const value = user.terms_not_accepted;
  if (value === undefined || value === null) {
    check.warn(`${what} has no terms_not_accepted, so the terms of the journey context cannot be compared (users.details-schema judges the body)`);
    return undefined;
  }
  return check.fail(`${what}: terms_not_accepted is ${typeof value}, 2.2 types it as an array of integer`, { actual: value, exchange: res.exchangeId }, { on: 'SPEC-2-2-TERMS' });
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
    const terms = termsArray(check, res, 'the answer without journey parameters');
    if (!terms) return;
    const expected = profile.users?.defaultTerms;
    if (!expected) {
      check.note(`users.defaultTerms is not set: only the 200 was checked; terms_not_accepted was ${formatTerms(terms)}`);
      return;
    }
    if (!sameTerms(terms, expected)) {
      check.failDeclared('users.defaultTerms', `without journey parameters terms_not_accepted is ${formatTerms(terms)}; the profile's default journeys give ${formatTerms(expected)}`, {
        expected,
        actual: terms,
      });
    }
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
    const mismatches: string[] = [];
    for (const { name, query, expectedTerms } of cases) {
      const what = name ?? describeQuery(query);
      const res = await getUser({ http, tokens, userId, query, label: `terms for ${what}` });
      if (res.status !== 200) {
        mismatches.push(`${what}: status ${res.status}, expected 200`);
        continue;
      }
      const terms = termsArray(check, res, `the answer for ${what}`);
      if (terms && !sameTerms(terms, expectedTerms)) mismatches.push(`${what}: got ${formatTerms(terms)}, expected ${formatTerms(expectedTerms)}`);
    }
    if (mismatches.length) {
      check.failDeclared('users.termsCases', `terms_not_accepted does not follow the journey context in ${mismatches.length} of ${cases.length} cases: ${mismatches.join('; ')}`, {
        mismatches,
      });
    }
  },
);
