// The embedded load engine against wrk, on the same endpoint in one run
// (issues 7 and 14): the engine's highest held rate as a share of wrk's.
// Targets: at least 90 % of wrk on the reference's GET /v2/users/{id} (bearer
// checked, a JSON user built per request: a real API operation), at least
// 80 % on a trivial loopback server, where the server is so cheap that the
// comparison measures the clients alone (wrk's C loop against the engine).
//
// wrk is a closed loop (as fast as its 64 connections go); the engine is
// open (arrivals on schedule, never waiting for answers) on the same 64
// connections, with up to 4,096 iterations in flight (k6's maxVUs): an
// arrival finding every connection busy waits for one, its latency counted
// from its due time, so the stalls of a shared 2-core machine cost latency
// rather than dropped arrivals or a storm of new connections.
//
// A target is HELD when, over the whole seconds of a run after its first
// (which includes opening connections), the 2xx answers per second are
// within ±2 % of it and at most 0.1 % of its arrivals were dropped, and
// every answer of the run was a 2xx. The search climbs from well below wrk's rate by ×1.5
// while targets are held, then bisects between the highest held and the
// lowest missed target; a missed target is run once more before it counts
// as missed (the machine is shared: one stall elsewhere must not end the
// search). It never gives up on a start too high: it halves it instead.
// wrk is measured before and after the search; the ratio is against the
// higher figure. The benchmark reports misses and exits 0; it fails only if
// it cannot measure at all.
//
//   npm run bench -- engine-vs-wrk
//   PTAS_BENCH_TRANSPORT=undici npm run bench -- engine-vs-wrk   # the engine's undici fallback, for comparison
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { runEngine } from '../load/engine/engine.ts';
import type { RequestTemplate } from '../load/scenarios/types.ts';
import { REFERENCE_DEFAULTS } from '../reference/options.ts';
import { referenceProfile } from '../reference/profile.ts';
import { spawnReference } from '../app/run/reference-process.ts';
import { startToyServer } from '../test/load/support/toy-server.ts';

const CONNECTIONS = 64;
const WRK_SEC = 5;
const ENGINE_IN_FLIGHT = 4096;
const STEP_SEC = 3;
const HOLD_TOLERANCE = 0.02;
const MAX_DROPPED_SHARE = 0.001;
const CLIMB_FACTOR = 1.5;
/** Bisection stops when the highest held and lowest missed target are this close, or after this many steps. */
const RESOLUTION = 1.03;
const MAX_BISECTIONS = 4;
const LOWEST_TARGET = 100;
/** The search stops at this multiple of wrk's rate (the run stays short; the maximum is then at least that). */
const CAP_SHARE = 1.5;
const TRANSPORT = process.env.PTAS_BENCH_TRANSPORT === 'undici' ? 'undici' : 'auto';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (r: number) => `${(r * 100).toFixed(1)} %`;

interface Endpoint {
  label: string;
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  /** The share of wrk's rate the engine should hold. */
  goal: number;
}

interface Step {
  target: number;
  /** 2xx answers per second, and arrivals dropped, over the whole seconds after the first. */
  achieved: number;
  dropped: number;
  notOk: number;
  p99Ms?: number;
  held: boolean;
}

/** wrk's rate, or undefined (said why) when wrk cannot be run or read. */
function wrkRate(endpoint: Endpoint, seconds: number): number | undefined {
  const headerArgs = Object.entries(endpoint.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  try {
    const out = execFileSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, ...headerArgs, endpoint.baseUrl + endpoint.path], { encoding: 'utf8' });
    const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
    if (!match || /Non-2xx or 3xx responses/.test(out)) throw new Error(`unexpected output:\n${out}`);
    return Number(match[1]);
  } catch (error) {
    console.log(`wrk failed on ${endpoint.label}: ${(error as Error).message}`);
    return undefined;
  }
}

async function engineAt(endpoint: Endpoint, target: number): Promise<Step> {
  const request: RequestTemplate = { name: 'get', method: 'GET', path: endpoint.path, headers: endpoint.headers };
  const run = await runEngine({
    baseUrl: endpoint.baseUrl,
    variables: {},
    maxInFlight: ENGINE_IN_FLIGHT,
    maxConnections: CONNECTIONS,
    transport: TRANSPORT,
    scenario: {
      name: 'bench',
      iteration: [request],
      thresholds: {},
      scenarios: { main: { executor: 'constant-arrival-rate', rate: target, duration: `${STEP_SEC}s`, preAllocatedVUs: CONNECTIONS, maxVUs: ENGINE_IN_FLIGHT } },
    },
  });
  const phase = run.phases[0]!;
  const steady = run.timeSeries.filter((b) => b.tSec >= 1 && b.tSec < STEP_SEC);
  const achieved = steady.reduce((sum, b) => sum + b.status2xx, 0) / Math.max(1, steady.length);
  const offered = steady.reduce((sum, b) => sum + b.offered, 0);
  const dropped = steady.reduce((sum, b) => sum + b.offered - b.sent, 0);
  const notOk = phase.sent - phase.answers['2xx'];
  const held = Math.abs(achieved / target - 1) <= HOLD_TOLERANCE && dropped <= MAX_DROPPED_SHARE * offered && notOk === 0;
  return { target, achieved, dropped, notOk, p99Ms: phase.latency['2xx']?.p99Ms, held };
}

/** One target, run again once if missed; prints each run. */
async function attempt(endpoint: Endpoint, target: number, steps: Step[]): Promise<boolean> {
  for (let run = 0; run < 2; run++) {
    const step = await engineAt(endpoint, Math.round(target));
    steps.push(step);
    const off = step.achieved / step.target - 1;
    console.log(
      `  target ${fmt(step.target).padStart(7)}/s  achieved ${fmt(step.achieved).padStart(7)}/s (${off >= 0 ? '+' : ''}${(off * 100).toFixed(1)} %)` +
        `  dropped ${step.dropped}${step.notOk ? `  not 2xx ${step.notOk}` : ''}  p99 ${step.p99Ms ?? '-'} ms  ${step.held ? 'held' : run === 0 ? 'missed, once more' : 'MISSED'}`,
    );
    if (step.held) return true;
  }
  return false;
}

/**
 * The highest held target: climb by ×1.5 from start (halving it while even
 * that is missed), then bisect up to the first missed target. Held at the
 * cap, the search ends there: the engine's maximum is at least the cap.
 */
async function highestHeld(endpoint: Endpoint, start: number, cap: number): Promise<{ held: number; steps: Step[] }> {
  const steps: Step[] = [];
  let target = start;
  while (target >= LOWEST_TARGET && !(await attempt(endpoint, target, steps))) target = Math.round(target / 2);
  if (target < LOWEST_TARGET) return { held: 0, steps };
  let held = target;
  let missed: number | undefined;
  while (missed === undefined && held < cap) {
    target = Math.min(cap, Math.round(held * CLIMB_FACTOR));
    if (await attempt(endpoint, target, steps)) held = target;
    else missed = target;
  }
  if (missed === undefined) return { held, steps };
  for (let i = 0; i < MAX_BISECTIONS && missed / held > RESOLUTION; i++) {
    target = Math.round(Math.sqrt(held * missed));
    if (await attempt(endpoint, target, steps)) held = target;
    else missed = target;
  }
  return { held, steps };
}

interface Comparison {
  label: string;
  wrk: number;
  engine: number;
  ratio: number;
  goal: number;
  /** The other targets held on the way up (the climb's ladder, bisection steps). */
  heldBelow: number[];
}

async function compare(endpoint: Endpoint): Promise<Comparison | undefined> {
  console.log(`\n--- ${endpoint.label}`);
  wrkRate(endpoint, 1); // warms the server's JIT for both clients
  const before = wrkRate(endpoint, WRK_SEC);
  if (before === undefined) return undefined;
  console.log(`wrk -t1 -c${CONNECTIONS} -d${WRK_SEC}s: ${fmt(before)} req/s`);
  await engineAt(endpoint, Math.round(before / 10)); // warms the engine's JIT
  console.log(`embedded engine (${TRANSPORT === 'undici' ? 'undici fallback, ' : ''}${CONNECTIONS} connections, ${ENGINE_IN_FLIGHT} in flight at most, ${STEP_SEC} s per target), climbing:`);
  const cap = Math.round(before * CAP_SHARE);
  const { held, steps } = await highestHeld(endpoint, Math.round(before / 10), cap);
  const after = wrkRate(endpoint, WRK_SEC) ?? before;
  const wrk = Math.max(before, after);
  console.log(`wrk again: ${fmt(after)} req/s; compared with the higher, ${fmt(wrk)} req/s`);
  const ratio = held / wrk;
  const below = steps.filter((s) => s.held && s.target < held).map((s) => s.target);
  const atCap = held === cap ? ' (the search cap: the maximum is at least this)' : '';
  console.log(`highest held: engine ${fmt(held)} req/s${atCap} vs wrk ${fmt(wrk)} req/s = ${pct(ratio)} of wrk (goal ${pct(endpoint.goal)})`);
  return { label: endpoint.label, wrk, engine: held, ratio, goal: endpoint.goal, heldBelow: below };
}

async function referenceEndpoint(reference: Awaited<ReturnType<typeof spawnReference>>): Promise<Endpoint> {
  const profile = referenceProfile(reference.url, reference.options);
  const tokenAnswer = await fetch(`${reference.url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: REFERENCE_DEFAULTS.clientId, client_secret: reference.options.clientSecret }),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  return {
    label: 'reference GET /v2/users/{id}',
    baseUrl: reference.url,
    path: `/v2/users/${profile.users!.existingUserId}`,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    goal: 0.9,
  };
}

function summarize(results: Array<Comparison | undefined>): void {
  console.log(`\nload average at the end: ${os.loadavg()[0]!.toFixed(2)}`);
  console.log('summary (engine / wrk, highest held target):');
  for (const r of results) {
    if (!r) continue;
    const met = r.ratio >= r.goal;
    const ladder = r.heldBelow.length ? `; held on the way: ${r.heldBelow.map(fmt).join(', ')} req/s` : '';
    console.log(`  ${r.label}: ${pct(r.ratio)} (${fmt(r.engine)} / ${fmt(r.wrk)} req/s), goal ≥ ${pct(r.goal)}: ${met ? 'met' : 'NOT met'}${ladder}`);
  }
}

const benchStarted = performance.now();
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)} at start (shared machine: figures move with it)`);
const results: Array<Comparison | undefined> = [];
const reference = await spawnReference({});
try {
  results.push(await compare(await referenceEndpoint(reference)));
} finally {
  await reference.stop();
}
const toy = await startToyServer();
try {
  results.push(await compare({ label: 'trivial loopback server (the clients alone)', baseUrl: toy.url, path: '/', headers: { accept: 'application/json' }, goal: 0.8 }));
} finally {
  await toy.stop();
}
summarize(results);
console.log(`took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s`);
if (results.some((r) => r === undefined)) process.exitCode = 1; // nothing measured: wrk missing or broken
