// The conditions that sit in front of every operation, composed in one
// place for reference/server.ts: what happens to a request before routing
// (connection-close, latency, proxy-html) and before the operation it routes
// to runs (transient-503, transient-429, gateway-html). Each layer is its own module; with
// no condition active both steps do nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ConditionSet } from './index.ts';
import { closeAfterAnswer } from './connection-close.ts';
import { answerDelayMs, delayAnswer } from './latency.ts';
import { PROXY_MAX_HEADER_BYTES, proxyRefusal, sendProxyPage } from './proxy-html.ts';
import { TransientAnswers, type TransientStatus } from './transient-answers.ts';
import { GatewayPages } from './gateway-html.ts';

export interface ConditionLayers {
  /** The server's header limit, when a condition needs another than the reference's own. */
  maxHeaderSize?: number;
  /** Runs before routing; true when the request was answered (by the proxy) and must go no further. */
  beforeRouting(raw: IncomingMessage, res: ServerResponse): boolean;
  /** Runs once the request is routed to `route` (method and pattern), before the operation; true when it was answered. */
  beforeOperation(route: string, res: ServerResponse): boolean;
}

export function conditionLayers(conditions: ConditionSet): ConditionLayers {
  const closing = conditions.has('connection-close');
  const latency = conditions.has('latency');
  const proxy = conditions.has('proxy-html');
  const statuses: TransientStatus[] = [];
  if (conditions.has('transient-503')) statuses.push(503);
  if (conditions.has('transient-429')) statuses.push(429);
  const transient = statuses.length ? new TransientAnswers(statuses) : undefined;
  const gateway = conditions.has('gateway-html') ? new GatewayPages() : undefined;
  return {
    maxHeaderSize: proxy ? PROXY_MAX_HEADER_BYTES : undefined,
    beforeRouting(raw, res) {
      // The outer layers first: they shape every answer, the proxy's own included.
      if (closing) closeAfterAnswer(res);
      if (latency) delayAnswer(res, answerDelayMs());
      const refusal = proxy ? proxyRefusal(raw.url ?? '/') : undefined;
      if (refusal) sendProxyPage(res, refusal);
      return refusal !== undefined;
    },
    beforeOperation(route, res) {
      return (transient?.answer(route, res) ?? false) || (gateway?.answer(route, res) ?? false);
    },
  };
}
