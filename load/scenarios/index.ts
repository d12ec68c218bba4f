// Every named load scenario, built from the run's parameters. `ptas load
// --scenario NAME` and the k6 scripts (-e PTAS_SCENARIO=NAME) look them up here.
import { acceptRateBreakpoint, tokenRateBreakpoint } from './breakpoints.ts';
import { tokenBodySizeBoundary, type BodySizeScenario } from './body-size.ts';
import { PROFILE_KINDS, PROFILE_OPERATIONS, profileScenario, profileScenarioName } from './profiles.ts';
import type { LoadScenario, OperationName, ScenarioParams } from './types.ts';

export type AnyScenario = LoadScenario | BodySizeScenario;

export interface ScenarioEntry {
  name: string;
  description: string;
  operation: OperationName;
  kind: AnyScenario['kind'];
  build(params: ScenarioParams, options: { maxInFlight?: number; maxBodyBytes?: number; expectedBodyLimitBytes?: number }): AnyScenario;
}

function entries(): ScenarioEntry[] {
  const list: ScenarioEntry[] = [
    { name: 'token-rate-breakpoint', description: '429 staircase on the token endpoint', operation: 'token', kind: 'rate-breakpoint', build: (p, o) => tokenRateBreakpoint(p, o.maxInFlight) },
    { name: 'accept-rate-breakpoint', description: '429 staircase on accept-offer', operation: 'accept', kind: 'rate-breakpoint', build: (p, o) => acceptRateBreakpoint(p, o.maxInFlight) },
    {
      name: 'token-body-size-boundary',
      description: '413 boundary of the token endpoint, to the byte',
      operation: 'token',
      kind: 'body-size',
      build: (_p, o) => tokenBodySizeBoundary({ maxBytes: o.maxBodyBytes, expectedLimitBytes: o.expectedBodyLimitBytes }),
    },
  ];
  for (const operation of PROFILE_OPERATIONS) {
    for (const kind of PROFILE_KINDS) {
      list.push({
        name: profileScenarioName(kind, operation),
        description: `${kind} profile on ${operation}`,
        operation,
        kind: 'profile',
        build: (p, o) => profileScenario(kind, operation, p, o.maxInFlight),
      });
    }
  }
  return list;
}

export const SCENARIOS: readonly ScenarioEntry[] = entries();

export function scenarioByName(name: string): ScenarioEntry | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

export function isBodySizeScenario(scenario: AnyScenario): scenario is BodySizeScenario {
  return scenario.kind === 'body-size';
}
