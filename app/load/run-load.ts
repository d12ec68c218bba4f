// `ptas load --scenario NAME [--engine embedded|k6]`: one scenario of
// load/scenarios against a target (the bundled reference when no base URL
// is given), with live progress, the shared analysis, and the result as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { issuePair } from '../../src/auth/tokens.ts';
import { ConfigError } from '../../src/config/errors.ts';
import type { Profile, ResolvedProfile } from '../../src/config/profile.ts';
import { EXIT } from '../../src/exit-codes.ts';
import { createTransport, HttpClient } from '../../src/http/client.ts';
import { secretRedactor, socketTarget, type Connection } from '../../src/http/connection.ts';
import { Redactor } from '../../src/http/redact.ts';
import { assertReachable } from '../run/preflight.ts';
import { resolveTarget, type Target } from '../run/target.ts';
import { runEngine } from '../../load/engine/engine.ts';
import { printLine, progressPrinter } from '../../load/engine/progress.ts';
import { judgeBodySize, type BodySizeJudgement } from '../../load/probes/body-size/analysis.ts';
import { runBodySizeProbe } from '../../load/probes/body-size/run.ts';
import { analyzeRateLimit, type RateLimitAnalysis } from '../../load/probes/rate-limit/analysis.ts';
import { runRateLimitProbe } from '../../load/probes/rate-limit/run.ts';
import { findK6, K6_SCRIPTS, runK6, withPoints } from '../../load/k6-runner/run-k6.ts';
import type { NormalizedRun } from '../../load/result/normalized.ts';
import type { BodySizeScenario } from '../../load/scenarios/body-size.ts';
import { scenarioByName, SCENARIOS, type ScenarioEntry } from '../../load/scenarios/index.ts';
import { profileVariables, scenarioParams, type ParamOverrides } from '../../load/scenarios/params.ts';
import type { LoadScenario } from '../../load/scenarios/types.ts';
import { isLoopback } from '../../load/stage/settings.ts';
import type { LoadSection, ProfileRun, RateLimitProbe, SizeProbeStep } from '../../src/results/load-model.ts';
import { ACCEPT_RATE_LIMIT, TOKEN_BODY_SIZE_LIMIT, TOKEN_RATE_LIMIT } from '../../load/checks.ts';
import { bodySizeRecord, profileRunRecord, rateLimitRecord } from '../../load/stage/records.ts';

export interface LoadCommandOptions {
  scenario: string;
  engine: 'embedded' | 'k6';
  /** From file, environment and flags; without baseUrl the bundled reference is started. */
  profile: Profile;
  faults?: string[];
  overrides: ParamOverrides;
  maxInFlight?: number;
  /** JSON file for the result (default ptas-load/<scenario>.json). */
  out?: string;
  output: NodeJS.WritableStream;
  signal?: AbortSignal;
}

export interface LoadCommandOutcome {
  exitCode: number;
  verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE';
  reason: string;
  file: string;
}

type Verdict = { verdict: 'PASS' | 'FAIL' | 'INCONCLUSIVE'; reason: string };

export function listScenarios(): string {
  const width = Math.max(...SCENARIOS.map((s) => s.name.length));
  return SCENARIOS.map((s) => `${s.name.padEnd(width)}  ${s.kind.padEnd(15)}  ${s.description}`).join('\n') + '\n';
}

function thresholdVerdict(run: NormalizedRun): Verdict {
  const failed = run.thresholds.filter((t) => !t.ok);
  if (failed.length) return { verdict: 'FAIL', reason: `thresholds crossed: ${failed.map((t) => `${t.metric} ${t.expression}`).join(', ')}` };
  return { verdict: 'PASS', reason: `all ${run.thresholds.length} thresholds held${run.generator.saturated ? ` (note: ${run.generator.reason})` : ''}` };
}

function phaseTable(run: NormalizedRun): string {
  return run.phases
    .map(
      (p) =>
        `  ${p.name.padEnd(18)} ${String(Math.round(p.offeredRps)).padStart(6)}/s × ${p.durationSec}s  sent ${p.sent}  2xx ${p.answers['2xx']}  4xx ${p.answers['4xx']}  429 ${p.answers['429']}  5xx ${p.answers['5xx']}  failed ${p.answers.transport}` +
        `${p.dropped ? `  dropped ${p.dropped}` : ''}${p.latency.all ? `  p95 ${p.latency.all.p95Ms} ms` : ''}`,
    )
    .join('\n');
}

export async function ptasLoad(options: LoadCommandOptions): Promise<LoadCommandOutcome> {
  const entry = scenarioByName(options.scenario);
  if (!entry) throw new ConfigError(`unknown scenario "${options.scenario}"; the scenarios are:\n${listScenarios()}`);
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
    out.write(`ptas load: ${scenario.name} on ${options.engine === 'k6' ? 'k6' : 'the embedded engine'} against ${profile.baseUrl} (cap ${params.capRps} req/s, ${params.maxDurationSec === Infinity ? 'full length' : `at most ${params.maxDurationSec} s`})\n`);
    const started = new Date().toISOString();
    const { verdict, data } =
      options.engine === 'k6' ? await onK6(entry, scenario, target, options) : await onEmbedded(entry, scenario, target, params.capRps, params.expectedRps, options);
    out.write(`ptas load: ${verdict.verdict} ${verdict.reason}\n`);
    const file = path.resolve(options.out ?? path.join('ptas-load', `${scenario.name}.json`));
    mkdirSync(path.dirname(file), { recursive: true });
    const redactor = secretRedactor(connection);
    writeFileSync(file, JSON.stringify(redactor.redactJson({ scenario: scenario.name, engine: options.engine, target: profile.baseUrl, startedAt: started, params, ...verdict, ...data }), null, 2) + '\n');
    out.write(`ptas load: result written to ${file}\n`);
    return { ...verdict, file, exitCode: verdict.verdict === 'FAIL' ? EXIT.NOT_CONFORMANT : EXIT.CONFORMANT };
  } finally {
    await target.stop();
  }
}

async function accessTokenFor(profile: ResolvedProfile, connection: Connection): Promise<string> {
  const transport = createTransport(connection);
  try {
    const http = HttpClient.to(connection, { transport, redactor: new Redactor() });
    return (await issuePair(http, profile, 'access token for the load run')).accessToken;
  } finally {
    await transport.dispatcher.close();
  }
}

async function onEmbedded(
  entry: ScenarioEntry,
  scenario: LoadScenario | BodySizeScenario,
  { profile, connection }: Pick<Target, 'profile' | 'connection'>,
  capRps: number,
  expectedRps: number | undefined,
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
  if (scenario.needs.accessToken) Object.assign(variables, { accessToken: await accessTokenFor(profile, connection) });
  const progress = progressPrinter(out, `ptas load: ${scenario.name}`);
  if (scenario.kind === 'rate-breakpoint') {
    const { run, analysis } = await runRateLimitProbe({
      ...sendTo,
      scenario,
      variables,
      criteria: { capRps, ...documentedLimit(entry, profile, options.overrides, expectedRps), maxServerErrorShare: profile.load?.[probeKey(entry)]?.maxServerErrorShare },
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
    const record = rateLimitRecord({ checkId: checkIdOf(entry), operation: entry.operation as 'token' | 'accept', run, analysis, capRps, expectedRps, redact: (t) => t });
    return { verdict: analysis, data: { result: run, analysis, load: loadSection(run, [record], []) } };
  }
  const run = await runEngine({ ...sendTo, scenario, variables, maxInFlight: options.maxInFlight, signal: options.signal, onProgress: progress.onProgress });
  progress.done();
  out.write(`${phaseTable(run)}\n`);
  return { verdict: thresholdVerdict(run), data: { result: run, load: loadSection(run, [], [profileRunRecord(run, entry.operation)]) } };
}

/** The run in the shape of results.json's load section, so the report's charts can draw it. */
function loadSection(run: NormalizedRun, probes: RateLimitProbe[], profiles: ProfileRun[]): LoadSection {
  return { engine: run.engine, startedAt: run.startedAt, durationMs: run.durationMs, probes, profiles };
}

function probeKey(entry: ScenarioEntry): 'acceptRateLimit' | 'tokenRateLimit' {
  return entry.operation === 'accept' ? 'acceptRateLimit' : 'tokenRateLimit';
}

/** The documented limit and burst, and where they were stated: a "no 429" far above them is a FAIL against that statement. */
function documentedLimit(entry: ScenarioEntry, profile: ResolvedProfile, overrides: ParamOverrides, expectedRps: number | undefined): { expectedRps?: number; expectedRpsKey?: string; burst?: number } {
  if (!expectedRps) return {};
  const key = overrides.expectedRps !== undefined ? '--expected-rps' : `load.${probeKey(entry)}.expectedRps`;
  return { expectedRps, expectedRpsKey: key, burst: overrides.burst ?? profile.load?.[probeKey(entry)]?.burst };
}

function checkIdOf(entry: ScenarioEntry): string {
  return entry.operation === 'accept' ? ACCEPT_RATE_LIMIT.id : TOKEN_RATE_LIMIT.id;
}

function findingLines(analysis: RateLimitAnalysis): string {
  return analysis.findings.map((f) => `  ${f.level}: ${f.message}\n`).join('');
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
  options.output.write(`${phaseTable(run)}\n`);
  if (entry.kind === 'rate-breakpoint') {
    const params = scenarioParams(entry.operation, profile, options.overrides);
    const analysis = analyzeRateLimit(run, { capRps: params.capRps, ...documentedLimit(entry, profile, options.overrides, params.expectedRps) });
    options.output.write(findingLines(analysis));
    const record = rateLimitRecord({ checkId: checkIdOf(entry), operation: entry.operation as 'token' | 'accept', run, analysis, capRps: params.capRps, expectedRps: params.expectedRps, redact: (t) => t });
    return { verdict: analysis, data: { result: run, analysis, load: loadSection(run, [record], []) } };
  }
  return { verdict: thresholdVerdict(run), data: { result: run, k6ExitCode: k6.exitCode, load: loadSection(run, [], [profileRunRecord(run, entry.operation)]) } };
}
