// What a create-offer body (the reference's stand-in for the spec's "Create a
// trade offer", whose request is not shown) asks for: how long the offer's
// processing takes once accepted, and how long it stays valid. Two body
// shapes, one per way real implementations make an offer slow:
//   by default                    {processingMs?, validitySeconds?}: the time itself;
//   offer-slow-by-body-value      {amount, currency, validity_seconds?}, shaped like the
//                                 deployed API's: an amount of SLOW_AMOUNT or more makes
//                                 the offer slow (accept answers 202), a smaller one fast.
import type { ReferenceOptions } from '../options.ts';

export interface OfferSettings {
  processingMs: number;
  validitySeconds: number;
}

const MAX_PROCESSING_MS = 60_000;
const MAX_VALIDITY_SECONDS = 86_400;
/** offer-slow-by-body-value: an amount from this value up makes a slow offer. */
export const SLOW_AMOUNT = 5_000;
/** A positive decimal string, as the spec writes amounts (2: "Decimal string"); no exponent, no sign. */
const DECIMAL_AMOUNT = /^\d{1,15}(\.\d{1,8})?$/;
const CURRENCY_CODE = /^[A-Z]{3}$/;

/** The processing time of a slow offer: well past the predefined time, so accept answers 202 on a busy machine too. */
export function slowProcessingMs(options: Pick<ReferenceOptions, 'acceptPredefinedTimeMs'>): number {
  return Math.max(1_000, 4 * options.acceptPredefinedTimeMs);
}

function validity(value: unknown, name: string): number | string {
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_VALIDITY_SECONDS) {
    return `${name} must be an integer from 1 to ${MAX_VALIDITY_SECONDS}`;
  }
  return value as number;
}

/** The default body: processingMs and validitySeconds, each optional. A string is the parameter error to answer. */
export function settingsFromTimes(body: Record<string, unknown>, options: ReferenceOptions): OfferSettings | string {
  const { processingMs = options.offerProcessingMs, validitySeconds = options.offerValiditySeconds } = body;
  if (!Number.isInteger(processingMs) || (processingMs as number) < 0 || (processingMs as number) > MAX_PROCESSING_MS) {
    return `processingMs must be an integer from 0 to ${MAX_PROCESSING_MS}`;
  }
  const seconds = validity(validitySeconds, 'validitySeconds');
  return typeof seconds === 'string' ? seconds : { processingMs: processingMs as number, validitySeconds: seconds };
}

/**
 * offer-slow-by-body-value: {amount, currency, validity_seconds?}; the
 * amount decides the processing time, processingMs and validitySeconds are
 * ignored. A string is the parameter error to answer.
 */
export function settingsFromAmount(body: Record<string, unknown>, options: ReferenceOptions): OfferSettings | string {
  const { amount, currency, validity_seconds: validitySeconds = options.offerValiditySeconds } = body;
  if (typeof amount !== 'string' || !DECIMAL_AMOUNT.test(amount) || Number(amount) <= 0) {
    return 'amount must be a positive decimal string, e.g. "10.00"';
  }
  if (typeof currency !== 'string' || !CURRENCY_CODE.test(currency)) return 'currency must be an ISO 4217 code, e.g. "EUR"';
  const seconds = validity(validitySeconds, 'validity_seconds');
  if (typeof seconds === 'string') return seconds;
  const slow = Number(amount) >= SLOW_AMOUNT;
  return { processingMs: slow ? slowProcessingMs(options) : options.offerProcessingMs, validitySeconds: seconds };
}
