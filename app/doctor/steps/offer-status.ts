// The offer-status operation (trading.offerStatus, not shown by the spec),
// read right after an accept: once after the first 200 (the status must
// already be terminal), and polled after the first 202 until a terminal
// status or trading.pollDeadlineMs (4.4 rule 4), with the poll count bounded.
import type { OperationTemplate } from '../../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../../src/config/sections/trading.ts';
import { callOperation, type OperationResult } from '../../../src/operations.ts';
import { pollUntilTerminal, type PollObservation } from '../../../src/polling.ts';
import { callTemplate, short } from '../call.ts';
import { answerProblem, extractProblem, missingExtract } from '../diagnose.ts';
import { okRow, problemRow, skippedRow, type AcceptedOffer, type DoctorContext } from '../model.ts';

const KEY = 'trading.offerStatus';
/** A doctor run stays short even when a profile allows minutes for processing. */
const MAX_POLL_MS = 30_000;
/** About this many polls fit in the deadline at the longest interval, so the request count stays small. */
const POLLS_AT_MOST_INTERVAL = 6;

interface Observation extends PollObservation {
  result: OperationResult;
  status?: string;
  /** The read itself failed (not the template's success, or no status): polling stops there. */
  failed: boolean;
}

export class OfferStatusReader {
  private readonly done = new Set<200 | 202>();
  private configuredProblemReported = false;

  constructor(
    private readonly ctx: DoctorContext,
    private readonly section: TradingProfile,
  ) {}

  async after(offer: AcceptedOffer): Promise<void> {
    const template = this.section.offerStatus;
    if (!template || this.done.has(offer.acceptStatus)) return;
    this.done.add(offer.acceptStatus);
    if (!template.extract?.status) {
      if (!this.configuredProblemReported) this.ctx.report(problemRow('offer status', `${KEY}.extract.status`, missingExtract(KEY, 'status', 'the offer status')));
      this.configuredProblemReported = true;
      return;
    }
    if (offer.acceptStatus === 200) return this.readAfter200(template, offer);
    return this.pollAfter202(template, offer);
  }

  /** Rows for what was configured but never read. */
  finish(): void {
    if (!this.section.offerStatus) this.ctx.report(skippedRow('offer status', KEY));
    else if (!this.done.size) this.ctx.report(skippedRow('offer status', KEY, 'not run: no offer was accepted'));
  }

  private terminal(status: string | undefined): boolean {
    return status !== undefined && (this.section.terminalStatuses ?? []).includes(status);
  }

  /** The status read, or a PROBLEM row when it cannot be. */
  private statusOf(operation: string, answer: { result: OperationResult; request?: string }): string | undefined {
    const status = answer.result.extracted.status;
    if (typeof status === 'string' && status) return status;
    const diagnosis = extractProblem(KEY, 'status', answer.result.response, this.ctx.http.redactor, 'the offer status', ['status', 'state']);
    this.ctx.report(problemRow(operation, `${KEY}.extract.status`, { request: answer.request, answer: String(answer.result.response.status), ...diagnosis }));
    return undefined;
  }

  private async readAfter200(template: OperationTemplate, offer: AcceptedOffer): Promise<void> {
    const operation = `status after 200 ${offer.recipe}`;
    const answer = await callTemplate(this.ctx, { operation, key: KEY, template, values: { offerId: offer.offerId, userId: offer.userId }, label: 'offer status after a 200 accept' });
    if (!answer) return;
    const status = this.statusOf(operation, answer);
    if (status === undefined) return;
    const terminals = this.section.terminalStatuses;
    if (!terminals?.length) {
      return this.ctx.report(okRow(operation, KEY, answer.request, `${answer.result.response.status} status ${status}; terminal statuses not configured (trading.terminalStatuses)`));
    }
    if (!this.terminal(status)) {
      const problem = `after a 200 accept the offer status is "${status}", which trading.terminalStatuses ${JSON.stringify(terminals)} does not list`;
      const fix = `if "${status}" is the status of an executed offer, add it to trading.terminalStatuses; else point ${KEY}.extract.status at the offer's own status`;
      return this.ctx.report(problemRow(operation, 'trading.terminalStatuses', { request: answer.request, answer: `${answer.result.response.status} status ${status}`, problem, fix }));
    }
    this.ctx.report(okRow(operation, KEY, answer.request, `${answer.result.response.status} status ${status} (terminal)`));
  }

  private async pollAfter202(template: OperationTemplate, offer: AcceptedOffer): Promise<void> {
    const operation = `status after 202 ${offer.recipe}`;
    const configured = this.section.pollDeadlineMs;
    if (!configured || !this.section.terminalStatuses?.length) {
      // Without a deadline or terminal statuses there is nothing to poll for: one read shows the template works.
      const missing = !configured ? 'trading.pollDeadlineMs' : 'trading.terminalStatuses';
      const answer = await callTemplate(this.ctx, { operation, key: KEY, template, values: { offerId: offer.offerId, userId: offer.userId }, label: 'offer status after a 202 accept' });
      const status = answer && this.statusOf(operation, answer);
      if (answer && status) this.ctx.report(okRow(operation, KEY, answer.request, `${answer.result.response.status} status ${status}; not polled: not configured (${missing})`));
      return;
    }
    const values = { offerId: offer.offerId, userId: offer.userId };
    // A template naming a placeholder nothing fills: callTemplate reports it without sending.
    const first = await callTemplate(this.ctx, { operation, key: KEY, template, values, label: 'offer status after a 202 accept, poll 1' });
    if (!first) return;
    if (this.statusOf(operation, first) === undefined) return;
    const deadlineMs = Math.min(configured, MAX_POLL_MS);
    const started = performance.now();
    const poll = async (n: number): Promise<Observation> => {
      const result = n === 1 ? first.result : await callOperation(this.ctx.http, template, values, { bearer: this.ctx.bearer, label: `doctor: offer status after a 202 accept, poll ${n}` });
      const status = typeof result.extracted.status === 'string' ? result.extracted.status : undefined;
      const failed = !result.ok || status === undefined;
      return { result, status, failed, terminal: failed || this.terminal(status), summary: `status ${status}` };
    };
    const outcome = await pollUntilTerminal(
      poll,
      {
        deadlineMs,
        initialIntervalMs: this.section.pollIntervalMs,
        maxIntervalMs: Math.max(this.section.pollMaxIntervalMs ?? 0, deadlineMs / POLLS_AT_MOST_INTERVAL),
      },
      { event: () => undefined },
    );
    const request = `${first.request ?? template.path} ×${outcome.polls}`;
    const last = outcome.last;
    const seconds = `${((performance.now() - started) / 1000).toFixed(1)} s`;
    if (last?.failed) {
      const res = last.result.response;
      const diagnosis = last.result.ok
        ? extractProblem(KEY, 'status', res, this.ctx.http.redactor, 'the offer status', ['status', 'state'])
        : answerProblem(KEY, res, this.ctx.exchanges.requestLine(res), this.ctx.http.redactor, template.expectStatus);
      return this.ctx.report(problemRow(operation, last.result.ok ? `${KEY}.extract.status` : KEY, { request, answer: `${res.status} on poll ${outcome.polls}`, ...diagnosis }));
    }
    if (outcome.reached && last) {
      return this.ctx.report(okRow(operation, KEY, request, `status ${last.status} (terminal) after ${seconds}, ${outcome.polls} polls`));
    }
    const seen = last?.status ?? 'unknown';
    const capped = deadlineMs < configured ? ` (the doctor waits at most ${MAX_POLL_MS / 1000} s)` : '';
    const problem = `after a 202 accept of offer ${short(offer.offerId)} the status was still "${seen}" at the ${deadlineMs} ms deadline${capped}`;
    const fix = `if "${seen}" is final, add it to trading.terminalStatuses; if processing takes longer, raise trading.pollDeadlineMs; otherwise the offer never finishes (the polling check will say so)`;
    this.ctx.report(problemRow(operation, 'trading.terminalStatuses', { request, answer: `status ${seen} ×${outcome.polls}`, problem, fix }));
  }
}
