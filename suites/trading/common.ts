// What every trading module shares: the accept answers of 3.1, how ids are
// shown in reasons, the offer a check created, and the set-up failure that
// makes a check ERROR rather than FAIL. Kept apart from support.ts so the
// offer-status module (status.ts) can use it without an import cycle.
import type { HttpResponse } from '../../src/http/client.ts';
import { PtasError } from '../../src/errors.ts';

/** 200 with the trade, or 202 while processing (3.1). */
export const ACCEPTED = [200, 202] as const;

export const isAccepted = (status: number) => status === 200 || status === 202;

/** "1f2e3d4c…", so reasons stay one line. */
export const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

/** Fails the set-up, not the implementation: the check could not reach the state it tests (verdict ERROR). */
export class SetupError extends PtasError {
  readonly code = 'setup';
  override name = 'SetupError';
}

export interface CreatedOffer {
  offerId: string;
  userId: string;
  response: HttpResponse;
}

/** An access token, or the suite's own (src/http/outgoing.ts BearerSource): read as each request is sent, so a check that waits minutes never sends one that ran out. */
export type { Bearer } from '../../src/http/outgoing.ts';
