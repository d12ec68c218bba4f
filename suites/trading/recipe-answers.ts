// Which answer an accept of a recipe's offer gets (spec 4.4 rules 2-3, 3.1):
// 200 with the trade when processing finishes within the short predefined
// time, 202 when it does not. The spec does not show that time, so which
// offer is fast or slow is the profile's statement (a recipe's acceptAnswers,
// or the older trading.fastProcessingMs / slowProcessingMs): an answer against
// it contradicts the profile's own declaration, a profile-declared FAIL on the
// key that declared the recipe. Named and pure (src/check/judgments.ts), so a
// stored run's accept answers are judged again by the installed suite; the
// status rule the checks apply after them (expectStatus) is recorded apart.
// The checks: accept.check.ts.
import { defineJudgment } from '../../src/check/judgments.ts';
import { shortId } from './common.ts';

/** The recipe an offer was made by, as the reasons name it. */
export interface RecipeSeen {
  name: string;
  /** The profile key that declares it (the basis of a contradiction). */
  declaredBy: string;
  /** describeRecipe (support.ts): "recipe slow", or "processing 1200 ms" for the older keys. */
  label: string;
}

export interface FastOfferAnswer {
  offerId: string;
  recipe: RecipeSeen;
  /** The accept's status. */
  status: number;
  /** trading.processingTimeMs, when the profile states the predefined time; null when it does not. */
  processingTimeMs: number | null;
  /** The value the profile gives recipe.declaredBy (check.declaredValue); absent when it gives none. */
  declaredValue?: unknown;
  exchange: number;
}

/** An offer the profile declares to finish within the predefined time must not be answered 202 (its 200 is the status rule's concern). */
export const fastOfferAnswered200 = defineJudgment<FastOfferAnswer>('trading.fast-offer-answered-200', (input, says) => {
  if (input.status !== 202) return;
  const predefined = input.processingTimeMs === null ? '' : `; predefined time ${input.processingTimeMs} ms`;
  says.failDeclared(
    input.recipe.declaredBy,
    input.declaredValue,
    `accept of offer ${shortId(input.offerId)} (${input.recipe.label}), which the profile declares to finish processing within the predefined time${predefined}, answered 202 instead of 200 with the trade`,
    { expected: 200, actual: 202, recipe: input.recipe.name, exchange: input.exchange },
    // A FAIL rests on the answer it read: a transient one would decide nothing (src/check/outcome.ts).
    { observed: { kind: 'answer', status: input.status } },
  );
});

export interface SlowOfferAnswer {
  offerId: string;
  recipe: RecipeSeen;
  status: number;
  /** How long the accept took to be answered, rounded to the ms. */
  durationMs: number;
  declaredValue?: unknown;
  exchange: number;
}

/** An offer the profile declares to outlast the predefined time must be answered 202 without waiting: a 200 waited for processing. */
export const slowOfferAnswered202 = defineJudgment<SlowOfferAnswer>('trading.slow-offer-answered-202', (input, says) => {
  if (input.status !== 200) return;
  says.failDeclared(
    input.recipe.declaredBy,
    input.declaredValue,
    `accept of offer ${shortId(input.offerId)} (${input.recipe.label}), which the profile declares to outlast the predefined time, answered 200 after ${input.durationMs} ms: it waited for processing instead of answering 202`,
    { expected: 202, actual: 200, durationMs: input.durationMs, recipe: input.recipe.name, exchange: input.exchange },
    { observed: { kind: 'answer', status: input.status } },
  );
});
