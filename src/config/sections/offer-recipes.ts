// Offer recipes: the named ways a profile says how to create each kind of
// offer the accept checks need (trading.offerRecipes). Real implementations
// make an offer slow by a value in the creation body (a magic amount, a
// flag), not by a processing time, so a recipe is createOffer with any
// changes — other placeholder values, another body, path, query or headers —
// and what it declares: acceptAnswers 200 or 202 (spec 3.1; the predefined
// time is not shown) and expiresAfterSeconds.
//
// A recipe that declares expiresAfterSeconds makes offers meant to run out:
// the expiry checks try every such recipe (a slow one too, since validity
// may be checked on one code path only), each offer once it has expired. The
// checks that accept an offer at once never take one, whatever its
// acceptAnswers (which then only says which path its offers take): a retry
// after a transient answer (Retry-After) could come after its validity, and
// its refusal would be no answer to what they ask.
//
// Profiles written before recipes (trading.fastProcessingMs,
// slowProcessingMs, expiryValiditySeconds) keep working: those keys become
// the recipes fast, slow and expiring here, so every check reads recipes only.
import type { OperationTemplate } from './operation.ts';
import type { OfferRecipe, TradingProfile } from './trading.ts';

export interface ResolvedRecipe {
  name: string;
  /** createOffer with the recipe's changes applied. */
  template: OperationTemplate;
  /** Placeholder values the recipe sets ({processingMs}, {validitySeconds}, or its own). */
  values: Record<string, unknown>;
  acceptAnswers?: 200 | 202;
  expiresAfterSeconds?: number;
  /** The profile key a verdict on this recipe's declaration names (a profile-declared FAIL). */
  declaredBy: string;
}

/** A recipe that declares how long its offers stay valid. */
export type ExpiringRecipe = ResolvedRecipe & { expiresAfterSeconds: number };

const expires = (recipe: ResolvedRecipe): recipe is ExpiringRecipe => recipe.expiresAfterSeconds !== undefined;

export interface OfferRecipes {
  /** Makes the offers of every check that needs "an offer to accept": fast, else the first answering 200, else createOffer as it is. */
  standard: ResolvedRecipe;
  /** The recipes declaring acceptAnswers 200 whose offers stay valid (no expiresAfterSeconds). */
  answering200: ResolvedRecipe[];
  /** The recipes declaring acceptAnswers 202 whose offers stay valid (no expiresAfterSeconds). */
  answering202: ResolvedRecipe[];
  /** Every recipe whose offers expire soon (expiresAfterSeconds), in the profile's order: the expiry checks try each. */
  expiring: ExpiringRecipe[];
  all: ResolvedRecipe[];
}

export const LEGACY_RECIPE_KEYS = ['fastProcessingMs', 'slowProcessingMs', 'expiryValiditySeconds'] as const;

function applyRecipe(base: OperationTemplate, recipe: OfferRecipe): OperationTemplate {
  return {
    ...base,
    ...(recipe.path !== undefined ? { path: recipe.path } : {}),
    ...(recipe.body !== undefined ? { body: recipe.body } : {}),
    ...(recipe.query ? { query: { ...base.query, ...recipe.query } } : {}),
    ...(recipe.headers ? { headers: { ...base.headers, ...recipe.headers } } : {}),
  };
}

/** The older processing-time keys as the recipes they always meant. */
function legacyRecipes(section: TradingProfile): Record<string, OfferRecipe & { declaredBy: string }> {
  const recipes: Record<string, OfferRecipe & { declaredBy: string }> = {};
  const fast = section.fastProcessingMs;
  if (fast !== undefined) recipes.fast = { values: { processingMs: fast }, acceptAnswers: 200, declaredBy: 'trading.fastProcessingMs' };
  if (section.slowProcessingMs !== undefined) {
    recipes.slow = { values: { processingMs: section.slowProcessingMs }, acceptAnswers: 202, declaredBy: 'trading.slowProcessingMs' };
  }
  if (section.expiryValiditySeconds !== undefined) {
    recipes.expiring = {
      values: { processingMs: fast, validitySeconds: section.expiryValiditySeconds },
      expiresAfterSeconds: section.expiryValiditySeconds,
      declaredBy: 'trading.expiryValiditySeconds',
    };
  }
  return recipes;
}

/**
 * The placeholders createOffer may always name: {processingMs} (unset unless a recipe sets it, and an unset
 * value is left out of a JSON body) and {validitySeconds} (trading.validitySeconds keeps the offers of a slow
 * machine valid). A recipe's own values win.
 */
function baseValues(section: TradingProfile): Record<string, unknown> {
  return { processingMs: undefined, validitySeconds: section.validitySeconds };
}

/** The profile's offer recipes, resolved against createOffer; undefined without createOffer. */
export function offerRecipes(section: TradingProfile | undefined): OfferRecipes | undefined {
  if (!section?.createOffer) return undefined;
  const createOffer = section.createOffer;
  const declared = section.offerRecipes
    ? Object.fromEntries(Object.entries(section.offerRecipes).map(([name, recipe]) => [name, { ...recipe, declaredBy: `trading.offerRecipes.${name}` }]))
    : legacyRecipes(section);
  const all: ResolvedRecipe[] = Object.entries(declared).map(([name, recipe]) => ({
    name,
    template: applyRecipe(createOffer, recipe),
    values: { ...baseValues(section), ...recipe.values },
    acceptAnswers: recipe.acceptAnswers,
    expiresAfterSeconds: recipe.expiresAfterSeconds,
    declaredBy: recipe.declaredBy,
  }));
  const expiring = all.filter(expires);
  const lasting = all.filter((r) => !expires(r));
  const answering200 = lasting.filter((r) => r.acceptAnswers === 200);
  const answering202 = lasting.filter((r) => r.acceptAnswers === 202);
  const plain: ResolvedRecipe = { name: 'createOffer', template: createOffer, values: baseValues(section), declaredBy: 'trading.createOffer' };
  const standard = lasting.find((r) => r.name === 'fast' && r.acceptAnswers !== 202) ?? answering200[0] ?? plain;
  return { standard, answering200, answering202, expiring, all };
}

/** A sentence for a profile that sets both forms, else undefined. */
export function recipeConflict(section: TradingProfile | undefined): string | undefined {
  if (!section?.offerRecipes) return undefined;
  const legacy = LEGACY_RECIPE_KEYS.filter((key) => section[key] !== undefined);
  if (!legacy.length) return undefined;
  return `trading.offerRecipes replaces ${legacy.map((k) => `trading.${k}`).join(', ')}: leave ${legacy.length === 1 ? 'it' : 'them'} out, or move each into a recipe (e.g. "fast": {"values": {"processingMs": 20}, "acceptAnswers": 200})`;
}
