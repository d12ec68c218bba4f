// k6 entry script for every arrival-rate scenario of load/scenarios: the
// 429 breakpoints and the load profiles (smoke, average-load, stress, spike,
// soak on token, user-details and accept).
//
//   PTAS_CLIENT_SECRET=… k6 run -e PTAS_SCENARIO=token-rate-breakpoint \
//     -e PTAS_BASE_URL=https://sandbox.example.com -e PTAS_CLIENT_ID=… \
//     [-e PTAS_PROFILE=/abs/path/profile.json] [-e PTAS_MAX_RPS=400 -e PTAS_MAX_DURATION=30] \
//     [-e PTAS_RESULT=result.json] load/k6/arrival-rate.ts
//
// handleSummary() writes the normalized result (load/result/normalized.ts)
// that `ptas load --engine k6` analyses exactly as it does the embedded engine's.
import http from 'k6/http';
import { normalizeK6Summary, type K6SummaryData } from '../result/from-k6-summary.ts';
import { scenarioByName } from '../scenarios/index.ts';
import { TREND_STATS } from '../scenarios/metrics.ts';
import type { LoadScenario } from '../scenarios/types.ts';
import { paramsFor, readConfig, variablesFor } from './lib/config.ts';
import { markInstanceStart, obtainAccessToken, runIteration, type HeldToken } from './lib/iteration.ts';

const config = readConfig();
const entry = scenarioByName(config.scenarioName);
if (!entry || entry.kind === 'body-size') throw new Error(`-e PTAS_SCENARIO=${config.scenarioName}: not an arrival-rate scenario (see \`ptas load --list\`)`);
const scenario = entry.build(paramsFor(config, entry.operation, entry.kind === 'profile' ? Infinity : undefined), { maxInFlight: config.maxInFlight }) as LoadScenario;
const rateLimitExpected = scenario.kind === 'rate-breakpoint';

export const options = {
  scenarios: scenario.scenarios,
  thresholds: scenario.thresholds,
  summaryTrendStats: TREND_STATS,
  insecureSkipTLSVerify: config.insecure,
};

// A breakpoint looks for 429: k6 must not count it as a failed request.
if (rateLimitExpected) http.setResponseCallback(http.expectedStatuses({ min: 200, max: 399 }, 429));

interface SetupData {
  startedAt: string;
  accessToken?: HeldToken;
}

const newToken = (): HeldToken => {
  const credentials = config.profile.credentials;
  return obtainAccessToken(config.baseUrl, credentials?.clientId, credentials?.clientSecret, config.timeout, config.runHeaders);
};

export function setup(): SetupData {
  const accessToken = scenario.needs.accessToken ? newToken() : undefined;
  markInstanceStart();
  return { startedAt: new Date().toISOString(), accessToken };
}

/** This VU's token: setup()'s until it is due for renewal, then one of its own (a run may outlast a token's lifetime). */
let held: HeldToken | undefined;

function accessToken(data: SetupData): string | undefined {
  if (!data.accessToken) return undefined;
  held ??= data.accessToken;
  if (Date.now() >= held.renewAtMs) held = newToken();
  return held.token;
}

export default function (data: SetupData): void {
  runIteration({
    baseUrl: config.baseUrl,
    iteration: scenario.iteration,
    variables: { ...variablesFor(config, entry!.operation), accessToken: accessToken(data) },
    timeout: config.timeout,
    rateLimitExpected,
    runHeaders: config.runHeaders,
  });
}

export function handleSummary(data: K6SummaryData & { setup_data?: SetupData }): Record<string, string> {
  const startedAt = data.setup_data?.startedAt ?? new Date().toISOString();
  const result = normalizeK6Summary(data, scenario, startedAt);
  const lines = result.phases.map(
    (p) => `${p.name.padEnd(16)} ${String(Math.round(p.offeredRps)).padStart(6)}/s  sent ${p.sent}  2xx ${p.answers['2xx']}  429 ${p.answers['429']}  5xx ${p.answers['5xx']}  failed ${p.answers.transport}  dropped ${p.dropped}`,
  );
  const thresholds = result.thresholds.map((t) => `${t.ok ? '✓' : '✗'} ${t.metric} ${t.expression}`);
  return {
    [config.resultPath]: JSON.stringify(result, null, 2),
    stdout: `\nptas ${scenario.name} (k6)\n${lines.join('\n')}\n${thresholds.join('\n')}\nnormalized result: ${config.resultPath}\n`,
  };
}
