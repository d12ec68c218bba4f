// The k6 path (README, "Load"): the k6 entry scripts type-check
// against @types/k6 in erasable TypeScript, bundle with nothing external but
// k6's own modules, build valid k6 options, and turn a k6 summary into the
// normalized result. With a real k6 binary (PATH or PTAS_K6) they also run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundleK6Scripts, K6_ENTRY_SCRIPTS } from '../../load/k6-runner/bundle.ts';
import { findK6 } from '../../load/k6-runner/run-k6.ts';
import { k6Args, k6Environment, k6Variables } from '../../load/k6-runner/invocation.ts';
import { ptasLoad } from '../../app/load/run-load.ts';
import type { NormalizedRun } from '../../load/result/normalized.ts';
import { Writable } from 'node:stream';

const root = path.resolve(import.meta.dirname, '../..');

test('the k6 scripts type-check against @types/k6 (tsc -p load/tsconfig.json)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'load', 'tsconfig.json')], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test('the k6 scripts bundle with esbuild: every import resolves, only k6 modules stay external', async () => {
  const result = await bundleK6Scripts();
  const external = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
  assert.ok(external.length > 0);
  assert.deepEqual([...new Set(external)].filter((p) => !/^k6(\/|$)/.test(p)), [], 'only k6 modules may be left to the runtime');
});

/** The entry script bundled with stand-ins for k6's modules and globals, to load its init context and call its exports in Node. */
async function loadWithK6Shim(entry: string, env: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-shim-'));
  const shim = `
    export const calls = [];
    const http = {
      request: (method, url, body, params) => { calls.push({ method, url, body, params }); return { status: 429, body: '{}', timings: { duration: 1.5 }, error_code: 0 }; },
      post: (url, body, params) => { calls.push({ method: 'POST', url, body, params }); return { status: 200, body: JSON.stringify({ access_token: 'tok' }), timings: { duration: 1 } }; },
      setResponseCallback: (cb) => calls.push({ responseCallback: cb }),
      expectedStatuses: (...codes) => ({ expected: codes }),
    };
    export default http;
    export const metrics = [];
    class Metric { constructor(name, isTime) { this.name = name; this.isTime = isTime; } add(value, tags) { metrics.push({ name: this.name, value, tags }); } }
    export class Counter extends Metric {}
    export class Trend extends Metric {}
    export class Rate extends Metric {}
  `;
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    banner: { js: `globalThis.__ENV = ${JSON.stringify(env)}; globalThis.open = (p) => require('node:fs').readFileSync(p, 'utf8');` },
    plugins: [
      {
        name: 'k6-shim',
        setup(b) {
          b.onResolve({ filter: /^k6(\/.*)?$/ }, () => ({ path: 'k6-shim', namespace: 'k6' }));
          b.onLoad({ filter: /.*/, namespace: 'k6' }, () => ({ contents: shim, loader: 'js' }));
        },
      },
    ],
  });
  const file = path.join(dir, 'script.mjs');
  writeFileSync(file, `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);\n${result.outputFiles[0]!.text}\nexport { calls as __calls };\n// A script that records no metric of its own (the body-size probe) bundles no metrics list.\nexport const __metrics = typeof metrics === 'undefined' ? [] : metrics;`);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown> & { __calls: unknown[]; __metrics: Array<{ name: string; value: unknown; tags?: Record<string, string> }> };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('arrival-rate.ts builds k6 options from the scenario definition and records the shared metrics', async () => {
  const script = await loadWithK6Shim(K6_ENTRY_SCRIPTS[0]!, {
    PTAS_BASE_URL: 'http://127.0.0.1:9',
    PTAS_CLIENT_ID: 'client',
    PTAS_CLIENT_SECRET: 'secret-value',
    PTAS_SCENARIO: 'token-rate-breakpoint',
    PTAS_EXPECTED_RPS: '100',
    PTAS_BURST: '20',
    PTAS_MAX_RPS: '400',
  });
  const options = script.options as { scenarios: Record<string, { executor: string; rate: number; startTime: string; tags: Record<string, string> }>; thresholds: Record<string, string[]> };
  const steps = Object.values(options.scenarios);
  assert.deepEqual(steps.map((s) => s.rate), [50, 150, 225, 400, 80]);
  assert.ok(steps.every((s) => s.executor === 'constant-arrival-rate' && s.tags.phase));
  assert.deepEqual(options.thresholds['dropped_iterations'], ['count==0']);
  assert.deepEqual(options.thresholds['ptas_answers{phase:step-02,outcome:429}'], ['count>=0']);
  assert.ok(script.__calls.some((c) => (c as { responseCallback?: unknown }).responseCallback), '429 is marked as an expected status');

  const data = (script.setup as () => { accessToken?: string; startedAt: string })();
  (script.default as (d: unknown) => void)(data);
  const sent = script.__calls.find((c) => (c as { url?: string }).url?.endsWith('/v1/oauth/token')) as { body: string; params: { tags: Record<string, string> } };
  assert.deepEqual(JSON.parse(sent.body), { grant_type: 'client_credentials', client_id: 'client', client_secret: 'secret-value' });
  assert.equal(sent.params.tags.name, 'token');
  assert.deepEqual(script.__metrics.find((m) => m.name === 'ptas_answers')?.tags, { outcome: '429', status: '429' });
  assert.ok(script.__metrics.some((m) => m.name === 'ptas_instance_start'), 'setup() marks when the scenarios start');
  assert.equal(JSON.stringify(script.__calls).includes('ptas-nonce'), false, 'no nonce unless one is given');
});

test('the k6 scripts send the certifier nonce (-e PTAS_NONCE, else http.nonce of the profile) on every request, as ptas does', async () => {
  const env = { PTAS_BASE_URL: 'http://127.0.0.1:9', PTAS_CLIENT_ID: 'client', PTAS_CLIENT_SECRET: 's', PTAS_NONCE: 'nonce-7f3a' };
  const rate = await loadWithK6Shim(K6_ENTRY_SCRIPTS[0]!, { ...env, PTAS_SCENARIO: 'user-details-smoke', PTAS_MAX_RPS: '10', PTAS_MAX_DURATION: '2' });
  const data = (rate.setup as () => unknown)();
  (rate.default as (d: unknown) => void)(data);
  const sent = rate.__calls.filter((c) => (c as { url?: string }).url) as Array<{ url: string; params: { headers: Record<string, string> } }>;
  assert.ok(sent.some((c) => c.url.endsWith('/v1/oauth/token')) && sent.some((c) => c.url.includes('/v2/users/')), 'the set-up token request and the measured one');
  for (const call of sent) assert.equal(call.params.headers['ptas-nonce'], 'nonce-7f3a', call.url);

  const size = await loadWithK6Shim(K6_ENTRY_SCRIPTS[1]!, { ...env, PTAS_MAX_BYTES: '4096' });
  (size.setup as () => unknown)();
  const probes = size.__calls.filter((c) => (c as { url?: string }).url) as Array<{ params: { headers: Record<string, string> } }>;
  assert.ok(probes.length > 0);
  for (const call of probes) assert.equal(call.params.headers['ptas-nonce'], 'nonce-7f3a');

  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-nonce-'));
  try {
    const profile = path.join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify({ http: { nonce: 'from-the-profile' } }));
    const fromProfile = await loadWithK6Shim(K6_ENTRY_SCRIPTS[0]!, { PTAS_BASE_URL: 'http://127.0.0.1:9', PTAS_PROFILE: profile, PTAS_SCENARIO: 'token-smoke', PTAS_MAX_RPS: '10', PTAS_MAX_DURATION: '2' });
    (fromProfile.default as (d: unknown) => void)((fromProfile.setup as () => unknown)());
    const token = fromProfile.__calls.find((c) => (c as { url?: string }).url) as { params: { headers: Record<string, string> } };
    assert.equal(token.params.headers['ptas-nonce'], 'from-the-profile');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ptas load --engine k6 passes the nonce as -e PTAS_NONCE, and the secret only by environment', () => {
  const vars = k6Variables(
    { script: 'x.ts', scenario: 'token-smoke', profile: {}, overrides: { capRps: 10 }, connection: { timeoutMs: 5000, insecure: false, runHeaders: { 'ptas-nonce': 'n-1' } } },
    { profile: '/tmp/p.json', result: '/tmp/r.json' },
  );
  assert.equal(vars.PTAS_NONCE, 'n-1');
  const args = k6Args(['--quiet'], vars, 'x.ts');
  assert.ok(args.includes('PTAS_NONCE=n-1'));
  assert.equal(k6Environment({ credentials: { clientId: 'c', clientSecret: 'the-secret' } }).PTAS_CLIENT_SECRET, 'the-secret');
  assert.equal(args.join(' ').includes('the-secret'), false);
});

/** A k6 summary in the classic handleSummary shape for the given per-phase counts. */
function classicSummary(counts: Record<string, Record<string, number>>) {
  const metrics: Record<string, unknown> = {};
  for (const [phase, byOutcome] of Object.entries(counts)) {
    for (const [outcome, count] of Object.entries(byOutcome)) {
      metrics[`ptas_answers{phase:${phase},outcome:${outcome}}`] = { type: 'counter', contains: 'default', values: { count, rate: count }, thresholds: { 'count>=0': { ok: true } } };
    }
    metrics[`ptas_latency{phase:${phase},outcome:2xx}`] = { type: 'trend', contains: 'time', values: { avg: 2, min: 1, med: 2, max: 9, 'p(90)': 3, 'p(95)': 4, 'p(99)': 8, count: 1 }, thresholds: { 'p(95)>=0': { ok: true } } };
  }
  metrics['dropped_iterations'] = { type: 'counter', contains: 'default', values: { count: 0, rate: 0 } };
  return { metrics, state: { testRunDurationMs: 4200 }, setup_data: { startedAt: '2026-11-22T21:00:00.000Z' } };
}

test('handleSummary() writes the normalized result from either k6 summary shape', async () => {
  const script = await loadWithK6Shim(K6_ENTRY_SCRIPTS[0]!, { PTAS_BASE_URL: 'http://127.0.0.1:9', PTAS_SCENARIO: 'token-rate-breakpoint', PTAS_EXPECTED_RPS: '100', PTAS_BURST: '20', PTAS_MAX_RPS: '400', PTAS_RESULT: 'out.json' });
  const counts = { 'step-01': { '2xx': 25 }, 'step-02': { '2xx': 180, '429': 45 }, 'step-03': { '2xx': 100, '429': 125 } };
  const handle = script.handleSummary as (d: unknown) => Record<string, string>;
  const classic = JSON.parse(handle(classicSummary(counts))['out.json']!) as NormalizedRun;
  assert.equal(classic.format, 'ptas-load-result');
  assert.equal(classic.engine, 'k6');
  assert.deepEqual(classic.phases.slice(0, 3).map((p) => [p.name, p.answers['2xx'], p.answers['429']]), [['step-01', 25, 0], ['step-02', 180, 45], ['step-03', 100, 125]]);
  assert.equal(classic.phases[1]!.latency['2xx']?.p95Ms, 4);
  const asArray = Object.entries(classicSummary(counts).metrics).map(([name, m]) => ({ name, ...(m as object) }));
  const modern = JSON.parse(handle({ results: { metrics: asArray }, setup_data: { startedAt: '2026-11-22T21:00:00.000Z' } })['out.json']!) as NormalizedRun;
  assert.deepEqual(modern.phases.map((p) => p.answers), classic.phases.map((p) => p.answers));
});

test('the k6 scripts run on a real k6 binary', async (t) => {
  const k6 = findK6();
  if (!k6) {
    t.skip('SKIPPED: no k6 binary on PATH and PTAS_K6 not set, so the scripts were type-checked and bundled but not run on k6');
    return;
  }
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-real-'));
  try {
    const rate = await ptasLoad({ scenario: 'token-rate-breakpoint', engine: 'k6', profile: {}, overrides: { maxDurationSec: 12 }, out: path.join(dir, 'rate.json'), output: quiet });
    assert.equal(rate.verdict, 'PASS', rate.reason);
    const size = await ptasLoad({ scenario: 'token-body-size-boundary', engine: 'k6', profile: {}, overrides: {}, out: path.join(dir, 'size.json'), output: quiet });
    assert.equal(size.verdict, 'PASS', size.reason);
    const smoke = await ptasLoad({ scenario: 'user-details-smoke', engine: 'k6', profile: {}, overrides: { maxDurationSec: 3 }, out: path.join(dir, 'smoke.json'), output: quiet });
    assert.equal(smoke.verdict, 'PASS', smoke.reason);
    // Two k6 processes split by --execution-segment, paused until both are up, merged from their --out json points.
    const split = await ptasLoad({ scenario: 'token-rate-breakpoint', engine: 'k6', instances: 2, profile: {}, overrides: { maxDurationSec: 12 }, out: path.join(dir, 'split.json'), output: quiet });
    assert.equal(split.verdict, 'PASS', split.reason);
    const splitResult = JSON.parse(readFileSync(path.join(dir, 'split.json'), 'utf8'));
    assert.deepEqual(splitResult.instances.map((i: { segment: string }) => i.segment), ['0:1/2', '1/2:1']);
    assert.ok(JSON.parse(readFileSync(path.join(dir, 'rate.json'), 'utf8')).result.timeSeries.length > 0, 'the time series came from k6 NDJSON output');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
