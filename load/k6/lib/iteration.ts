// One iteration of a scenario on k6: the requests of the template in order,
// each measured one recorded in the shared metrics (load/scenarios/metrics.ts)
// under the tags k6 adds for the scenario (phase, role, offered).
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import { ANSWERS, FAILED, LATENCY, expectedOutcomes, outcomeOf } from '../../scenarios/metrics.ts';
import { type Variables } from '../../../src/template.ts';
import { extractVariables, fillRequest } from '../../scenarios/request.ts';
import type { RequestTemplate } from '../../scenarios/types.ts';

const answers = new Counter(ANSWERS);
const latency = new Trend(LATENCY, true);
const failed = new Rate(FAILED);

export interface IterationContext {
  baseUrl: string;
  iteration: RequestTemplate[];
  variables: Variables;
  timeout: string;
  rateLimitExpected: boolean;
}

export function runIteration(context: IterationContext): void {
  const expected = expectedOutcomes(context.rateLimitExpected);
  let values = context.variables;
  for (const template of context.iteration) {
    const request = fillRequest(template, values);
    const res = http.request(request.method, context.baseUrl + request.pathAndQuery, request.body ?? null, {
      headers: request.headers,
      timeout: context.timeout,
      tags: { name: template.name },
    });
    if (template.setup) {
      if (res.status < 200 || res.status >= 300) return;
    } else {
      const outcome = outcomeOf(res.status);
      answers.add(1, { outcome });
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

/** k6's setup(): an access token once for the whole run, when the scenario needs one. */
export function obtainAccessToken(baseUrl: string, clientId: string | undefined, clientSecret: string | undefined, timeout: string): string {
  const res = http.post(`${baseUrl}/v1/oauth/token`, JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }), {
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    timeout,
    tags: { name: 'setup-token' },
  });
  const token = res.status === 200 && typeof res.body === 'string' ? (JSON.parse(res.body) as { access_token?: unknown }).access_token : undefined;
  if (typeof token !== 'string') throw new Error(`setup: the token endpoint answered ${res.status} without an access_token`);
  return token;
}
