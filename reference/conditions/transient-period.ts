// How often transient-503 and transient-429 refuse an operation. Kept apart
// from transient-answers.ts, which writes the refusals with the reference's
// HTTP helpers: the catalogue of conditions (index.ts) describes the cycle,
// and the HTTP layer sits above the catalogue (context.ts holds a
// ConditionSet), so the catalogue must not import it.

/** One refusal in this many requests of an operation. */
export const TRANSIENT_PERIOD = 20;
