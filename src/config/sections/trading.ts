// Profile section "trading": typed view of schemas/profile/trading.schema.json.
import type { OperationTemplate } from './operation.ts';

export interface TradingProfile {
  userId?: string;
  otherUserId?: string;
  createUser?: OperationTemplate;
  createOffer?: OperationTemplate;
  /** Named ways to create an offer (see offer-recipes.ts); replaces fast/slowProcessingMs and expiryValiditySeconds. */
  offerRecipes?: Record<string, OfferRecipe>;
  offerStatus?: OperationTemplate;
  terminalStatuses?: string[];
  processingTimeMs?: number;
  fastProcessingMs?: number;
  slowProcessingMs?: number;
  validitySeconds?: number;
  expiryValiditySeconds?: number;
  expiryMarginMs?: number;
  pollDeadlineMs?: number;
  pollIntervalMs?: number;
  pollMaxIntervalMs?: number;
  concurrency?: number;
}

/** One way to create an offer: createOffer with these changes (schemas/profile/trading.schema.json $defs/offerRecipe). */
export interface OfferRecipe {
  values?: Record<string, unknown>;
  body?: unknown;
  path?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  acceptAnswers?: 200 | 202;
  expiresAfterSeconds?: number;
}
