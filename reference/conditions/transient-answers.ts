// transient-503 and transient-429: about one answer in twenty of every
// operation is a transient refusal — 503 (an instance restarting behind the
// load balancer) or 429 (a gateway's quota) — with Retry-After: 1 and the
// reference's error body, answered before the operation does anything, so a
// retry is always safe. Deterministic per operation: each route counts its
// requests from a random start phase and refuses every 20th, so one
// operation is never refused twice in a row. With both conditions the two
// kinds take slots half a cycle apart, so still never twice in a row.
import type { ServerResponse } from 'node:http';
import { sendError } from '../http-util.ts';
import { TRANSIENT_PERIOD } from './transient-period.ts';

export const TRANSIENT_RETRY_AFTER_SECONDS = 1;

export type TransientStatus = 503 | 429;

const ANSWERS: Record<TransientStatus, { code: string; message: string }> = {
  503: { code: 'service_unavailable', message: 'the service is briefly unavailable; retry after 1 s' },
  429: { code: 'rate_limited', message: 'too many requests; retry after 1 s' },
};

interface RouteCount {
  phase: number;
  seen: number;
}

export class TransientAnswers {
  private readonly routes = new Map<string, RouteCount>();

  /** `statuses`: the active kinds, each given its slot in the cycle. */
  constructor(
    private readonly statuses: readonly TransientStatus[],
    private readonly random: () => number = Math.random,
  ) {}

  /** The transient status this request of `route` gets, or undefined when the operation goes ahead. */
  next(route: string): TransientStatus | undefined {
    let count = this.routes.get(route);
    if (!count) {
      count = { phase: Math.floor(this.random() * TRANSIENT_PERIOD), seen: 0 };
      this.routes.set(route, count);
    }
    const slot = (count.phase + count.seen++) % TRANSIENT_PERIOD;
    const spacing = TRANSIENT_PERIOD / Math.max(1, this.statuses.length);
    return this.statuses.find((_, i) => slot === i * spacing);
  }

  /** Answers the request transiently when its turn has come; true when it did. */
  answer(route: string, res: ServerResponse): boolean {
    const status = this.next(route);
    if (status === undefined) return false;
    const { code, message } = ANSWERS[status];
    sendError(res, status, code, message, { 'retry-after': String(TRANSIENT_RETRY_AFTER_SECONDS) });
    return true;
  }
}
