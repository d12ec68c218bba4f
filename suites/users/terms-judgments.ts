// Judgments of terms_not_accepted against the journey context (spec 2.2, 4.2
// rules 1 and 6). Which terms a journey brings is not shown, so the expected
// terms are the profile's declaration (users.defaultTerms, users.termsCases),
// carried in the input, and a mismatch is a profile-declared FAIL naming the
// key. Before terms can be compared they must be there: no user object or no
// field is a WARN (users.details-schema FAILs the body for it), a value of
// another type a FAIL on 2.2 ("array of integer").
import { answeredWith, defineJudgment, type JudgmentSays } from '../../src/check/judgments.ts';
import { isTransientStatus } from '../../src/http/transient.ts';
import { formatTerms, sameTerms } from './support.ts';

/** What a 200 answer held where terms_not_accepted goes. */
export interface TermsAnswer {
  /** What data was: 'object' for a user object, else describeData's words ("null", "left out", "an array"). */
  data: string;
  /** data.terms_not_accepted, left out when it is (or there is no user object). */
  terms?: unknown;
  status: number;
  exchange?: number;
}

/** The terms to compare, or undefined after saying why there are none (a FAIL on 2.2 ends the check). */
function readableTerms(says: JudgmentSays, what: string, answer: TermsAnswer): unknown[] | undefined {
  const value = answer.terms;
  if (Array.isArray(value)) return value;
  if (answer.data !== 'object') {
    says.warn(`${what}: data is ${answer.data}, not a user object, so the terms of the journey context cannot be compared (users.details-schema judges the body)`);
    return undefined;
  }
  if (value === undefined || value === null) {
    says.warn(`${what} has no terms_not_accepted, so the terms of the journey context cannot be compared (users.details-schema judges the body)`);
    return undefined;
  }
  says.fail(`${what}: terms_not_accepted is ${typeof value}, 2.2 types it as an array of integer`, { actual: value, exchange: answer.exchange }, { on: 'SPEC-2-2-TERMS', observed: answeredWith(answer.status, answer.exchange) });
  return undefined;
}

export interface DefaultTermsInput extends TermsAnswer {
  /** users.defaultTerms, left out when the profile does not declare it. */
  defaultTerms?: number[];
}

/** users.default-journeys: without journey parameters, the terms of the profile's default journeys. */
export const defaultJourneyTerms = defineJudgment<DefaultTermsInput>('users.default-journey-terms', (input, says) => {
  const terms = readableTerms(says, 'the answer without journey parameters', input);
  if (!terms) return;
  const expected = input.defaultTerms;
  if (!expected) return says.note(`users.defaultTerms is not set: only the 200 was checked; terms_not_accepted was ${formatTerms(terms)}`);
  if (!sameTerms(terms, expected)) {
    says.failDeclared('users.defaultTerms', expected, `without journey parameters terms_not_accepted is ${formatTerms(terms)}; the profile's default journeys give ${formatTerms(expected)}`, { expected, actual: terms });
  }
});

export interface CaseTermsInput extends TermsAnswer {
  /** The case, as messages name it: its name, or its query. */
  what: string;
}

/**
 * users.terms-filtered-by-journey, each case as it is answered: a 200 must
 * carry terms to compare (a non-array ends the check there). Whether they
 * are the case's terms is judged over all cases (termsFollowCases).
 */
export const caseTermsReadable = defineJudgment<CaseTermsInput>('users.case-terms-readable', (input, says) => {
  if (input.status === 200) readableTerms(says, `the answer for ${input.what}`, input);
});

export interface TermsCasesInput {
  /** Each case's answer in the order of the declared cases: its status, and its terms when they were an array. */
  answers: Array<{ what: string; status: number; terms?: unknown[]; exchange?: number }>;
  /** users.termsCases as the profile declares it (each case's expectedTerms). */
  cases: Array<{ expectedTerms: number[] }>;
}

/** users.terms-filtered-by-journey: every case is answered 200 with its declared terms (as sets: order is not specified). */
export const termsFollowCases = defineJudgment<TermsCasesInput>('users.terms-follow-journey-context', (input, says) => {
  const mismatches: string[] = [];
  const transient: string[] = [];
  for (const [i, { what, status, terms, exchange }] of input.answers.entries()) {
    const expectedTerms = input.cases[i]?.expectedTerms ?? [];
    // A transient answer (the client's retries ran out on it) shows nothing about the terms: it never decides the rule.
    if (isTransientStatus(status)) transient.push(`${what}: ${status}${exchange === undefined ? '' : ` (exchange ${exchange})`}`);
    else if (status !== 200) mismatches.push(`${what}: status ${status}, expected 200`);
    else if (terms && !sameTerms(terms, expectedTerms)) mismatches.push(`${what}: got ${formatTerms(terms)}, expected ${formatTerms(expectedTerms)}`);
  }
  if (!mismatches.length && transient.length) {
    return says.notObserved(`${transient.length} of ${input.cases.length} cases got only a transient answer, so their terms were not seen: ${transient.join('; ')}`);
  }
  if (mismatches.length) {
    says.failDeclared('users.termsCases', input.cases, `terms_not_accepted does not follow the journey context in ${mismatches.length} of ${input.cases.length} cases: ${mismatches.join('; ')}`, {
      mismatches,
    });
  }
});
