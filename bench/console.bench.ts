// The console at scale, in headless Chromium, against a real Fastify server
// on 127.0.0.1 with the fake services (test/serve/support/fake-services.ts).
// Budgets (issue 23):
// - the implementations page with 1,000 stored runs (50 implementations of
//   20 runs) is interactive in ≤ 1 s, on the fake services and again on the
//   real server (app/serve/server.ts) over a store seeded with those runs: from navigation to the page having
//   drawn its list (body[data-ready]), each load in a fresh browser context
//   (nothing cached: the app's 600 KB script and the CodeMirror in it are
//   fetched and parsed every time). The baseline is a trivial page served by
//   the same server, loaded the same way, in the same run;
// - a finished check reaches the live view in ≤ 500 ms: the fake emits a
//   check event at a known time and the page stamps when its row appears in
//   the DOM (a MutationObserver); both clocks are the machine's wall clock.
//   The same latency seen from Node (the emit until Playwright finds the row)
//   is printed as an upper bound.
// Figures are medians over a few loads and 30 events.
// `npm run bench -- console`
import type { Browser, BrowserContext } from '@playwright/test';
import { launchChromium } from '../test/report/support/browser.ts';
import { startConsole } from '../test/serve/support/console-server.ts';
import { FAKE_TOKEN } from '../test/serve/support/fake-services.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type ServeServer } from '../app/serve/server.ts';
import { consolePort } from '../app/serve/console-port.ts';
import { registerConsole } from '../app/serve/console/routes.ts';
import type { RunRecord } from '../app/serve/contract.ts';
import { StoreLayout } from '../app/serve/store/layout.ts';
import { ImplementationStore } from '../app/serve/store/implementations.ts';
import { RunStore } from '../app/serve/store/runs.ts';
import { endWithBudgets, median, quantile } from './support/figures.ts';

const IMPLEMENTATIONS = 50;
const RUNS_EACH = 20;
const LOADS = 5;
const EVENTS = 30;
const TTI_BUDGET_MS = 1000;
const LIVE_BUDGET_MS = 500;

const ms = (x: number) => `${x.toFixed(0)} ms`;

const server = await startConsole({
  fake: { autoProgress: false, startDelayMs: 0 },
  extra: (app) => {
    app.get('/bench/trivial', async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>trivial</title></head><body><p>baseline</p></body></html>\n'),
    );
  },
});
let browser: Browser | undefined;

/** A signed-in browser's state, from the login form: the session cookie, and the secret the console keeps in the origin's storage. */
interface SignedIn {
  cookie: { name: string; value: string; url: string };
  origin: { origin: string; localStorage: Array<{ name: string; value: string }> };
}

async function signedIn(url = server.url, token = FAKE_TOKEN): Promise<SignedIn> {
  const answer = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({ token }).toString(),
  });
  const [name, value] = answer.headers.get('set-cookie')!.split(';')[0]!.split('=') as [string, string];
  const secret = /<meta name="ptas-session-secret" content="([^"]+)">/.exec(await answer.text())![1]!;
  return { cookie: { name, value, url }, origin: { origin: new URL(url).origin, localStorage: [{ name: 'ptas-console-session', value: secret }] } };
}

/** A store as `ptas serve` keeps it, with IMPLEMENTATIONS implementations of RUNS_EACH finished runs each. */
function seedStore(dataDir: string): void {
  const layout = new StoreLayout(dataDir);
  layout.ensure();
  const implementations = new ImplementationStore(layout);
  const runs = new RunStore(layout);
  const verdicts = ['CONFORMANT', 'NOT CONFORMANT', 'INCOMPLETE'] as const;
  for (let i = 0; i < IMPLEMENTATIONS; i++) {
    const id = `impl-${String(i).padStart(3, '0')}`;
    const at = new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString();
    implementations.save({ id, name: `Implementation ${i}`, profileText: `{ "baseUrl": "https://impl-${i}.example" }\n`, createdAt: at, updatedAt: at });
    for (let j = 0; j < RUNS_EACH; j++) {
      const finishedAt = new Date(Date.UTC(2026, 10, 1 + j, 2, i)).toISOString();
      const record: RunRecord = { id: `${id}-run-${j}`, implementation: id, options: { load: false }, status: 'finished', createdAt: finishedAt, startedAt: finishedAt, finishedAt, verdict: verdicts[(i + j) % 3]!, counts: { PASS: 95, REVIEW: 6 } };
      runs.save(record);
    }
  }
}

/** The real server over a seeded store, with the console registered as `ptas serve` registers it. */
async function realServer(dataDir: string): Promise<ServeServer> {
  return createServer({ dataDir, port: 0, log: () => {}, registerExtra: (app, services) => registerConsole(app, consolePort(services)) });
}

async function freshContext(session: SignedIn): Promise<BrowserContext> {
  const context = await browser!.newContext({ viewport: { width: 1400, height: 1000 }, storageState: { cookies: [], origins: [session.origin] } });
  await context.addCookies([session.cookie]);
  return context;
}

async function loadTrivial(cookie: Parameters<typeof freshContext>[0]): Promise<number> {
  const context = await freshContext(cookie);
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(`${server.url}/bench/trivial`, { waitUntil: 'load' });
  const wall = performance.now() - started;
  await context.close();
  return wall;
}

interface ListLoad {
  wallMs: number;
  /** In the page: from navigation start to the list drawn. */
  readyAtMs: number;
  /** In the page: the app script's fetch (request start to response end) and when it started running. */
  scriptFetchMs: number;
  scriptRanAtMs: number;
  /** When the app's code started, and when the list's data arrived. */
  appStartedAtMs: number;
  dataAtMs: number;
  rows: number;
  errors: string[];
}

async function loadList(cookie: Parameters<typeof freshContext>[0], url = server.url): Promise<ListLoad> {
  const context = await freshContext(cookie);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const started = performance.now();
  await page.goto(`${url}/`, { waitUntil: 'commit' });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const wallMs = performance.now() - started;
  const rows = await page.locator('table.implementations tbody tr').count();
  const inPage = (await page.evaluate(`(() => {
    const script = performance.getEntriesByType('resource').find((e) => e.name.includes('/assets/app.') && e.name.endsWith('.js'));
    const data = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/console/api/implementations'));
    return {
      readyAtMs: Number(document.body.dataset.readyAtMs),
      scriptFetchMs: script.responseEnd - script.requestStart,
      scriptRanAtMs: script.responseEnd,
      appStartedAtMs: Number(document.documentElement.dataset.startedAtMs),
      dataAtMs: data.responseEnd,
    };
  })()`)) as Pick<ListLoad, 'readyAtMs' | 'scriptFetchMs' | 'scriptRanAtMs' | 'appStartedAtMs' | 'dataAtMs'>;
  await context.close();
  return { wallMs, rows, errors, ...inPage };
}

interface Live {
  inPageMs: number[];
  fromNodeMs: number[];
}

async function liveLatency(cookie: Parameters<typeof freshContext>[0]): Promise<Live> {
  const impl = await server.fake.implementations.create({ name: 'Live', profileText: '{ "baseUrl": "https://live.example" }' });
  const run = await server.fake.runs.start(impl.id, { load: false });
  while ((await server.fake.runs.get(run.id))?.status !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
  const context = await freshContext(cookie);
  const page = await context.newPage();
  await page.goto(`${server.url}/console/runs/${run.id}`);
  await page.waitForSelector('body[data-ready="true"] #run-status[data-status="running"]');
  await page.evaluate(`(() => {
    window.__seen = {};
    new MutationObserver((records) => {
      const at = performance.timeOrigin + performance.now();
      for (const r of records) for (const n of r.addedNodes) if (n.dataset && n.dataset.checkId) window.__seen[n.dataset.checkId + '#' + document.querySelectorAll('.check-row').length] = at;
    }).observe(document.querySelector('#checks tbody'), { childList: true });
  })()`);
  const live: Live = { inPageMs: [], fromNodeMs: [] };
  for (let i = 0; i < EVENTS; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    const nodeStart = performance.now();
    const { emittedAt, checkId } = server.fake.emitCheck(run.id);
    const key = `${checkId}#${i + 1}`;
    // A function, not a string: the console's policy forbids eval, which a string predicate needs.
    await page.waitForFunction((k) => (globalThis as unknown as { __seen: Record<string, number> }).__seen[k] !== undefined, key, { polling: 'raf', timeout: 10_000 });
    live.fromNodeMs.push(performance.now() - nodeStart);
    live.inPageMs.push(((await page.evaluate(`window.__seen[${JSON.stringify(key)}]`)) as number) - emittedAt);
  }
  await context.close();
  return live;
}

try {
  const seeded = performance.now();
  await server.fake.seed(IMPLEMENTATIONS, RUNS_EACH);
  const summaries = await server.fake.implementations.summaries();
  console.log(`fake services: ${summaries.length} implementations, ${IMPLEMENTATIONS * RUNS_EACH} stored runs (seeded in ${ms(performance.now() - seeded)}); summaries JSON ${(Buffer.byteLength(JSON.stringify(summaries)) / 1024).toFixed(0)} KiB`);
  browser = await launchChromium();
  const cookie = await signedIn();
  // Warm-up: browser start-up and the server's first answers are not measured.
  await loadTrivial(cookie);
  await loadList(cookie);
  const baseline: number[] = [];
  const loads: ListLoad[] = [];
  for (let i = 0; i < LOADS; i++) {
    baseline.push(await loadTrivial(cookie));
    loads.push(await loadList(cookie));
  }
  const list = loads.map((l) => l.wallMs);
  const rows = loads[0]!.rows;
  const errors = loads.flatMap((l) => l.errors);
  const base = median(baseline);
  const tti = median(list);
  console.log(`baseline: trivial page load ${ms(base)} (median of ${LOADS}, fresh context each)`);
  console.log(`implementations page (${rows} rows, ${IMPLEMENTATIONS * RUNS_EACH} runs): interactive after ${ms(tti)} (median of ${LOADS}, fresh context each, max ${ms(Math.max(...list))}); ratio to baseline ${(tti / base).toFixed(1)}x; budget ${ms(TTI_BUDGET_MS)}`);
  console.log(
    `  in the page, from navigation start (medians): the app script (gzip) fetched in ${ms(median(loads.map((l) => l.scriptFetchMs)))}, received at ${ms(median(loads.map((l) => l.scriptRanAtMs)))}, ` +
      `its code running at ${ms(median(loads.map((l) => l.appStartedAtMs)))}, the list's data in at ${ms(median(loads.map((l) => l.dataAtMs)))}, the list drawn at ${ms(median(loads.map((l) => l.readyAtMs)))}`,
  );

  // The same page on the real server, its store seeded with as many runs.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ptas-console-bench-'));
  let real: ServeServer | undefined;
  let realTti = 0;
  let realRows = 0;
  try {
    seedStore(dataDir);
    real = await realServer(dataDir);
    const realCookie = await signedIn(real.url, real.firstRunToken!.token);
    await loadList(realCookie, real.url);
    const realLoads: ListLoad[] = [];
    for (let i = 0; i < LOADS; i++) realLoads.push(await loadList(realCookie, real.url));
    realTti = median(realLoads.map((l) => l.wallMs));
    realRows = realLoads[0]!.rows;
    errors.push(...realLoads.flatMap((l) => l.errors));
    console.log(`implementations page on the real server (${realRows} rows, ${real.services.runs.list().length} stored runs): interactive after ${ms(realTti)} (median of ${LOADS}); ratio to baseline ${(realTti / base).toFixed(1)}x; budget ${ms(TTI_BUDGET_MS)}`);
  } finally {
    await real?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const live = await liveLatency(cookie);
  const p95 = quantile(live.inPageMs, 0.95);
  console.log(
    `live view: a check emitted → its row in the DOM ${median(live.inPageMs).toFixed(1)} ms median, ${p95.toFixed(1)} ms p95, ${Math.max(...live.inPageMs).toFixed(1)} ms max (${EVENTS} events); ` +
      `seen from Node (upper bound, with Playwright's round trip) ${median(live.fromNodeMs).toFixed(1)} ms median, ${Math.max(...live.fromNodeMs).toFixed(1)} ms max; budget ${ms(LIVE_BUDGET_MS)}`,
  );

  endWithBudgets([
    rows !== IMPLEMENTATIONS && `the list showed ${rows} rows, not ${IMPLEMENTATIONS}`,
    errors.length > 0 && `the page logged errors: ${errors.join('; ')}`,
    tti > TTI_BUDGET_MS && `time to interactive ${ms(tti)} is over the ${ms(TTI_BUDGET_MS)} budget`,
    realRows !== IMPLEMENTATIONS + 1 && `the real server's list showed ${realRows} rows, not ${IMPLEMENTATIONS} and the reference`,
    realTti > TTI_BUDGET_MS && `on the real server, time to interactive ${ms(realTti)} is over the ${ms(TTI_BUDGET_MS)} budget`,
    p95 > LIVE_BUDGET_MS && `a check reached the live view in ${ms(p95)} (p95), over the ${ms(LIVE_BUDGET_MS)} budget`,
  ]);
} finally {
  await browser?.close();
  await server.close();
}
