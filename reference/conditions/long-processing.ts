// long-processing: offers that answer 202 take minutes rather than a second to
// settle, as trades booked through an exchange do, and offers stay valid long
// enough to be accepted after such a wait. Applied where an offer is created
// (reference/routes/trading.ts); the profile adjustment
// (profile-adjustments.ts) declares the matching poll deadline and validity.
import type { ReferenceOptions } from '../options.ts';
import type { OfferSettings } from '../trading/offer-request.ts';

/**
 * How long an offer whose accept answers 202 takes to reach its terminal
 * status: longer than a check's default 60 s time limit (runner/settings.ts),
 * so only the declared poll deadline (which the check's time limit grows by)
 * lets the suite see it settle.
 */
export const LONG_PROCESSING_MS = 65_000;
/** The validity of an offer created without an explicit one. */
export const LONG_PROCESSING_VALIDITY_SECONDS = 120;

/**
 * The options create-offer reads its defaults from: a default validity of at
 * least 120 s. An offer created with an explicit validity keeps it, since the
 * body's value wins over the default (trading/offer-request.ts).
 */
export function longProcessingDefaults(options: ReferenceOptions): ReferenceOptions {
  return { ...options, offerValiditySeconds: Math.max(options.offerValiditySeconds, LONG_PROCESSING_VALIDITY_SECONDS) };
}

/** An offer that outlasts the predefined time (accept answers 202) processes for LONG_PROCESSING_MS; a fast one is left as it is. */
export function withLongProcessing(settings: OfferSettings, options: Pick<ReferenceOptions, 'acceptPredefinedTimeMs'>): OfferSettings {
  if (settings.processingMs <= options.acceptPredefinedTimeMs) return settings;
  return { ...settings, processingMs: LONG_PROCESSING_MS };
}
