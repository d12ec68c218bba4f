// latency: every answer reaches the client 50 to 250 ms (150 ± 100, uniform)
// later than the reference wrote it, as across a WAN and a load balancer.
// The delay holds the answer itself, not the request: the operation has done
// its work (an offer accepted, a token issued) when the delay starts, as it
// has on a real server whose answer is still on its way.
import type { ServerResponse } from 'node:http';

export const LATENCY_MIN_MS = 50;
export const LATENCY_MAX_MS = 250;

/** One answer's delay, uniform in [LATENCY_MIN_MS, LATENCY_MAX_MS]. */
export function answerDelayMs(random: () => number = Math.random): number {
  return LATENCY_MIN_MS + random() * (LATENCY_MAX_MS - LATENCY_MIN_MS);
}

/**
 * Holds the response's end for `delayMs`. Node sends nothing of an answer —
 * status line and headers included — before its first body write or its end,
 * and every answer of the reference is written with one end(), so holding
 * end() holds the whole answer.
 */
export function delayAnswer(res: ServerResponse, delayMs: number): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let held = false;
  res.end = ((...args: unknown[]) => {
    if (held) return res;
    held = true;
    setTimeout(() => {
      // The client may have gone meanwhile; there is nobody to answer then.
      if (!res.destroyed) end(...args);
    }, delayMs).unref();
    return res;
  }) as ServerResponse['end'];
}
