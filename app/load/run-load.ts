// `ptas load --scenario NAME [--engine embedded|k6] [--instances N]`: one
// scenario of load/scenarios against a target (the bundled reference when no
// base URL is given), with live progress, the shared analysis, and the result
// as JSON. With --instances N, N generators run it split by execution
// segment and their results are merged (distributed.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../src/config/errors.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { secretRedactor, socketTarget } from '../../src/http/connection.ts';
import type { BearerSource } from '../../src/http/outgoing.ts';
import type { Variables } from '../../src/template.ts';
import { assertReachable } from '../run/preflight.ts';
import { resolveTarget, type Target } from '../run/target.ts';
import { runEngine } from '../../load/engine/engine.ts';
import { loadTokenSource } from '../../load/token-source.ts';
import { printLine, progressPrinter } from '../../load/engine/progress.ts';
import { judgeBodySize, type BodySizeJudgement } from '../../load/probes/body-size/analysis.ts';
import { runBodySizeProbe } from '../../load/probes/body-size/run.ts';
import { analyzeRun } from '../../load/probes/analyze.ts';
import { runRateLimitProbe } from '../../load/probes/rate-limit/run.ts';
import { thresholdVerdict } from '../../load/probes/thresholds.ts';
import { findK6, K6_SCRIPTS, runK6, withPoints } from '../../load/k6-runner/run-k6.ts';
import type { NormalizedRun } from '../../load/result/normalized.ts';
import type { BodySizeScenario } from '../../load/scenarios/body-size.ts';
import { scenarioByName, SCENARIOS, type ScenarioEntry } from '../../load/scenarios/index.ts';
import { profileVariables, scenarioParams } from '../../load/scenarios/params.ts';
import type { LoadScenario, ScenarioParams } from '../../load/scenarios/types.ts';
import { isLoopback } from '../../load/stage/settings.ts';
import type { SizeProbeStep } from '../../src/results/load-model.ts';
import { TOKEN_BODY_SIZE_LIMIT } from '../../load/checks.ts';
import { bodySizeRecord, rateLimitRecord } from '../../load/stage/records.ts';
import { checkIdOf, rateLimitCriteria } from './criteria.ts';
import { onDistributed } from './distributed.ts';
import { findingLines, judgedData, loadSection, phaseTable, showJudged } from './present.ts';
import { exitCodeOfVerdict, type LoadCommandOutcome, type Verdict } from './verdict.ts';
import type { LoadCommandOptions } from './options.ts';

export type { LoadCommandOutcome } from './verdict.ts';

export function listScenarios(): string {
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  return SCENARIOS.map((s) => `${s.name.padEnd(width)}  ${s.kind.padEnd(15)}  ${s.description}`).join('\n') + '\n';
}

export async function ptasLoad(options: LoadCommandOptions): Promise<LoadCommandOutcome> {
  const entry = scenarioByName(options.scenario);
  if (!entry) throw new ConfigError(`unknown scenario "${options.scenario}"; the scenarios are:\n${listScenarios()}`);
  const instances = options.instances ?? 1;
  if (!Number.isInteger(instances) || instances < 1) throw new ConfigError(`--instances must be a whole number ≥ 1 (got ${options.instances})`);
  if (instances > 1 && entry.kind === 'body-size') {
    throw new ConfigError(`${entry.name} is one sequential bisection, not load to share: it runs on one instance (drop --instances)`);
  }
  if (options.engine === 'k6' && !findK6()) {
    throw new ConfigError('no k6 binary: install k6 ≥ 0.57 (https://grafana.com/docs/k6/latest/set-up/install-k6/) or set PTAS_K6=/path/to/k6; or use --engine embedded');
  }
  const out = options.output;
  const target = await resolveTarget({ profile: options.profile, faults: options.faults });
  try {
    const { profile, connection } = target;
    if (target.embedded) out.write(`ptas load: started ${target.description}\n`);
    const explicitCaps = profile.load?.caps || (options.overrides.capRps && options.overrides.maxDurationSec);
    if (!isLoopback(profile.baseUrl) && !explicitCaps) {
      throw new ConfigError(`${profile.baseUrl} is not on this machine: load needs explicit limits (--max-rps and --duration, or load.caps in the profile)`, '/load/caps');
    }
    await assertReachable(connection);
    const params = scenarioParams(entry.operation, profile, options.overrides, entry.kind === 'profile' ? Infinity : undefined);
    const scenario = entry.build(params, {
      maxInFlight: options.maxInFlight ?? profile.load?.caps?.inFlight,
      maxBodyBytes: profile.load?.tokenBodyLimit?.maxProbeBytes,
      expectedBodyLimitBytes: profile.load?.tokenBodyLimit?.expectedBytes,
    });
    const engines = instances > 1 ? `${instances} ${options.engine === 'k6' ? 'k6' : 'embedded-engine'} instances` : options.engine === 'k6' ? 'k6' : 'the embedded engine';
    out.write(`ptas load: ${scenario.name} on ${engines} against ${profile.baseUrl} (cap ${params.capRps} req/s, ${params.maxDurationSec === Infinity ? 'full length' : `at most ${params.maxDurationSec} s`})\n`);
    const started = new Date().toISOString();
    const file = path.resolve(options.out ?? path.join('ptas-load', `${scenario.name}.json`));
    const distributed = () =>
      onDistributed({
        scenario: scenario as LoadScenario,
        target,
        criteria: rateLimitCriteria(entry, profile, options.overrides, params),
        instances,
        keepInstancesIn: `${file.replace(/\.json$/, '')}.instances`,
        options,
      });
    const { verdict, data } =
      instances > 1 ? await distributed() : options.engine === 'k6' ? await onK6(entry, scenario, target, options) : await onEmbedded(entry, scenario, target, params, options);
    out.write(`ptas load: ${verdict.verdict} ${verdict.reason}\n`);
    mkdirSync(path.dirname(file), { recursive: true });
    const redactor = secretRedactor(connection);
    writeFileSync(file, JSON.stringify(redactor.redactJson({ scenario: scenario.name, engine: options.engine, target: profile.baseUrl, startedAt: started, params, ...verdict, ...data }), null, 2) + '\n');
    out.write(`ptas load: result written to ${file}\n`);
    return { ...verdict, file, exitCode: exitCodeOfVerdict(verdict) };
  } finally {
    await target.stop();
  }
}

async function onEmbedded(
  entry: ScenarioEntry,
  scenario: LoadScenario | BodySizeScenario,
  { profile, connection }: Pick<Target, 'profile' | 'connection'>,
  params: ScenarioParams,
  options: LoadCommandOptions,
): Promise<{ verdict: Verdict; data: Record<string, unknown> }> {
  const out = options.output;
  const sendTo = socketTarget(connection);
  const variables = { ...profileVariables(entry.operation, profile) };
  if (scenario.kind === 'body-size') {
    const startedAt = new Date();
    const run = await runBodySizeProbe({ ...sendTo, request: scenario.request, variables, maxBytes: scenario.maxBytes, expectedLimitBytes: scenario.expectedLimitBytes, signal: options.signal, log: (l) => out.write(`  ${l}\n`) });
    out.write(`  ${run.requests} requests (budget ${run.requestBudget})\n`);
    const record = bodySizeRecord({ checkId: TOKEN_BODY_SIZE_LIMIT.id, steps: run.steps, judgement: run.judgement, requests: run.requests, requestBudget: run.requestBudget, redact: (t) => t });
    return { verdict: run.judgement, data: { judgement: run.judgement, load: { engine: 'embedded', startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), probes: [record], profiles: [] } } };
  }
  // The suite's own token, renewed as the run goes (a run may outlast its lifetime).
  const tokens = scenario.needs.accessToken ? await loadTokenSource(profile, connection) : undefined;
  try {
    return await onEngine(entry, scenario, { profile, params, options, variables, ...(tokens ? { accessToken: tokens.source } : {}), sendTo });
  } finally {
    await tokens?.close();
  }
}

/** A rate staircase or a load profile on the embedded engine. */
async function onEngine(
  entry: ScenarioEntry,
  scenario: LoadScenario,
  input: { profile: ResolvedProfile; params: ScenarioParams; options: LoadCommandOptions; variables: Variables; accessToken?: BearerSource; sendTo: ReturnType<typeof socketTarget> },
): Promise<{ verdict: Verdict; data: Record<string, unknown> }> {
  const { profile, params, options, variables, sendTo } = input;
  const { capRps, expectedRps } = params;
  const out = options.output;
  const token = input.accessToken ? { accessToken: input.accessToken } : {};
  const progress = progressPrinter(out, `ptas load: ${scenario.name}`);
  if (scenario.kind === 'rate-breakpoint') {
    // Planned again for the answer time a pilot observes (a slow endpoint's steps last longer; load/probes/rate-limit/pilot.ts).
    const planFor = (latencyMs?: number) => entry.build({ ...params, latencyMs }, { maxInFlight: options.maxInFlight ?? profile.load?.caps?.inFlight }) as LoadScenario;
    const { run, analysis } = await runRateLimitProbe({
      ...sendTo,
      scenario: { planFor, declaredLatencyMs: entry.operation === 'accept' ? profile.trading?.processingTimeMs : undefined },
      variables,
      ...token,
      criteria: rateLimitCriteria(entry, profile, options.overrides, params),
      loadBudgetSec: params.maxDurationSec,
      maxInFlight: options.maxInFlight,
      signal: options.signal,
      onProgress: progress.onProgress,
      log: (line) => {
        progress.done();
        printLine(out, `  ${line}`);
      },
    });
    progress.done();
    out.write(`${phaseTable(run)}\n${findingLines(analysis)}`);
    const record = rateLimitRecord({ checkId: checkIdOf(entry.operation), operation: entry.operation as 'token' | 'accept', run, analysis, capRps, expectedRps, redact: (t) => t });
    return { verdict: analysis, data: { result: run, analysis, load: loadSection(run, [record], []) } };
  }
  const run = await runEngine({ ...sendTo, scenario, variables, ...token, maxInFlight: options.maxInFlight, signal: options.signal, onProgress: progress.onProgress });
  progress.done();
  const judged = thresholdVerdict(run);
  showJudged(out, run, judged);
  return { verdict: judged, data: judgedData(run, judged, entry.operation) };
}

async function onK6(entry: ScenarioEntry, scenario: LoadScenario | BodySizeScenario, { profile, connection }: Pick<Target, 'profile' | 'connection'>, options: LoadCommandOptions): Promise<{ verdict: Verdict; data: Record<string, unknown> }> {
  const binary = findK6()!;
  const startedAt = new Date();
  const k6 = await runK6({
    binary,
    script: scenario.kind === 'body-size' ? K6_SCRIPTS.bodySize : K6_SCRIPTS.arrivalRate,
    scenario: scenario.name,
    profile,
    overrides: options.overrides,
    maxInFlight: options.maxInFlight,
    connection,
    output: options.output,
    signal: options.signal,
  });
  if (scenario.kind === 'body-size') {
    const result = k6.result as { steps: SizeProbeStep[]; maxBytes: number; minBytes: number; expectedLimitBytes?: number; requests: number; requestBudget: number };
    const judgement: BodySizeJudgement = judgeBodySize(result.steps, result);
    const record = bodySizeRecord({ checkId: TOKEN_BODY_SIZE_LIMIT.id, steps: result.steps, judgement, requests: result.requests, requestBudget: result.requestBudget, redact: (t) => t });
    return {
      verdict: judgement,
      data: { judgement, note: 'k6 probes Content-Length framing only; chunked and Expect: 100-continue need --engine embedded', load: { engine: 'k6', startedAt: startedAt.toISOString(), durationMs: Date.now() - startedAt.getTime(), probes: [record], profiles: [] } },
    };
  }
  const run = withPoints(k6.result as NormalizedRun, k6);
  const params = scenarioParams(entry.operation, profile, options.overrides);
  const kind = entry.kind === 'rate-breakpoint' ? 'rate-breakpoint' : 'profile';
  const judged = analyzeRun(run, kind, kind === 'rate-breakpoint' ? rateLimitCriteria(entry, profile, options.overrides, params) : undefined);
  showJudged(options.output, run, judged);
  return { verdict: judged, data: { ...judgedData(run, judged, entry.operation, params), k6ExitCode: k6.exitCode } };
}
