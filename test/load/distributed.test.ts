// `ptas load --instances N` (issue 24): N generators split by execution
// segment, started together, merged by the code of `ptas load merge` and
// judged once — embedded-engine processes here, and k6 processes driven as
// k6-operator drives its runners (--paused, then resumed over k6's REST API),
// with a stand-in for k6 where none is installed (support/fake-k6.ts; the
// real one: k6-scripts.test.ts). The instances' results are kept, and merge
// again into the same result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const ptas = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [path.join(root, 'bin', 'ptas.js'), 'load', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });

type Phase = { name: string; sent: number; answers: Record<string, number> };
const counts = (file: string) => (JSON.parse(readFileSync(file, 'utf8')).result.phases as Phase[]).map((p) => [p.name, p.sent, p.answers]);

test('ptas load --instances 3 runs the staircase on three embedded-engine processes, merges them, and the kept instances merge again to the same result', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-instances-'));
  try {
    const run = ptas(['-s', 'token-rate-breakpoint', '--instances', '3', '--duration', '8', '-o', path.join(dir, 'rate.json')]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /3 embedded instances ready; started together/);
    const result = JSON.parse(readFileSync(path.join(dir, 'rate.json'), 'utf8'));
    assert.equal(result.verdict, 'PASS', result.reason);
    assert.deepEqual(result.instances.map((i: { segment: string }) => i.segment), ['0:1/3', '1/3:2/3', '2/3:1']);
    assert.match(result.reason, /429 from \d+ req\/s on; estimated limit/);
    assert.deepEqual(readdirSync(path.join(dir, 'rate.instances')).sort(), ['instance-1.json', 'instance-2.json', 'instance-3.json']);
    for (const file of readdirSync(path.join(dir, 'rate.instances'))) assert.doesNotMatch(readFileSync(path.join(dir, 'rate.instances', file), 'utf8'), /"client_secret":"ref-/);

    const again = ptas(['merge', path.join(dir, 'rate.instances'), '-o', path.join(dir, 'again.json')]);
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.deepEqual(counts(path.join(dir, 'again.json')), counts(path.join(dir, 'rate.json')));
    assert.equal(JSON.parse(readFileSync(path.join(dir, 'again.json'), 'utf8')).reason, result.reason);

    // Two halves of different runs are not one run.
    const smoke = ptas(['-s', 'token-smoke', '--instances', '2', '--duration', '2', '-o', path.join(dir, 'smoke.json')]);
    // Only its instance files are needed here. A machine that stalls crosses a smoke run's thresholds (one CI run:
    // an arrival started late and dropped, p95 325 ms at 3 req/s), and that is exit 99, not a failure of the run.
    assert.ok(smoke.status === 0 || smoke.status === 99, smoke.stdout + smoke.stderr);
    assert.deepEqual(readdirSync(path.join(dir, 'smoke.instances')).sort(), ['instance-1.json', 'instance-2.json']);
    const mixed = ptas(['merge', path.join(dir, 'rate.instances', 'instance-1.json'), path.join(dir, 'smoke.instances', 'instance-2.json')]);
    assert.equal(mixed.status, 2, mixed.stdout + mixed.stderr);
    assert.match(mixed.stderr, /different scenarios: .*rate\.instances\/instance-1\.json \(token-rate-breakpoint\); .*smoke\.instances\/instance-2\.json \(token-smoke\)/);
    assert.match(mixed.stderr, /segment 1\/3:1\/2 is missing|overlap/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ptas load --engine k6 --instances 2 starts two k6 processes paused with their segments, resumes them together and merges their points', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-instances-'));
  try {
    const log = path.join(dir, 'k6-argv.ndjson');
    const run = ptas(['-s', 'token-rate-breakpoint', '--engine', 'k6', '--instances', '2', '--duration', '8', '-o', path.join(dir, 'rate.json')], {
      PTAS_K6: path.join(root, 'test', 'load', 'support', 'fake-k6.sh'),
      FAKE_K6_LOG: log,
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /2 k6 instances up and paused; resuming them together/);
    // The two processes log as they start, in either order: taken in the order of their instance ids.
    const instanceId = (argv: string[]) => Number(argv[argv.indexOf('--tag') + 1]?.replace('instance_id=', ''));
    const argvs = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]).sort((a, b) => instanceId(a) - instanceId(b));
    assert.deepEqual(argvs.map((a) => a.filter((x) => x.startsWith('--execution-segment')).sort()), [
      ['--execution-segment-sequence=0,1/2,1', '--execution-segment=0:1/2'],
      ['--execution-segment-sequence=0,1/2,1', '--execution-segment=1/2:1'],
    ]);
    for (const [i, a] of argvs.entries()) {
      assert.ok(a.includes('--paused') && a.includes('--address'), 'paused behind its REST API');
      assert.ok(a.some((x) => /^json=.*instance-\d\.ndjson$/.test(x)), 'its points to a file of its own');
      assert.equal(a[a.indexOf('--tag') + 1], `instance_id=${i + 1}`);
      assert.equal(a.join(' ').includes('PTAS_CLIENT_SECRET='), false, 'the secret is not in argv');
    }
    const result = JSON.parse(readFileSync(path.join(dir, 'rate.json'), 'utf8'));
    assert.equal(result.verdict, 'PASS', result.reason);
    assert.equal(result.result.engine, 'k6');
    assert.ok(existsSync(path.join(dir, 'rate.instances', 'instance-2.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the 413 bisection is not split: --instances on it is a usage error', () => {
  const run = ptas(['-s', 'token-body-size-boundary', '--instances', '2']);
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /one sequential bisection/);
});

test('ptas load merge without instance results is a usage error naming the input', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-merge-empty-'));
  try {
    writeFileSync(path.join(dir, 'points.ndjson'), '');
    const run = ptas(['merge', path.join(dir, 'points.ndjson')]);
    assert.equal(run.status, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /points\.ndjson: k6 points say nothing of the segment/);
    const empty = ptas(['merge', dir]);
    assert.equal(empty.status, 2);
    assert.match(empty.stderr, /no instance results/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
