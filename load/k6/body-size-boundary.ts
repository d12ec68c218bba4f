// k6 entry script of the 413 boundary probe (token-body-size-boundary):
// bisection on the body size to the exact byte, in setup() so the steps reach
// handleSummary(). k6 cannot stream a request body, so only Content-Length
// framing is probed here; the chunked and Expect: 100-continue variants need
// the embedded engine (`ptas load --scenario token-body-size-boundary`).
//
//   PTAS_CLIENT_SECRET=… k6 run -e PTAS_BASE_URL=… -e PTAS_CLIENT_ID=… \
//     [-e PTAS_MAX_BYTES=1048576] [-e PTAS_RESULT=result.json] load/k6/body-size-boundary.ts
import http from 'k6/http';
import { baseBody, paddedBody, requestBudget, SizeBisection, tokenBodySizeBoundary, utf8Length } from '../scenarios/body-size.ts';
import { fillRequest } from '../scenarios/request.ts';
import { readConfig, variablesFor } from './lib/config.ts';

const config = readConfig();
const scenario = tokenBodySizeBoundary({
  maxBytes: __ENV.PTAS_MAX_BYTES ? Number(__ENV.PTAS_MAX_BYTES) : config.profile.load?.tokenBodyLimit?.maxProbeBytes,
  expectedLimitBytes: config.profile.load?.tokenBodyLimit?.expectedBytes,
});

export const options = {
  scenarios: { 'body-size': { executor: 'per-vu-iterations' as const, vus: 1, iterations: 1, maxDuration: '5m' } },
  insecureSkipTLSVerify: config.insecure,
};

interface Step {
  sizeBytes: number;
  framing: 'content-length';
  outcome: '413' | 'accepted' | 'other-4xx' | '5xx' | 'reset' | 'timeout';
  status?: number;
  durationMs: number;
  purpose: string;
  errorCode?: string;
}

interface BoundaryData {
  format: 'ptas-body-size-result';
  engine: 'k6';
  startedAt: string;
  scenario: string;
  maxBytes: number;
  minBytes: number;
  expectedLimitBytes?: number;
  steps: Step[];
  requests: number;
  requestBudget: number;
}

function outcomeOf(status: number, errorCode: number): Step['outcome'] {
  if (status === 0) return errorCode === 1050 ? 'timeout' : 'reset';
  if (status === 413) return '413';
  if (status >= 500) return '5xx';
  if (status >= 400) return 'other-4xx';
  return 'accepted';
}

export function setup(): BoundaryData {
  const variables = variablesFor(config, 'token');
  const filled = fillRequest(scenario.request, variables);
  const base = baseBody(scenario.request, variables);
  const minBytes = utf8Length(base);
  const steps: Step[] = [];
  const probe = (size: number, purpose: string): boolean => {
    const res = http.request(filled.method, config.baseUrl + filled.pathAndQuery, paddedBody(base, size) ?? base, {
      headers: { ...filled.headers, ...config.runHeaders },
      timeout: config.timeout,
      tags: { name: 'body-size' },
      responseCallback: http.expectedStatuses({ min: 200, max: 499 }),
    });
    const outcome = outcomeOf(res.status, res.error_code);
    steps.push({ sizeBytes: size, framing: 'content-length', outcome, status: res.status || undefined, durationMs: res.timings.duration, purpose, ...(res.status === 0 ? { errorCode: String(res.error_code) } : {}) });
    return outcome !== 'accepted' && outcome !== 'other-4xx';
  };
  if (probe(scenario.maxBytes, 'upper bound') && !probe(minBytes, 'lower bound')) {
    const bisection = new SizeBisection(minBytes, scenario.maxBytes);
    for (let size = bisection.next(); size !== undefined; size = bisection.next()) bisection.record(size, probe(size, 'bisection'));
  }
  return {
    format: 'ptas-body-size-result',
    engine: 'k6',
    startedAt: new Date().toISOString(),
    scenario: scenario.name,
    maxBytes: scenario.maxBytes,
    minBytes,
    expectedLimitBytes: scenario.expectedLimitBytes,
    steps,
    requests: steps.length,
    requestBudget: requestBudget(scenario.maxBytes - minBytes),
  };
}

export default function (): void {
  // The probe is sequential and adaptive: all of it ran in setup().
}

export function handleSummary(data: { setup_data?: BoundaryData }): Record<string, string> {
  const result = data.setup_data;
  if (!result) return { stdout: 'ptas token-body-size-boundary (k6): setup() did not finish, no result\n' };
  const accepted = result.steps.filter((s) => s.outcome === 'accepted' || s.outcome === 'other-4xx').map((s) => s.sizeBytes);
  const largest = accepted.length ? Math.max(...accepted) : undefined;
  return {
    [config.resultPath]: JSON.stringify(result, null, 2),
    stdout: `\nptas ${result.scenario} (k6): ${result.requests} requests (budget ${result.requestBudget}); largest body not refused: ${largest ?? 'none'} bytes\nnormalized result: ${config.resultPath}\n`,
  };
}
