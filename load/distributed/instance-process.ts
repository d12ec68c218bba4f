// One embedded-engine instance of a distributed run, in a process of its
// own (as a k6 instance is): it prepares (the target's connection, an access
// token when the scenario needs one), says it is ready, waits for the
// launcher's common start time, runs its execution segment of the plan and
// writes its instance result — latency as HDR histograms — for the merge.
//
//   PTAS_CLIENT_SECRET=… node --import tsx load/distributed/instance-process.ts SPEC.json
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { connectionOf, socketTarget } from '../../src/http/connection.ts';
import { runEngine, type AnswerSample } from '../engine/engine.ts';
import { profileVariables } from '../scenarios/params.ts';
import { loadTokenSource } from '../token-source.ts';
import { arrivalSegment } from './arrivals.ts';
import type { InstanceRun } from './compatible.ts';
import type { InstanceMessage, InstanceSpec } from './instance-spec.ts';

const say = (message: InstanceMessage) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** The launcher's start time (ms since the epoch); rejects when it hangs up first. */
function startTime(): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      const message = JSON.parse(line) as InstanceMessage;
      if (message.event === 'start') resolve(message.atMs);
    });
    lines.on('close', () => reject(new Error('the launcher went away before the start')));
  });
}

async function main(specFile: string): Promise<void> {
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as InstanceSpec;
  const profile: ResolvedProfile = { ...spec.profile, credentials: { ...spec.profile.credentials, clientSecret: process.env.PTAS_CLIENT_SECRET ?? '' } };
  const connection = connectionOf(profile);
  const variables = { ...profileVariables(spec.scenario.operation, profile) };
  // The suite's own token, renewed as the run goes (a run may outlast its lifetime); closed with the process.
  const tokens = spec.scenario.needs.accessToken ? await loadTokenSource(profile, connection) : undefined;
  // The run's in-flight bound, shared as the arrivals are: this instance keeps its part of it.
  const share = arrivalSegment(spec.info.segment, spec.info.sequence).share;
  const raw: AnswerSample[] = [];
  const starting = startTime();
  say({ event: 'ready' });
  const atMs = await starting;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, atMs - Date.now())));
  const run = await runEngine({
    ...socketTarget(connection),
    scenario: spec.scenario,
    variables,
    ...(tokens ? { accessToken: tokens.source } : {}),
    rateLimitExpected: spec.info.kind === 'rate-breakpoint',
    maxInFlight: spec.maxInFlight === undefined ? undefined : Math.max(1, Math.ceil(spec.maxInFlight * share)),
    segment: { segment: spec.info.segment, sequence: spec.info.sequence },
    keepHistograms: true,
    ...(spec.info.kind === 'rate-breakpoint' ? { timelineResolutionMs: 10 } : {}),
    ...(spec.rawSamplesPath ? { onAnswer: (s: AnswerSample) => void raw.push(s) } : {}),
  });
  // Judged on the merged run only: one instance's share says nothing about the whole.
  const result: InstanceRun = { ...run, thresholds: [], instance: spec.info };
  await tokens?.close();
  writeFileSync(spec.resultPath, JSON.stringify(result));
  if (spec.rawSamplesPath) writeFileSync(spec.rawSamplesPath, raw.map((s) => JSON.stringify(s)).join('\n') + '\n');
  say({ event: 'done' });
}

main(process.argv[2]!).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`ptas load instance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
