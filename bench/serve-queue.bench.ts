// `ptas serve` with 1,000 runs waiting (issue 28, finding 1): does moving
// the queue stall the server? A real server (app/serve/server.ts) on
// 127.0.0.1, one run at a time: a run against a stalled target runs (the
// target answers the preflight, then holds its one check's requests), and
// 1,000 runs wait behind it. Each round cancels a waiting run and, at once,
// sends a probe (GET /api/runs/ID of another waiting run), timing both.
// - the baseline: cancels at the tail of the queue, where no run moves up;
// - the figure: cancels at the head, where every waiting run moves up.
// Both are measured in the same run, on the same queue (about 1,000 long
// throughout); the figures are head ÷ tail. Before the fix every change at
// the head rewrote every waiting run's run.json (atomic write and fsync) on
// the event loop: ~0.9 s per cancel for every request in flight.
// Budget: the probe's median and p95, and the cancel's median, at the head
// within 3× the tail's.
// `npm run bench -- serve-queue`
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../app/serve/server.ts';
import { startStalledTarget } from '../test/support/servers.ts';
import { endWithBudgets, median, quantile } from './support/figures.ts';

const WAITING = 1_000;
const ROUNDS = 40;
const BUDGET_RATIO = 3;

const ms = (x: number) => `${x.toFixed(1)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;


const target = await startStalledTarget();
const data = mkdtempSync(path.join(os.tmpdir(), 'ptas-bench-serve-queue-'));
const lab = await createServer({
  dataDir: data,
  port: 0,
  maxConcurrentRuns: 1,
  maxQueuedRuns: WAITING + 2 * ROUNDS,
  maxQueuedRunsPerToken: WAITING + 2 * ROUNDS,
  env: { ...process.env, PTAS_BENCH_SECRET: 'bench-secret-value' },
  secretEnv: ['PTAS_BENCH_SECRET'],
  log: () => {},
});
const token = lab.firstRunToken?.token ?? lab.services.tokens.create('bench');

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; json: any; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${lab.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined, ms: performance.now() - started };
}

interface Round {
  cancelMs: number;
  probeMs: number;
}

/** Cancels `runId` and at once probes another run; both timed from when they were sent. */
async function round(runId: string, probeId: string): Promise<Round> {
  const cancel = call('POST', `/api/runs/${runId}/cancel`);
  const probe = call('GET', `/api/runs/${probeId}`);
  const [cancelled, probed] = await Promise.all([cancel, probe]);
  if (cancelled.json?.status !== 'cancelled' || probed.status !== 200) throw new Error(`round failed: ${JSON.stringify(cancelled.json)} / ${probed.status}`);
  return { cancelMs: cancelled.ms, probeMs: probed.ms };
}

let running: string | undefined;
try {
  const profileText = JSON.stringify({ baseUrl: target.url, credentials: { clientId: 'bench-client', clientSecret: 'env:PTAS_BENCH_SECRET' }, http: { timeoutMs: 600_000 } });
  if ((await call('PUT', '/api/implementations/stalled', { name: 'Stalled', profileText })).status !== 201) throw new Error('could not store the implementation');
  // One check, one worker: the running run's Playwright settles, then waits on the target.
  const first = await call('POST', '/api/runs', { implementation: 'stalled', options: { load: false, grep: '@check:auth\\.client-credentials-issues-pair' } });
  running = first.json.id as string;
  while ((await call('GET', `/api/runs/${running}`)).json.status !== 'running') await new Promise((resolve) => setTimeout(resolve, 100));
  await new Promise((resolve) => setTimeout(resolve, 8_000));

  const queuedAt = performance.now();
  const queue: string[] = [];
  for (let i = 0; i < WAITING + 2 * ROUNDS; i++) {
    const asked = await call('POST', '/api/runs', { implementation: 'stalled', options: { load: false } });
    if (asked.status !== 202) throw new Error(`run ${i} was refused: ${asked.status} ${JSON.stringify(asked.json)}`);
    queue.push(asked.json.id as string);
  }
  console.log(`${queue.length} runs waiting behind a running one, queued in ${ms(performance.now() - queuedAt)} (${ms((performance.now() - queuedAt) / queue.length)} per POST /api/runs)`);

  // Warm-up, then the baseline at the tail and the figure at the head, interleaved so both see the same machine.
  await round(queue.pop()!, queue[Math.floor(queue.length / 2)]!);
  const tail: Round[] = [];
  const head: Round[] = [];
  for (let i = 0; i < ROUNDS - 1; i++) {
    tail.push(await round(queue.pop()!, queue[Math.floor(queue.length / 2)]!));
    head.push(await round(queue.shift()!, queue[Math.floor(queue.length / 2)]!));
  }
  const figures = (rounds: Round[]) => ({
    probeMedian: median(rounds.map((r) => r.probeMs)),
    probeP95: quantile(rounds.map((r) => r.probeMs), 0.95),
    cancelMedian: median(rounds.map((r) => r.cancelMs)),
    cancelMax: Math.max(...rounds.map((r) => r.cancelMs)),
  });
  const base = figures(tail);
  const atHead = figures(head);
  console.log(`queue of ~${queue.length} waiting runs, ${head.length} rounds each:`);
  console.log(`  probe GET /api/runs/ID, median   tail ${ms(base.probeMedian)}   head ${ms(atHead.probeMedian)}   ${ratio(atHead.probeMedian, base.probeMedian)}`);
  console.log(`  probe GET /api/runs/ID, p95      tail ${ms(base.probeP95)}   head ${ms(atHead.probeP95)}   ${ratio(atHead.probeP95, base.probeP95)}`);
  console.log(`  POST …/cancel, median            tail ${ms(base.cancelMedian)}   head ${ms(atHead.cancelMedian)}   ${ratio(atHead.cancelMedian, base.cancelMedian)}`);
  console.log(`  POST …/cancel, max               tail ${ms(base.cancelMax)}   head ${ms(atHead.cancelMax)}`);
  endWithBudgets([
    atHead.probeMedian > BUDGET_RATIO * base.probeMedian && `probe median at the head ${ratio(atHead.probeMedian, base.probeMedian)} the tail's (budget ${BUDGET_RATIO}×)`,
    atHead.probeP95 > BUDGET_RATIO * base.probeP95 && `probe p95 at the head ${ratio(atHead.probeP95, base.probeP95)} the tail's (budget ${BUDGET_RATIO}×)`,
    atHead.cancelMedian > BUDGET_RATIO * base.cancelMedian && `cancel median at the head ${ratio(atHead.cancelMedian, base.cancelMedian)} the tail's (budget ${BUDGET_RATIO}×)`,
  ]);
} finally {
  // The running run stopped and its partial bundle written before the store goes.
  if (running) {
    await call('POST', `/api/runs/${running}/cancel`);
    const deadline = performance.now() + 60_000;
    while (['queued', 'running'].includes((await call('GET', `/api/runs/${running}`)).json.status) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await lab.close();
  await target.close();
  rmSync(data, { recursive: true, force: true });
}
