// The judgment of OFFER-RATE-LIMITED-NOT-EXECUTED from what the load stage
// read back (accept-probes.ts): the offers whose accept was answered 429, as
// read back, and the control offer that shows what an executed offer looks
// like (accept-execution.ts). Pure: the live stage and `ptas rejudge`
// (load/stage/probe-judgment.ts) make it from the same record.
import type { ProbeOutcome } from './results.ts';

export interface ReadBack {
  offerId: string;
  createdStatus?: unknown;
  status?: unknown;
  tradeId?: unknown;
  error?: string;
}

/** The control offer: created, accepted normally, polled to its terminal status. */
export interface Control {
  offerId?: string;
  /** The status of the offer before anyone accepted it (the create answer's, else read back). */
  createdStatus?: unknown;
  /** The status of the bystander offer, never accepted, once the control was terminal. */
  bystanderStatus?: unknown;
  acceptStatus?: number;
  /** The last status read, and whether it was terminal (or showed the trade id). */
  status?: unknown;
  tradeId?: unknown;
  reached: boolean;
  elapsedMs?: number;
  /** Why the control could not show what an executed offer looks like. */
  problem?: string;
}

export type ExecutionSign = { kind: 'trade-id' } | { kind: 'status'; status: string } | { kind: 'none'; reason: string };

export const present = (v: unknown) => (typeof v === 'string' && v !== '') || typeof v === 'number';

/** What shows an execution: the trade id, else the control's terminal status where it differs from an unaccepted offer's. */
export function executionSign(control: Control, extractsTradeId: boolean): ExecutionSign {
  // The control confirms the trade id shows execution; without a control the profile's declaration of it stands.
  if (extractsTradeId && (!control.reached || present(control.tradeId))) return { kind: 'trade-id' };
  if (!control.reached) return { kind: 'none', reason: control.problem ?? `the control offer did not reach a terminal status (last ${JSON.stringify(control.status)})` };
  if (typeof control.status !== 'string') return { kind: 'none', reason: 'the control offer\'s status could not be read' };
  if (control.status === control.createdStatus) {
    return { kind: 'none', reason: `an accepted offer ends "${control.status}", the status an offer has before anyone accepts it` };
  }
  if (control.status === control.bystanderStatus) {
    return { kind: 'none', reason: `an accepted offer ends "${control.status}", as does an offer nobody accepted (the bystander offer)` };
  }
  return { kind: 'status', status: control.status };
}

/** Did this read-back show an execution? undefined when it could not be read. */
export function executed(read: ReadBack, sign: ExecutionSign): boolean | undefined {
  if (read.error !== undefined) return undefined;
  if (sign.kind === 'trade-id') return present(read.tradeId);
  if (sign.kind === 'status') return read.status === sign.status;
  return undefined;
}

/** How the sign reads in a reason. */
export function describeSign(sign: ExecutionSign): string {
  if (sign.kind === 'trade-id') return 'a trade id in the offer status (trading.offerStatus.extract.tradeId)';
  if (sign.kind === 'status') return `status "${sign.status}", which the control offer reached when it was accepted`;
  return sign.reason;
}

/** Spec 4.4 rule 3: an offer the platform processed is answered 200 or 202, so an accept answered 429 must not have executed it. */
const EXECUTED_SENTENCE = 'SPEC-4-4-RULE-3';

/** What the check read back: how many accepts the staircase saw refused 429, the offers read back, and the control offer. */
export interface NotExecutedMeasurements {
  kind: 'accept-not-executed';
  /** Accepts answered 429 whose offers were captured to be read back. */
  captured: number;
  reads: ReadBack[];
  control: Control;
  /** Whether the profile extracts a trade id from the offer status (trading.offerStatus.extract.tradeId). */
  extractsTradeId: boolean;
}

export function notExecutedOutcome(measured: NotExecutedMeasurements): Omit<ProbeOutcome, 'evidence' | 'timeline'> {
  const { captured, reads } = measured;
  if (!captured) return { verdict: 'INCONCLUSIVE', reason: 'no accept was answered 429 during the staircase, so no refused offer could be read back' };
  const sign = executionSign(measured.control, measured.extractsTradeId);
  const shown = (r: ReadBack) => ({ offerId: r.offerId, status: r.status, tradeId: r.tradeId });
  const unread = reads.filter((r) => r.error !== undefined);
  if (unread.length === reads.length) return { verdict: 'ERROR', reason: `no refused offer could be read back: ${unread[0]?.error ?? 'no status'}` };
  const statuses = [...new Set(reads.filter((r) => r.error === undefined).map((r) => JSON.stringify(r.status)))].join(', ');
  if (sign.kind === 'none') {
    return { verdict: 'REVIEW', reason: `offers whose accept was answered 429 read back with status ${statuses}, but execution cannot be told apart: ${sign.reason}`, details: { readBack: reads.map(shown) } };
  }
  const done = reads.filter((r) => executed(r, sign));
  if (done.length) {
    return {
      verdict: 'FAIL',
      on: EXECUTED_SENTENCE,
      reason: `${done.length} of ${reads.length} offers whose accept was answered 429 were executed anyway: read back, they show ${describeSign(sign)}`,
      details: { expected: `no execution: ${sign.kind === 'trade-id' ? 'no trade id' : `a status other than "${sign.status}"`}`, actual: done.map(shown) },
    };
  }
  return {
    verdict: 'PASS',
    reason: `${reads.length - unread.length} offers refused with 429 read back unexecuted (status ${statuses}; executed would show ${describeSign(sign)})`,
    findings: unread.length ? [{ level: 'INFO', message: `${unread.length} refused offers could not be read back` }] : [],
  };
}
