// One iteration of a scenario on k6: the requests of the template in order,
// each measured one recorded in the shared metrics (load/scenarios/metrics.ts)
// under the tags k6 adds for the scenario (phase, role, offered). An answer
// also carries its status (and a transport failure k6's error code), so an
// instance's result built from its --out json points
// (load/k6-runner/points-instance.ts) knows the codes, as the embedded engine does.
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import { ANSWERS, FAILED, INSTANCE_START, LATENCY, expectedOutcomes, outcomeOf } from '../../scenarios/metrics.ts';
import { type Variables } from '../../../src/template.ts';
import { extractVariables, fillRequest } from '../../scenarios/request.ts';
import type { RequestTemplate } from '../../scenarios/types.ts';

const answers = new Counter(ANSWERS);
const latency = new Trend(LATENCY, true);
const failed = new Rate(FAILED);
const instanceStart = new Counter(INSTANCE_START);

export interface IterationContext {
  baseUrl: string;
  iteration: RequestTemplate[];
  variables: Variables;
  timeout: string;
  rateLimitExpected: boolean;
  /** Headers every request carries (the certifier's nonce). */
  runHeaders: Record<string, string>;
}

export function runIteration(context: IterationContext): void {
  const expected = expectedOutcomes(context.rateLimitExpected);
  let values = context.variables;
  for (const template of context.iteration) {
    const request = fillRequest(template, values);
    const res = http.request(request.method, context.baseUrl + request.pathAndQuery, request.body ?? null, {
      headers: { ...request.headers, ...context.runHeaders },
      timeout: context.timeout,
      tags: { name: template.name },
    });
    if (template.setup) {
      if (res.status < 200 || res.status >= 300) return;
    } else {
      const outcome = outcomeOf(res.status);
      answers.add(1, res.status === 0 ? { outcome, status: '0', error_code: String(res.error_code) } : { outcome, status: String(res.status) });
      latency.add(res.timings.duration, { outcome });
      failed.add(!expected.includes(outcome));
    }
    if (template.extract && typeof res.body === 'string') {
      try {
        values = { ...values, ...extractVariables(template, JSON.parse(res.body)) };
      } catch {
        return;
      }
    }
  }
}

/**
 * Marks, at the end of setup(), when this instance's scenarios start: the
 * origin its points are read from (load/k6-runner/points-instance.ts), so
 * the instances of a distributed run are put on one clock.
 */
export function markInstanceStart(): void {
  instanceStart.add(1);
}

/** An access token and when to renew it (ms since the epoch): at half its lifetime, as the suite renews its own (src/auth/tokens.ts). */
export interface HeldToken {
  token: string;
  renewAtMs: number;
}

/** A token from client_credentials: in setup() for the run, and again in a VU whose token is due for renewal. */
export function obtainAccessToken(baseUrl: string, clientId: string | undefined, clientSecret: string | undefined, timeout: string, runHeaders: Record<string, string> = {}): HeldToken {
  const res = http.post(`${baseUrl}/v1/oauth/token`, JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }), {
    headers: { 'content-type': 'application/json', accept: 'application/json', ...runHeaders },
    timeout,
    tags: { name: 'setup-token' },
  });
  const body = res.status === 200 && typeof res.body === 'string' ? (JSON.parse(res.body) as { access_token?: unknown; expires_in?: unknown }) : undefined;
  const token = body?.access_token;
  if (typeof token !== 'string') throw new Error(`the token endpoint answered ${res.status} without an access_token`);
  const expiresIn = Number(body?.expires_in);
  const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : 60_000;
  return { token, renewAtMs: Date.now() + lifetimeMs / 2 };
}
