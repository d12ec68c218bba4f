// Offer recipes: the named ways a profile says how to create each kind of
// offer the accept checks need (trading.offerRecipes). Real implementations
// make an offer slow by a value in the creation body (a magic amount, a
// flag), not by a processing time, so a recipe is createOffer with any
// changes — other placeholder values, another body, path, query or headers —
// and what it declares: acceptAnswers 200 or 202 (spec 3.1; the predefined
// time is not shown) and expiresAfterSeconds.
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

export interface OfferRecipes {
  /** Makes the offers of every check that needs "an offer to accept": fast, else the first answering 200, else createOffer as it is. */
  standard: ResolvedRecipe;
  answering200: ResolvedRecipe[];
  answering202: ResolvedRecipe[];
  /** The recipe whose offers expire soon (the expiry checks), if any. */
  expiring?: ResolvedRecipe;
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
  const answering200 = all.filter((r) => r.acceptAnswers === 200);
  const answering202 = all.filter((r) => r.acceptAnswers === 202);
  const plain: ResolvedRecipe = { name: 'createOffer', template: createOffer, values: baseValues(section), declaredBy: 'trading.createOffer' };
  const standard = all.find((r) => r.name === 'fast' && r.acceptAnswers !== 202) ?? answering200[0] ?? plain;
  return { standard, answering200, answering202, expiring: all.find((r) => r.expiresAfterSeconds !== undefined), all };
}

/** A sentence for a profile that sets both forms, else undefined. */
export function recipeConflict(section: TradingProfile | undefined): string | undefined {
  if (!section?.offerRecipes) return undefined;
  const legacy = LEGACY_RECIPE_KEYS.filter((key) => section[key] !== undefined);
  if (!legacy.length) return undefined;
  return `trading.offerRecipes replaces ${legacy.map((k) => `trading.${k}`).join(', ')}: leave ${legacy.length === 1 ? 'it' : 'them'} out, or move each into a recipe (e.g. "fast": {"values": {"processingMs": 20}, "acceptAnswers": 200})`;
}
