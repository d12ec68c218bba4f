// `ptas load k6-operator` (issue 24): the ConfigMap with the bundled script,
// a TestRun valid against k6-operator's CRD (the relevant part of its
// openAPIV3Schema: test/load/fixtures/k6-operator-testrun.schema.json), the
// client secret only as a secretKeyRef, the nonce sent, and collect.sh; then
// the runners' collected points — simulated: a token bucket answering each
// runner's share of the plan, in k6's point format and tagged instance_id as
// k6-operator tags them — merged by `ptas load merge DIR`, which refuses a
// runner's file that is missing or another runner's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse, parseAllDocuments } from 'yaml';
import { ptasLoadK6Operator, type K6OperatorOptions } from '../../app/load/k6-operator.ts';
import { arrivalSegment } from '../../load/distributed/arrivals.ts';
import { mergeInstances } from '../../load/distributed/merge.ts';
import { readInstances } from '../../load/distributed/read-instances.ts';
import type { AnswerSample } from '../../load/engine/options.ts';
import { arrivalOffsets, startSecOf } from '../../load/engine/schedule.ts';
import { bundleK6Scripts } from '../../load/k6-runner/bundle.ts';
import type { LoadPlanFile } from '../../load/k6-operator/plan-file.ts';
import { analyzeRun } from '../../load/probes/analyze.ts';
import { outcomeOf } from '../../load/scenarios/metrics.ts';
import { k6PointsFile, splitBySegment } from './support/k6-points.ts';

const root = path.resolve(import.meta.dirname, '../..');
const quiet = new Writable({ write: (_c, _e, done) => done() });
const SECRET = 'super-secret-value-8c1f';
const LIMIT = 100;

function options(outDir: string, extra: Partial<K6OperatorOptions> = {}): K6OperatorOptions {
  return {
    scenario: 'token-rate-breakpoint',
    profile: {
      baseUrl: 'https://sandbox.example.com',
      credentials: { clientId: 'partner-client', clientSecret: SECRET },
      http: { nonce: 'nonce-from-the-certifier' },
      load: { tokenRateLimit: { expectedRps: LIMIT, burst: 20 } },
    },
    overrides: { capRps: 300, maxDurationSec: 6 },
    parallelism: 3,
    outDir,
    namespace: 'load',
    output: quiet,
    ...extra,
  };
}

interface TestRunDocument {
  spec: {
    parallelism: number;
    arguments: string;
    script: { configMap: { name: string; file: string } };
    runner: { env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }> };
  };
}

function schemaValidator() {
  // strictTypes off: the CRD's int-or-string quantities put "pattern" beside "anyOf", as Kubernetes' structural schemas do.
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  return ajv.compile(JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'k6-operator-testrun.schema.json'), 'utf8')));
}

test('the TestRun is valid against the CRD, refers to the secret without holding it, and runs the bundled script from the ConfigMap', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-operator-'));
  try {
    await ptasLoadK6Operator(options(dir));
    assert.deepEqual(readdirSync(dir).sort(), ['collect.sh', 'configmap.yaml', 'ptas-load-plan.json', 'testrun.yaml']);
    for (const file of readdirSync(dir)) assert.doesNotMatch(readFileSync(path.join(dir, file), 'utf8'), new RegExp(SECRET), `${file} holds the client secret`);

    const testRun = parse(readFileSync(path.join(dir, 'testrun.yaml'), 'utf8')) as TestRunDocument;
    const validate = schemaValidator();
    assert.ok(validate(testRun), JSON.stringify(validate.errors, null, 2));
    // The schema has teeth: a parallelism as text, or a field the API server would prune, is refused.
    assert.equal(validate({ ...testRun, spec: { ...testRun.spec, parallelism: '3' } }), false);
    assert.equal(validate({ ...testRun, spec: { ...testRun.spec, runner: { ...testRun.spec.runner, envs: [] } } }), false);
    assert.equal(testRun.spec.parallelism, 3);
    assert.match(testRun.spec.arguments, /--out json=-/);
    const env = Object.fromEntries(testRun.spec.runner.env.map((e) => [e.name, e]));
    assert.deepEqual(env.PTAS_CLIENT_SECRET, { name: 'PTAS_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'ptas-client-secret', key: 'client-secret' } } });
    assert.equal(env.PTAS_NONCE?.value, 'nonce-from-the-certifier');
    assert.equal(env.PTAS_SCENARIO?.value, 'token-rate-breakpoint');
    assert.equal(env.PTAS_BASE_URL?.value, 'https://sandbox.example.com');
    assert.equal(env.PTAS_MAX_RPS?.value, '300');

    const [configMap] = parseAllDocuments(readFileSync(path.join(dir, 'configmap.yaml'), 'utf8')).map((d) => d.toJS());
    assert.equal(configMap.kind, 'ConfigMap');
    assert.equal(configMap.metadata.name, testRun.spec.script.configMap.name);
    const bundleDir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-bundle-check-'));
    try {
      await bundleK6Scripts(bundleDir);
      assert.equal(configMap.data[testRun.spec.script.configMap.file], readFileSync(path.join(bundleDir, 'arrival-rate.js'), 'utf8'), 'the script comes back byte for byte');
    } finally {
      rmSync(bundleDir, { recursive: true, force: true });
    }
    assert.equal(JSON.parse(configMap.data['profile.json']).credentials.clientSecret, 'env:PTAS_CLIENT_SECRET');
    assert.equal(env.PTAS_PROFILE?.value, '/test/profile.json', 'where k6-operator mounts the ConfigMap');

    const collect = readFileSync(path.join(dir, 'collect.sh'), 'utf8');
    assert.ok(statSync(path.join(dir, 'collect.sh')).mode & 0o100, 'collect.sh is executable');
    assert.match(collect, /kubectl -n "\$namespace" wait --for=jsonpath='\{\.status\.stage\}'=finished testrun\/ptas-token-rate-breakpoint/);
    assert.match(collect, /logs "job\/ptas-token-rate-breakpoint-\$index" > "\$dir\/runner-\$index\.ndjson"/);
    assert.match(collect, /load merge "\$dir"/);
    assert.equal(spawnSync('sh', ['-n', path.join(dir, 'collect.sh')]).status, 0, 'collect.sh parses as a shell script');

    const plan = JSON.parse(readFileSync(path.join(dir, 'ptas-load-plan.json'), 'utf8')) as LoadPlanFile;
    assert.deepEqual(plan.runners.map((r) => [r.index, r.segment, r.file]), [[1, '0:1/3', 'runner-1.ndjson'], [2, '1/3:2/3', 'runner-2.ndjson'], [3, '2/3:1', 'runner-3.ndjson']]);
    assert.equal(plan.sequence, '0,1/3,2/3,1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('what k6-operator cannot run is refused before anything is written', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-operator-'));
  try {
    await assert.rejects(ptasLoadK6Operator(options(dir, { scenario: 'token-body-size-boundary' })), /sequential bisection/);
    await assert.rejects(ptasLoadK6Operator({ ...options(dir), profile: { credentials: { clientId: 'c', clientSecret: 's' } } }), /--base-url/);
    await assert.rejects(ptasLoadK6Operator({ ...options(dir), overrides: {} }), /needs explicit limits/);
    await assert.rejects(ptasLoadK6Operator(options(dir, { parallelism: 0 })), /--parallelism must be a whole number/);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The plan's arrivals answered by a token bucket of LIMIT/s (burst 20), 1.5 ms each: what the target would have answered. */
function tokenBucketSamples(plan: LoadPlanFile['info']['plan']): AnswerSample[] {
  const arrivals = Object.entries(plan).flatMap(([phase, executor]) => [...arrivalOffsets(executor)].map((o) => ({ phase, ms: (startSecOf(executor) + o) * 1000 })));
  arrivals.sort((a, b) => a.ms - b.ms);
  let tokens = 20;
  let last = 0;
  return arrivals.map(({ phase, ms }) => {
    tokens = Math.min(20, tokens + ((ms - last) / 1000) * LIMIT);
    last = ms;
    const status = tokens >= 1 ? 200 : 429;
    if (status === 200) tokens -= 1;
    return { phase, status, outcome: outcomeOf(status), startMs: ms, endMs: ms + 1.5, latencyUs: 1500 };
  });
}

test('the runners collected beside ptas-load-plan.json merge into one judged run; a missing or swapped runner is refused', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-operator-'));
  try {
    await ptasLoadK6Operator(options(dir));
    const plan = JSON.parse(readFileSync(path.join(dir, 'ptas-load-plan.json'), 'utf8')) as LoadPlanFile;
    const samples = tokenBucketSamples(plan.info.plan);
    const parts = splitBySegment(samples, plan.runners.map((r) => arrivalSegment(r.segment, plan.sequence)));
    const startedAtMs = Date.parse('2026-11-26T05:00:00.000Z');
    for (const [i, runner] of plan.runners.entries()) writeFileSync(path.join(dir, runner.file), k6PointsFile(parts[i]!, { startedAtMs: startedAtMs + i * 3, plan: plan.info.plan, instanceId: runner.index }));

    const merged = mergeInstances(await readInstances([dir]));
    assert.equal(merged.run.engine, 'k6');
    assert.equal(merged.run.phases.reduce((s, p) => s + p.sent, 0), samples.length, 'every arrival counted once');
    assert.deepEqual(merged.run.phases.map((p) => p.statusCounts), merged.run.phases.map((p) => ({ ...(p.answers['2xx'] ? { 200: p.answers['2xx'] } : {}), ...(p.answers['429'] ? { 429: p.answers['429'] } : {}) })));
    const judged = analyzeRun(merged.run, merged.kind, merged.criteria);
    assert.equal(judged.verdict, 'PASS', judged.reason);
    assert.equal(judged.rateLimit?.onsetRps, 150);
    assert.ok(Math.abs(judged.rateLimit!.estimatedLimitRps! - LIMIT) <= 0.05 * LIMIT, judged.reason);

    const cli = spawnSync(process.execPath, [path.join(root, 'bin', 'ptas.js'), 'load', 'merge', dir, '-o', path.join(dir, 'merged.json')], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    assert.equal(cli.status, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /merged 3 instances \(0:1\/3, 1\/3:2\/3, 2\/3:1\)/);
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'merged.json'), 'utf8')).verdict, 'PASS');

    renameSync(path.join(dir, 'runner-2.ndjson'), path.join(dir, 'swap.tmp'));
    renameSync(path.join(dir, 'runner-3.ndjson'), path.join(dir, 'runner-2.ndjson'));
    renameSync(path.join(dir, 'swap.tmp'), path.join(dir, 'runner-3.ndjson'));
    await assert.rejects(readInstances([dir]), /runner-2\.ndjson holds the points of runner 3 \(instance_id\), not of runner 2/);
    rmSync(path.join(dir, 'runner-3.ndjson'));
    const missing = spawnSync(process.execPath, [path.join(root, 'bin', 'ptas.js'), 'load', 'merge', dir], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    assert.equal(missing.status, 2, missing.stdout + missing.stderr);
    assert.match(missing.stderr, /runner-3\.ndjson \(runner 3, segment 2\/3:1\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
