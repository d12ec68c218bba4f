// Step 4: each offer recipe (trading.offerRecipes, or the older
// processing-time keys as recipes fast/slow/expiring) creates an offer, and
// the ones that declare acceptAnswers are accepted once (spec 4.4) to see
// whether they answer 200 or 202 as declared (3.1). Recipes that only
// declare expiresAfterSeconds are created, not waited for. Right after the
// first 200 and the first 202 the offer status is read (offer-status.ts),
// before a newer offer for the same user could change it.
import type { HttpResponse } from '../../../src/http/client.ts';
import type { OperationTemplate } from '../../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../../src/config/sections/trading.ts';
import { offerRecipes, type ResolvedRecipe } from '../../../src/config/sections/offer-recipes.ts';
import { callTemplate, short } from '../call.ts';
import { extractProblem, missingExtract } from '../diagnose.ts';
import { okRow, problemRow, skippedRow, type AcceptedOffer, type DoctorContext } from '../model.ts';
import { OfferStatusReader } from './offer-status.ts';
import { acceptProblem, mismatchFix } from './accept-diagnosis.ts';

const CREATE_OFFER = 'trading.createOffer';

interface CreatedOffer {
  offerId: string;
  userId: string;
}

export async function offerSteps(ctx: DoctorContext): Promise<void> {
  const section = ctx.profile.trading;
  const recipes = offerRecipes(section);
  if (!section?.createOffer || !recipes) return ctx.report(skippedRow('offer recipes', CREATE_OFFER));
  if (!ctx.bearer) return ctx.report(skippedRow('offer recipes', CREATE_OFFER, 'not run: no access token'));
  if (!ctx.tradingUserId) {
    return ctx.report(skippedRow('offer recipes', 'trading.userId', 'not configured (trading.createUser or trading.userId): no user to make offers for'));
  }
  if (!section.createOffer.extract?.offerId) {
    return ctx.report(problemRow('create offer', `${CREATE_OFFER}.extract.offerId`, missingExtract(CREATE_OFFER, 'offerId', 'the offer id')));
  }
  const statusReader = new OfferStatusReader(ctx, section);
  // Without recipes, createOffer as it is makes the offers; the checks accept those too.
  const list = recipes.all.length ? recipes.all : [recipes.standard];
  for (const [index, recipe] of list.entries()) {
    const created = await createStep(ctx, section as TradingProfile & { createOffer: OperationTemplate }, recipe, ctx.tradingUserId);
    if (created.brokenKey?.startsWith(CREATE_OFFER)) {
      // createOffer itself is wrong: every further recipe would only repeat the same answer.
      const rest = list.slice(index + 1).map((r) => r.name);
      if (rest.length) ctx.report(skippedRow(`create offer ${rest.join(', ')}`, CREATE_OFFER, `not run: ${created.brokenKey} is broken (above)`));
      break;
    }
    const offer = created.offer;
    if (!offer) continue;
    const accepts = recipe.acceptAnswers !== undefined || (recipe === recipes.standard && recipe.expiresAfterSeconds === undefined);
    if (!accepts) continue;
    const accepted = await acceptStep(ctx, recipe, offer);
    if (accepted) await statusReader.after(accepted);
  }
  statusReader.finish();
}

/** The recipe's name, or createOffer when the profile has no recipes. */
function recipeLabel(recipe: ResolvedRecipe): string {
  return recipe.declaredBy === CREATE_OFFER ? 'createOffer' : recipe.name;
}

/** Whose change a refused create points at: the recipe's own path or body, else createOffer's. */
function blameFor(recipe: ResolvedRecipe, section: TradingProfile & { createOffer: OperationTemplate }): (res: HttpResponse) => string {
  const base = section.createOffer;
  const ownPath = recipe.template.path !== base.path;
  const ownValues = Object.entries(recipe.values).some(([k, v]) => v !== undefined && !(k === 'validitySeconds' && v === section.validitySeconds));
  const ownRequest = recipe.template.body !== base.body || recipe.template.query !== base.query || recipe.template.headers !== base.headers || ownValues;
  return (res) => {
    // Not let in: nothing a recipe changes.
    if (res.status === 401 || res.status === 403) return CREATE_OFFER;
    if (res.status === 404 || res.status === 405) return ownPath ? recipe.declaredBy : CREATE_OFFER;
    return ownRequest ? recipe.declaredBy : CREATE_OFFER;
  };
}

async function createStep(
  ctx: DoctorContext,
  section: TradingProfile & { createOffer: OperationTemplate },
  recipe: ResolvedRecipe,
  userId: string,
): Promise<{ offer?: CreatedOffer; brokenKey?: string }> {
  const operation = `create offer ${recipeLabel(recipe)}`;
  let brokenKey: string | undefined;
  const answer = await callTemplate(ctx, {
    onProblem: (key) => (brokenKey = key),
    operation,
    key: recipe.declaredBy,
    blame: blameFor(recipe, section),
    template: recipe.template,
    values: { userId, ...recipe.values },
    label: `create an offer (recipe ${recipeLabel(recipe)})`,
  });
  if (!answer) return { brokenKey };
  const { result, request } = answer;
  const offerId = result.extracted.offerId;
  if ((typeof offerId !== 'string' && typeof offerId !== 'number') || offerId === '') {
    const diagnosis = extractProblem(CREATE_OFFER, 'offerId', result.response, ctx.http.redactor, 'the offer id', ['id', 'offer_id', 'offerId']);
    ctx.report(problemRow(operation, `${CREATE_OFFER}.extract.offerId`, { request, answer: String(result.response.status), ...diagnosis }));
    return { brokenKey: `${CREATE_OFFER}.extract.offerId` };
  }
  const status = result.extracted.status === undefined ? '' : `, status ${short(result.extracted.status)}`;
  const expiry = recipe.expiresAfterSeconds === undefined ? '' : `; expires after ${recipe.expiresAfterSeconds} s (not waited for)`;
  ctx.report(okRow(operation, recipe.declaredBy, request, `${result.response.status} offerId ${short(offerId)}${status}${expiry}`));
  return { offer: { offerId: String(offerId), userId } };
}

/** PATCH /v1/offers/{id}/accept (spec 4.4) with the user-id header; a 429 or 503 is waited out by the client (src/http/transient.ts). */
function sendAccept(ctx: DoctorContext, offer: CreatedOffer, label: string): Promise<HttpResponse> {
  return ctx.http.patch(`/v1/offers/${encodeURIComponent(offer.offerId)}/accept`, {
    headers: { [ctx.http.userIdHeader]: offer.userId },
    bearer: ctx.bearer,
    label: `doctor: accept the offer (recipe ${label})`,
  });
}

async function acceptStep(ctx: DoctorContext, recipe: ResolvedRecipe, offer: CreatedOffer): Promise<AcceptedOffer | undefined> {
  const operation = `accept offer ${recipeLabel(recipe)}`;
  const res = await sendAccept(ctx, offer, recipeLabel(recipe));
  const request = ctx.exchanges.requestLine(res);
  if (res.status !== 200 && res.status !== 202) {
    const { key, problem, fix } = acceptProblem(ctx, recipe, offer, res, request);
    ctx.report(problemRow(operation, key, { request, answer: String(res.status), problem, fix }));
    return undefined;
  }
  const accepted: AcceptedOffer = { recipe: recipeLabel(recipe), offerId: offer.offerId, userId: offer.userId, acceptStatus: res.status };
  const declared = recipe.acceptAnswers;
  if (declared !== undefined && declared !== res.status) {
    const problem = `${recipe.declaredBy} declares acceptAnswers ${declared}, the accept answered ${res.status}`;
    ctx.report(problemRow(operation, recipe.declaredBy, { request, answer: String(res.status), problem, fix: mismatchFix(recipe, declared) }));
    return accepted;
  }
  const tradeId = (res.json as { data?: { trade_id?: unknown } } | undefined)?.data?.trade_id;
  const trade = res.status === 200 && tradeId !== undefined ? `, trade_id ${short(tradeId)}` : '';
  ctx.report(okRow(operation, recipe.declaredBy, request, `${res.status}${declared ? ' as declared' : ' (no acceptAnswers declared)'}${trade}`));
  return accepted;
}
