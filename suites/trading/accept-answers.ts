// Judgments of what one accept answered (spec 4.4, 3.1, 1), made of the
// fields of the answer they read — its status, the JSON type of its data,
// whether its body parsed — not of the whole body, so a stored run's answers
// are judged again by the installed suite's version of them
// (src/check/judgments.ts). Each FAIL names the exchange it read and rests on
// its answer: a transient one (503) decides nothing (src/check/outcome.ts).
// The checks: accept.check.ts.
import { defineJudgment } from '../../src/check/judgments.ts';
import { isServerError, isSuccess } from '../../src/check/context.ts';
import { ACCEPTED, isAccepted, shortId } from './common.ts';

/** The JSON type of a value as an input records it; 'absent' where there is none. */
export type JsonKind = 'absent' | 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';

export function jsonKindOf(value: unknown): JsonKind {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonKind;
}

/** The JSON type of an answer body's `data` member ('absent' when the body is no JSON object or has none). */
export const dataKindOf = (json: unknown): JsonKind => jsonKindOf((json as { data?: unknown } | null | undefined)?.data);

export interface AcceptAnswerData {
  offerId: string;
  status: number;
  dataKind: JsonKind;
  exchange: number;
}

/** 3.1's row for 200: "accepted (answer carries the accepted trade)": a 200 whose data is no object (or array) carries no trade. A 202's body is not shown. */
export const acceptedAnswerCarriesTrade = defineJudgment<AcceptAnswerData>('trading.accepted-answer-carries-trade', (input, says) => {
  if (input.status !== 200 || input.dataKind === 'object' || input.dataKind === 'array') return;
  says.fail(`accept of offer ${shortId(input.offerId)} answered 200 without the accepted trade in data`, { exchange: input.exchange }, {
    on: 'SPEC-3-1-ACCEPTED-ROW',
    observed: { kind: 'answer', status: input.status },
  });
});

export interface AcceptAnswerBody {
  offerId: string;
  status: number;
  /** Why the body is no JSON (src/http/json-body.ts); null when it parsed. */
  jsonError: string | null;
  exchange: number;
}

/** 1: every body of the API is JSON. (An empty 202 body is not judged: 4.4 does not show one, and the check applies neither this nor the Content-Type rule to it.) */
export const acceptAnswerIsJson = defineJudgment<AcceptAnswerBody>('trading.accept-answer-is-json', (input, says) => {
  if (input.jsonError === null) return;
  says.fail(`the ${input.status} answer to accept of offer ${shortId(input.offerId)} is not JSON: ${input.jsonError}`, { exchange: input.exchange }, {
    on: 'SPEC-1-JSON',
    observed: { kind: 'answer', status: input.status },
  });
});

export interface AcceptWithExternalId {
  offerId: string;
  externalTransactionId: string;
  /** When the accept was sent, HH:MM:SS (UTC), as the reason points at its evidence. */
  clock: string;
  status: number;
  exchange: number;
}

/** 4.4 lists external_transaction_id among accept's parameters: an accept carrying one is answered as any accept (200 or 202), not refused. */
export const acceptWithExternalTransactionId = defineJudgment<AcceptWithExternalId>('trading.accept-with-external-transaction-id', (input, says) => {
  if (isAccepted(input.status)) return;
  says.fail(
    `accept of offer ${shortId(input.offerId)} with external_transaction_id=${input.externalTransactionId} at ${input.clock} was refused: ${input.status}`,
    { expected: [...ACCEPTED], actual: input.status, exchange: input.exchange },
    { observed: { kind: 'answer', status: input.status } },
  );
});

export interface ExternalIdReported {
  /** The external_transaction_id sent with the accept. */
  sent: string;
  /** What the offer status reports (trading.offerStatus.extract.externalTransactionId); absent when it reports nothing. */
  reported?: unknown;
}

/** What external_transaction_id means is not shown (4.4): whether the status kept it is noted, or left for a human to look at — never a verdict. */
export const externalTransactionIdReported = defineJudgment<ExternalIdReported>('trading.external-transaction-id-reported', (input, says) => {
  if (input.reported === input.sent) return says.note('the offer status reports the external_transaction_id sent with the accept');
  says.review(`the offer status reports external_transaction_id ${JSON.stringify(input.reported)}, not the ${input.sent} sent with the accept`);
});

export interface AcceptWithBody {
  offerId: string;
  clock: string;
  status: number;
  exchange: number;
}

/** 4.4 shows no request body: ignoring one and refusing one are both the implementation's choice (REVIEW); breaking on one (5xx) is not. */
export const acceptWithBody = defineJudgment<AcceptWithBody>('trading.accept-with-body', (input, says) => {
  const what = `accept at ${input.clock} of the newest offer ${shortId(input.offerId)} with the body {}`;
  if (isServerError(input.status)) {
    return says.fail(
      `${what} caused a server error: ${input.status}`,
      { expected: 'an answer of 4.4 (200/202, or a 4xx refusal)', actual: input.status, exchange: input.exchange },
      { observed: { kind: 'answer', status: input.status } },
    );
  }
  if (isSuccess(input.status)) says.review(`${what} answered ${input.status}: the body was ignored (4.4 shows none)`, { status: input.status });
  else says.review(`${what} was answered ${input.status}: the implementation refuses a body 4.4 does not show (accepts without one work: trading.accept-newest-offer)`, { status: input.status });
});
