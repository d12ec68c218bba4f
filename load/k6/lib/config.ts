// What a k6 run is told with -e variables (or the environment): the target,
// the scenario, the caps, and optionally an implementation profile file for
// the expectations and the operations the spec does not show. The client
// secret belongs in the environment (PTAS_CLIENT_SECRET), never on the
// command line, where ps would show it. The certifier's nonce (PTAS_NONCE,
// else the profile's http.nonce) goes on every request, as ptas sends it.
import { NONCE_HEADER } from '../../../src/certify/nonce.ts';
import type { Profile } from '../../../src/config/profile.ts';
import { profileVariables, scenarioParams, type ParamOverrides } from '../../scenarios/params.ts';
import type { Variables } from '../../../src/template.ts';
import type { OperationName, ScenarioParams } from '../../scenarios/types.ts';

export interface K6Config {
  baseUrl: string;
  scenarioName: string;
  /** Where handleSummary() writes the normalized result. */
  resultPath: string;
  timeout: string;
  insecure: boolean;
  profile: Profile;
  overrides: ParamOverrides;
  maxInFlight: number;
  /** Headers on every request of the run: the certifier's nonce (ptas-nonce), when given. */
  runHeaders: Record<string, string>;
}

function number(name: string): number | undefined {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`-e ${name}=${raw}: expected a positive number`);
  return value;
}

/** "env:NAME" strings of a profile, resolved from the k6 environment as ptas resolves them from the process environment. */
function resolveEnv(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith('env:')) return __ENV[value.slice(4)];
  if (Array.isArray(value)) return value.map(resolveEnv);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = resolveEnv((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

export function readConfig(): K6Config {
  const profile = (__ENV.PTAS_PROFILE ? resolveEnv(JSON.parse(open(__ENV.PTAS_PROFILE))) : {}) as Profile;
  const baseUrl = __ENV.PTAS_BASE_URL ?? profile.baseUrl;
  if (!baseUrl) throw new Error('set -e PTAS_BASE_URL=https://… (or baseUrl in the -e PTAS_PROFILE file)');
  const clientId = __ENV.PTAS_CLIENT_ID ?? profile.credentials?.clientId;
  const clientSecret = __ENV.PTAS_CLIENT_SECRET ?? profile.credentials?.clientSecret;
  if (clientId && clientSecret) profile.credentials = { clientId, clientSecret };
  const nonce = __ENV.PTAS_NONCE || profile.http?.nonce;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    scenarioName: __ENV.PTAS_SCENARIO ?? 'token-rate-breakpoint',
    resultPath: __ENV.PTAS_RESULT ?? 'ptas-load-result.json',
    timeout: __ENV.PTAS_TIMEOUT ?? '10s',
    insecure: __ENV.PTAS_INSECURE === '1' || __ENV.PTAS_INSECURE === 'true',
    profile,
    overrides: {
      capRps: number('PTAS_MAX_RPS'),
      maxDurationSec: number('PTAS_MAX_DURATION'),
      targetRps: number('PTAS_RATE'),
      expectedRps: number('PTAS_EXPECTED_RPS'),
      burst: number('PTAS_BURST'),
    },
    maxInFlight: number('PTAS_MAX_IN_FLIGHT') ?? 512,
    runHeaders: nonce ? { [NONCE_HEADER]: nonce } : {},
  };
}

export function paramsFor(config: K6Config, operation: OperationName, profileLengthSec?: number): ScenarioParams {
  return scenarioParams(operation, config.profile, config.overrides, profileLengthSec);
}

export function variablesFor(config: K6Config, operation: OperationName): Variables {
  return profileVariables(operation, config.profile);
}
