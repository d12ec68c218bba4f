// What `ptas load k6-operator` writes for a distributed run on Kubernetes:
//   - a ConfigMap holding the bundled k6 script (plain JS, any k6 reads it)
//     and the profile without its secret, mounted by k6-operator at /test;
//   - a k6-operator TestRun (k6.io/v1alpha1): P runners, each given its
//     --execution-segment by the operator, every -e variable of the script
//     as environment, the client secret only as a reference to a Kubernetes
//     Secret (env valueFrom.secretKeyRef, never the value), and
//     `--out json=-` so each runner's points are in its log;
//   - collect.sh: waits for the run to finish, writes each runner's log
//     (kubectl logs job/NAME-N) to runner-N.ndjson and merges them.
import type { Profile } from '../../src/config/profile.ts';
import { NONCE_HEADER } from '../../src/certify/nonce.ts';
import type { ParamOverrides } from '../scenarios/params.ts';
import { PLAN_FILE, runnerFile } from './plan-file.ts';
import type { YamlData } from './yaml.ts';

export const SCRIPT_KEY = 'arrival-rate.js';
export const PROFILE_KEY = 'profile.json';
/** Where k6-operator mounts a ConfigMap script volume. */
export const MOUNT = '/test';

export interface OperatorRun {
  name: string;
  namespace: string;
  parallelism: number;
  scenario: string;
  baseUrl: string;
  clientId?: string;
  overrides: ParamOverrides;
  maxInFlight?: number;
  timeoutMs: number;
  insecure: boolean;
  runHeaders: Record<string, string>;
  /** The Kubernetes Secret (and its key) that holds the client secret. */
  secret: { name: string; key: string };
  image?: string;
}

export function configMap(run: OperatorRun, script: string, profile: Profile): YamlData {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${run.name}-script`, namespace: run.namespace, labels: { 'app.kubernetes.io/managed-by': 'ptas' } },
    data: { [SCRIPT_KEY]: script, [PROFILE_KEY]: `${JSON.stringify(profile, null, 2)}\n` },
  };
}

type EnvVar = { name: string; value: string } | { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } };

function environment(run: OperatorRun): EnvVar[] {
  const values: Record<string, string | number | undefined> = {
    PTAS_SCENARIO: run.scenario,
    PTAS_BASE_URL: run.baseUrl,
    PTAS_CLIENT_ID: run.clientId,
    PTAS_PROFILE: `${MOUNT}/${PROFILE_KEY}`,
    // handleSummary() still writes one runner's summary; the merge reads the points.
    PTAS_RESULT: '/tmp/ptas-load-result.json',
    PTAS_MAX_RPS: run.overrides.capRps,
    PTAS_MAX_DURATION: run.overrides.maxDurationSec,
    PTAS_RATE: run.overrides.targetRps,
    PTAS_EXPECTED_RPS: run.overrides.expectedRps,
    PTAS_BURST: run.overrides.burst,
    PTAS_MAX_IN_FLIGHT: run.maxInFlight,
    PTAS_TIMEOUT: `${run.timeoutMs}ms`,
    PTAS_INSECURE: run.insecure ? '1' : undefined,
    PTAS_NONCE: run.runHeaders[NONCE_HEADER],
    K6_NO_USAGE_REPORT: 'true',
  };
  const env: EnvVar[] = Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ({ name, value: String(value) }));
  env.push({ name: 'PTAS_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: run.secret.name, key: run.secret.key } } });
  return env;
}

export function testRun(run: OperatorRun): YamlData {
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name: run.name, namespace: run.namespace, labels: { 'app.kubernetes.io/managed-by': 'ptas' } },
    spec: {
      parallelism: run.parallelism,
      script: { configMap: { name: `${run.name}-script`, file: SCRIPT_KEY } },
      // Every point to the runner's stdout (k6's json output, "-"): collected with kubectl logs.
      arguments: '--out json=-',
      // On separate nodes, so the runners do not share one machine's CPU.
      separate: run.parallelism > 1,
      runner: { ...(run.image ? { image: run.image } : {}), env: environment(run) },
    },
  };
}

/** The POSIX shell script that collects every runner's points and merges them. */
export function collectScript(run: OperatorRun): string {
  return `#!/bin/sh
# Collects the points of every runner of TestRun ${run.name} (k6-operator) and
# merges them into one result: ptas load merge reads runner-N.ndjson with
# ${PLAN_FILE}, which says each runner's execution segment.
# Needs kubectl with access to namespace ${run.namespace}; run it from anywhere.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
namespace=\${NAMESPACE:-${run.namespace}}
kubectl -n "$namespace" wait --for=jsonpath='{.status.stage}'=finished testrun/${run.name} --timeout=\${TIMEOUT:-30m}
for index in $(seq 1 ${run.parallelism}); do
  # A runner's log is its --out json=- points (and k6's own lines, which the merge skips).
  kubectl -n "$namespace" logs "job/${run.name}-$index" > "$dir/${runnerFile('$index')}"
done
exec \${PTAS:-npx ptas} load merge "$dir" "$@"
`;
}
