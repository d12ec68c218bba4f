// The console at scale, in headless Chromium, against `ptas serve`'s real
// server (app/serve/server.ts) on 127.0.0.1 with the console registered as
// the command line registers it, over a store seeded with runs.
// Budgets (issue 23):
// - the implementations page with 1,000 stored runs (50 implementations of
//   20 runs) is interactive in ≤ 1 s: from navigation to the page having
//   drawn its list (body[data-ready]), each load in a fresh browser context
//   (nothing cached: the app's 600 KB script and the CodeMirror in it are
//   fetched and parsed every time). The baseline is a trivial page served by
//   the same server, loaded the same way, in the same run;
// - a finished check reaches the live view in ≤ 500 ms: a real run of the
//   bundled reference (its auth area, no load stage) followed on its page,
//   which stamps when each check's row appears in the DOM (a
//   MutationObserver); the check finished at the run's start plus the
//   elapsed time its event carries. Both clocks are the machine's wall clock
//   (the run's start is the record's startedAt, to the millisecond).
// Figures are medians over a few loads and the run's checks.
// `npm run bench -- console`
import type { Browser, BrowserContext } from '@playwright/test';
import { launchChromium } from '../test/report/support/browser.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type ServeServer } from '../app/serve/server.ts';
import { registerConsoleOnServer } from '../app/serve/console-on-server.ts';
import type { RunEvent, RunRecord } from '../app/serve/contract.ts';
import { StoreLayout } from '../app/serve/store/layout.ts';
import { ImplementationStore } from '../app/serve/store/implementations.ts';
import { RunStore } from '../app/serve/store/runs.ts';
import { endWithBudgets, median, quantile } from './support/figures.ts';

const IMPLEMENTATIONS = 50;
const RUNS_EACH = 20;
const LOADS = 5;
const TTI_BUDGET_MS = 1000;
const LIVE_BUDGET_MS = 500;

const ms = (x: number) => `${x.toFixed(0)} ms`;


/** A signed-in browser's state, from the login form: the session cookie, and the secret the console keeps in the origin's storage. */
interface SignedIn {
  cookie: { name: string; value: string; url: string };
  origin: { origin: string; localStorage: Array<{ name: string; value: string }> };
}

async function signedIn(url: string, token: string): Promise<SignedIn> {
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

/** The real server over a seeded store, with the console registered as `ptas serve` registers it, and the baseline's trivial page. */
async function realServer(dataDir: string): Promise<ServeServer> {
  return createServer({
    dataDir,
    port: 0,
    log: () => {},
    registerExtra: async (app, services, log) => {
      app.get('/bench/trivial', async (_request, reply) =>
        reply.type('text/html; charset=utf-8').send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>trivial</title></head><body><p>baseline</p></body></html>\n'),
      );
      await registerConsoleOnServer(app, services, log);
    },
  });
}

async function freshContext(session: SignedIn): Promise<BrowserContext> {
  const context = await browser!.newContext({ viewport: { width: 1400, height: 1000 }, storageState: { cookies: [], origins: [session.origin] } });
  await context.addCookies([session.cookie]);
  return context;
}

async function loadTrivial(cookie: Parameters<typeof freshContext>[0], url: string): Promise<number> {
  const context = await freshContext(cookie);
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(`${url}/bench/trivial`, { waitUntil: 'load' });
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

async function loadList(cookie: Parameters<typeof freshContext>[0], url: string): Promise<ListLoad> {
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
    const data = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/implementations'));
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

/** How long each check of a real run took from finishing to its row in the page. */
async function liveLatency(server: ServeServer, cookie: Parameters<typeof freshContext>[0]): Promise<number[]> {
  const call = (method: string, route: string, body?: unknown) =>
    fetch(`${server.url}${route}`, { method, headers: { authorization: `Bearer ${server.firstRunToken!.token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }).then((r) => r.json());
  const run = (await call('POST', '/api/runs', { implementation: 'reference', options: { load: false, grep: '@area:auth' } })) as RunRecord;
  const context = await freshContext(cookie);
  const page = await context.newPage();
  await page.goto(`${server.url}/console/runs/${run.id}`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.evaluate(`(() => {
    window.__seen = {};
    new MutationObserver((records) => {
      const at = performance.timeOrigin + performance.now();
      for (const r of records) for (const n of r.addedNodes) if (n.dataset && n.dataset.checkId) window.__seen[n.dataset.checkId + ' ' + n.dataset.target] = at;
    }).observe(document.querySelector('#checks tbody'), { childList: true });
  })()`);
  await page.waitForSelector('#run-status[data-status="finished"]', { timeout: 300_000 });
  const seen = (await page.evaluate('window.__seen')) as Record<string, number>;
  await context.close();
  const finished = (await call('GET', `/api/runs/${run.id}`)) as RunRecord;
  const events = await (await fetch(`${server.url}/api/runs/${run.id}/events`, { headers: { authorization: `Bearer ${server.firstRunToken!.token}` } })).text();
  const checks = events
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)) as RunEvent)
    .filter((event): event is Extract<RunEvent, { type: 'check' }> => event.type === 'check');
  // A row drawn before the observer was set (none, unless the page opened late) has no stamp: left out.
  return checks.map((c) => seen[`${c.check.id} ${c.check.target}`]! - (Date.parse(finished.startedAt!) + c.elapsedMs)).filter((latency) => Number.isFinite(latency));
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ptas-console-bench-'));
seedStore(dataDir);
const server = await realServer(dataDir);
let browser: Browser | undefined;

try {
  browser = await launchChromium();
  const cookie = await signedIn(server.url, server.firstRunToken!.token);
  // Warm-up: browser start-up and the server's first answers are not measured.
  await loadTrivial(cookie, server.url);
  await loadList(cookie, server.url);
  const baseline: number[] = [];
  const loads: ListLoad[] = [];
  for (let i = 0; i < LOADS; i++) {
    baseline.push(await loadTrivial(cookie, server.url));
    loads.push(await loadList(cookie, server.url));
  }
  const list = loads.map((l) => l.wallMs);
  const rows = loads[0]!.rows;
  const errors = loads.flatMap((l) => l.errors);
  const base = median(baseline);
  const tti = median(list);
  console.log(`baseline: trivial page load ${ms(base)} (median of ${LOADS}, fresh context each)`);
  console.log(`implementations page (${rows} rows, ${server.services.runs.list().length} stored runs): interactive after ${ms(tti)} (median of ${LOADS}, fresh context each, max ${ms(Math.max(...list))}); ratio to baseline ${(tti / base).toFixed(1)}x; budget ${ms(TTI_BUDGET_MS)}`);
  console.log(
    `  in the page, from navigation start (medians): the app script (gzip) fetched in ${ms(median(loads.map((l) => l.scriptFetchMs)))}, received at ${ms(median(loads.map((l) => l.scriptRanAtMs)))}, ` +
      `its code running at ${ms(median(loads.map((l) => l.appStartedAtMs)))}, the list's data in at ${ms(median(loads.map((l) => l.dataAtMs)))}, the list drawn at ${ms(median(loads.map((l) => l.readyAtMs)))}`,
  );

  const live = await liveLatency(server, cookie);
  const p95 = quantile(live, 0.95);
  console.log(`live view: a check finished → its row in the DOM ${median(live).toFixed(1)} ms median, ${p95.toFixed(1)} ms p95, ${Math.max(...live).toFixed(1)} ms max (${live.length} checks of a real run); budget ${ms(LIVE_BUDGET_MS)}`);

  endWithBudgets([
    rows !== IMPLEMENTATIONS + 1 && `the list showed ${rows} rows, not ${IMPLEMENTATIONS} and the reference`,
    errors.length > 0 && `the page logged errors: ${errors.join('; ')}`,
    tti > TTI_BUDGET_MS && `time to interactive ${ms(tti)} is over the ${ms(TTI_BUDGET_MS)} budget`,
    live.length === 0 && 'no check of the run reached the live view',
    p95 > LIVE_BUDGET_MS && `a check reached the live view in ${ms(p95)} (p95), over the ${ms(LIVE_BUDGET_MS)} budget`,
  ]);
} finally {
  await browser?.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
