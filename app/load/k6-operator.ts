// `ptas load k6-operator -s SCENARIO -c PROFILE --parallelism N --out DIR`:
// a distributed run on Kubernetes with k6-operator, written out rather than
// run — ptas needs no access to the cluster. DIR gets the ConfigMap with the
// bundled script, the TestRun manifest, collect.sh (which gathers every
// runner's points and merges them) and the ptas-load-plan.json the merge
// reads the runners' segments from (load/k6-operator/).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../src/config/errors.ts';
import { HTTP_DEFAULTS, type Profile } from '../../src/config/profile.ts';
import { NONCE_HEADER } from '../../src/certify/nonce.ts';
import { evenSplit } from '../../load/distributed/segment.ts';
import { bundleK6Scripts } from '../../load/k6-runner/bundle.ts';
import { shareableProfile } from '../../load/k6-runner/invocation.ts';
import { collectScript, configMap, SCRIPT_KEY, testRun, type OperatorRun } from '../../load/k6-operator/manifests.ts';
import { PLAN_FILE, PLAN_FORMAT, runnerFile, type LoadPlanFile } from '../../load/k6-operator/plan-file.ts';
import { toYaml } from '../../load/k6-operator/yaml.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { scenarioParams, type ParamOverrides } from '../../load/scenarios/params.ts';
import type { LoadScenario } from '../../load/scenarios/types.ts';
import { rateLimitCriteria } from './criteria.ts';
import { sharedInfo } from './distributed.ts';
import { listScenarios } from './run-load.ts';

export interface K6OperatorOptions {
  scenario: string;
  profile: Profile;
  overrides: ParamOverrides;
  maxInFlight?: number;
  parallelism: number;
  outDir: string;
  /** The TestRun's name (default ptas-<scenario>) and namespace (default "default"). */
  name?: string;
  namespace?: string;
  /** The Kubernetes Secret holding the client secret, and its key. */
  secretName?: string;
  secretKey?: string;
  /** The runners' image (k6-operator's default: grafana/k6:latest). */
  image?: string;
  output: NodeJS.WritableStream;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function check(options: K6OperatorOptions, name: string): string {
  const { profile, overrides } = options;
  if (!Number.isInteger(options.parallelism) || options.parallelism < 1) throw new ConfigError(`--parallelism must be a whole number ≥ 1 (got ${options.parallelism})`);
  if (!DNS_LABEL.test(name)) throw new ConfigError(`--name ${name}: a TestRun's name must be a DNS label (lower-case letters, digits and -, at most 63)`);
  if (!profile.baseUrl) throw new ConfigError('k6-operator runs in the cluster: name the target it reaches with --base-url or baseUrl in the profile', '/baseUrl');
  if (!profile.load?.caps && !(overrides.capRps && overrides.maxDurationSec)) {
    throw new ConfigError(`${profile.baseUrl} is load from a cluster: it needs explicit limits (--max-rps and --duration, or load.caps in the profile)`, '/load/caps');
  }
  return profile.baseUrl;
}

async function bundledScript(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-bundle-'));
  try {
    await bundleK6Scripts(dir);
    return readFileSync(path.join(dir, SCRIPT_KEY), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function ptasLoadK6Operator(options: K6OperatorOptions): Promise<{ dir: string; files: string[] }> {
  const entry = scenarioByName(options.scenario);
  if (!entry) throw new ConfigError(`unknown scenario "${options.scenario}"; the scenarios are:\n${listScenarios()}`);
  if (entry.kind === 'body-size') throw new ConfigError(`${entry.name} is one sequential bisection, not load to share: run it from one machine (ptas load -s ${entry.name} --engine k6)`);
  const name = options.name ?? `ptas-${entry.name}`;
  const baseUrl = check(options, name);
  const { profile, overrides } = options;
  const params = scenarioParams(entry.operation, profile, overrides, entry.kind === 'profile' ? Infinity : undefined);
  const scenario = entry.build(params, { maxInFlight: options.maxInFlight ?? profile.load?.caps?.inFlight }) as LoadScenario;
  const run: OperatorRun = {
    name,
    namespace: options.namespace ?? 'default',
    parallelism: options.parallelism,
    scenario: entry.name,
    baseUrl,
    clientId: profile.credentials?.clientId,
    overrides,
    maxInFlight: options.maxInFlight,
    timeoutMs: profile.http?.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    insecure: profile.http?.insecure ?? false,
    runHeaders: profile.http?.nonce ? { [NONCE_HEADER]: profile.http.nonce } : {},
    secret: { name: options.secretName ?? 'ptas-client-secret', key: options.secretKey ?? 'client-secret' },
    ...(options.image ? { image: options.image } : {}),
  };
  const { sequence, segments } = evenSplit(options.parallelism);
  const plan: LoadPlanFile = {
    format: PLAN_FORMAT,
    version: 1,
    scenario: entry.name,
    testRun: { name, namespace: run.namespace },
    info: sharedInfo(scenario, baseUrl, entry.kind === 'rate-breakpoint' ? rateLimitCriteria(entry, profile, overrides, params) : undefined),
    sequence,
    runners: segments.map((segment, i) => ({ index: i + 1, segment, file: runnerFile(i + 1) })),
  };
  const dir = path.resolve(options.outDir);
  mkdirSync(dir, { recursive: true });
  const files = {
    'configmap.yaml': toYaml(configMap(run, await bundledScript(), shareableProfile(profile))),
    'testrun.yaml': toYaml(testRun(run)),
    'collect.sh': collectScript(run),
    [PLAN_FILE]: JSON.stringify(plan, null, 2) + '\n',
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  chmodSync(path.join(dir, 'collect.sh'), 0o755);
  const ns = `-n ${run.namespace}`;
  options.output.write(
    `ptas load k6-operator: ${entry.name} on ${options.parallelism} runner(s) against ${baseUrl}, written to ${dir}\n` +
      `  1. the client secret, once (from PTAS_CLIENT_SECRET, never on a command line):\n` +
      `     printf %s "$PTAS_CLIENT_SECRET" | kubectl ${ns} create secret generic ${run.secret.name} --from-file=${run.secret.key}=/dev/stdin\n` +
      `  2. kubectl ${ns} apply -f ${path.join(dir, 'configmap.yaml')} -f ${path.join(dir, 'testrun.yaml')}\n` +
      `  3. ${path.join(dir, 'collect.sh')}    # waits for the run, collects each runner's points, runs ptas load merge ${dir}\n`,
  );
  return { dir, files: Object.keys(files).map((f) => path.join(dir, f)) };
}
