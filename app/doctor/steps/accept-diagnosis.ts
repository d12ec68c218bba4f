// What an accept that went wrong says about the profile. The accept itself
// is the spec's (4.4); what the doctor can get wrong is the offer it accepts
// (createOffer, its extract.offerId), the user-id header, or a recipe's
// declaration of 200 or 202 (3.1: the predefined time is not shown).
import type { HttpResponse } from '../../../src/http/client.ts';
import type { ResolvedRecipe } from '../../../src/config/sections/offer-recipes.ts';
import { answerProblem, bodySnippet, type Diagnosis } from '../diagnose.ts';
import type { DoctorContext } from '../model.ts';

/** The fix for a recipe whose accept answered the other of 200 and 202. */
export function mismatchFix(recipe: ResolvedRecipe, declared: 200 | 202): string {
  if (recipe.declaredBy === 'trading.slowProcessingMs') return 'raise trading.slowProcessingMs well above the predefined time, or describe the slow offer as a recipe (trading.offerRecipes)';
  if (recipe.declaredBy === 'trading.fastProcessingMs') return 'lower trading.fastProcessingMs well below the predefined time, or describe the fast offer as a recipe (trading.offerRecipes)';
  const kind = declared === 202 ? 'slow' : 'fast';
  return `this recipe does not make a ${kind} offer: change its body or values (${recipe.declaredBy}), or its acceptAnswers`;
}

export function acceptProblem(
  ctx: DoctorContext,
  recipe: ResolvedRecipe,
  offer: { offerId: string; userId: string },
  res: HttpResponse,
  request: string | undefined,
): Diagnosis & { key: string } {
  const body = bodySnippet(res, ctx.http.redactor);
  const problem = `the accept of the new offer answered ${res.status}${body ? `: ${body}` : ''}`;
  const header = ctx.http.userIdHeader;
  switch (res.status) {
    case 401:
      return { key: 'credentials', problem, fix: 'the access token was not accepted for the accept: check credentials' };
    case 403:
    case 422:
      return {
        key: 'userIdHeader',
        problem,
        fix: `the accept named the offer's user in ${header}: ${offer.userId}; if the implementation reads another header, set userIdHeader; if the user is wrong, check the {userId} of ${recipe.declaredBy}`,
      };
    case 404:
    case 410:
      return {
        key: 'trading.createOffer.extract.offerId',
        problem,
        fix: `the accept did not find offer ${offer.offerId}: point trading.createOffer.extract.offerId at the id the accept takes`,
      };
    case 409:
      return {
        key: recipe.declaredBy,
        problem,
        fix: `the new offer could not be accepted (not the newest, already accepted, or failed): check that ${recipe.declaredBy} makes an acceptable offer for {userId}`,
      };
    default:
      return { key: recipe.declaredBy, problem, fix: answerProblem(recipe.declaredBy, res, request, ctx.http.redactor, [200, 202]).fix };
  }
}
