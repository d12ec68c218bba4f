// The report at scale: 1,000 checks with evidence shaped like real runs and
// a load section aggregating 1,000,000 requests. Budget (issue 22, was 5 MiB
// and 2 s): index.html at most 3 MiB (its evidence embedded gzip-compressed)
// and interactive within 1 s in headless Chromium; results.json, plain JSON,
// under 5 MiB. The baseline, measured in the same browser in the same run, is
// a trivial page loaded the same way; the figures are medians of a few fresh
// page loads.
// `npm run bench -- report`
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import { writeReport } from '../reports/write.ts';
import { launchChromium } from '../test/report/support/browser.ts';
import { loadRequestTotal, syntheticResults } from '../test/report/support/synthetic.ts';
import { endWithBudgets, median } from './support/figures.ts';

const CHECKS = 1000;
const LOAD_REQUESTS = 1_000_000;
const RUNS = 5;
const HTML_BUDGET = 3 * 1024 * 1024;
const JSON_BUDGET = 5 * 1024 * 1024;
const TTI_BUDGET_MS = 1000;

const ms = (x: number) => `${x.toFixed(0)} ms`;

interface Load {
  wallMs: number;
  readyAtMs?: number;
  renderMs?: number;
  openCheckMs?: number;
  filterMs?: number;
}

async function loadPage(browser: Browser, file: string, report: boolean): Promise<Load> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const started = performance.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: report ? 'commit' : 'load' });
  if (!report) {
    const wallMs = performance.now() - started;
    await page.close();
    return { wallMs };
  }
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const wallMs = performance.now() - started;
  const data = await page.evaluate('({ ...document.body.dataset })') as { readyAtMs: string; renderMs: string };
  // Interacting: open the first failing check (builds its evidence) and apply a verdict filter.
  const summary = page.locator('details.check.verdict-FAIL > summary').first();
  const openStart = performance.now();
  await summary.click();
  await page.locator('details.check.verdict-FAIL .evidence').first().waitFor();
  const openCheckMs = performance.now() - openStart;
  const filterMs = (await page.evaluate(`(() => {
    const t0 = performance.now();
    document.querySelector('.filter-bar .chip[data-verdict="FAIL"]').click();
    return performance.now() - t0;
  })()`)) as number;
  await page.close();
  if (errors.length) throw new Error(`the report page logged errors: ${errors.join('; ')}`);
  return { wallMs, readyAtMs: Number(data.readyAtMs), renderMs: Number(data.renderMs), openCheckMs, filterMs };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-report-bench-'));
let browser: Browser | undefined;
try {
  const generated = performance.now();
  const results = syntheticResults({ checks: CHECKS, loadRequests: LOAD_REQUESTS });
  const generateMs = performance.now() - generated;
  const writeStart = performance.now();
  const written = writeReport(results, path.join(dir, 'report'));
  const writeMs = performance.now() - writeStart;
  const trivial = path.join(dir, 'trivial.html');
  writeFileSync(trivial, '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>trivial</title></head><body><p>baseline</p></body></html>\n');

  const htmlBytes = statSync(written.html).size;
  const exchanges = results.checks.reduce((a, c) => a + c.evidence.length, 0);
  const evidenceBytes = Buffer.byteLength(JSON.stringify(results.checks.map((c) => c.evidence)));
  console.log(`synthetic results: ${results.checks.length} checks, ${exchanges} exchanges (${(evidenceBytes / results.checks.length / 1024).toFixed(2)} KiB of evidence per check), load section of ${loadRequestTotal(results.load!).toLocaleString('en-US')} requests`);
  console.log(`generated in ${ms(generateMs)}; report written in ${ms(writeMs)}`);
  console.log(`sizes: index.html ${(htmlBytes / 1024 / 1024).toFixed(2)} MiB (budget 3 MiB), results.json ${(statSync(written.json).size / 1024 / 1024).toFixed(2)} MiB (budget 5 MiB), junit.xml ${(statSync(written.junit).size / 1024).toFixed(0)} KiB`);

  browser = await launchChromium();
  // One warm-up load of each so the first measured run does not pay for browser start-up.
  await loadPage(browser, trivial, false);
  await loadPage(browser, written.html, true);
  const baseline: Load[] = [];
  const report: Load[] = [];
  for (let i = 0; i < RUNS; i++) {
    baseline.push(await loadPage(browser, trivial, false));
    report.push(await loadPage(browser, written.html, true));
  }
  const base = median(baseline.map((r) => r.wallMs));
  const tti = median(report.map((r) => r.wallMs));
  console.log(`baseline: trivial page load ${ms(base)} (median of ${RUNS})`);
  console.log(
    `report: interactive after ${ms(tti)} (median of ${RUNS}; in-page ready at ${ms(median(report.map((r) => r.readyAtMs!)))}, of which drawing ${ms(median(report.map((r) => r.renderMs!)))}); ` +
      `ratio to baseline ${(tti / base).toFixed(1)}x; budget ${ms(TTI_BUDGET_MS)}`,
  );
  console.log(`interaction: open a failing check with its evidence ${ms(median(report.map((r) => r.openCheckMs!)))}, apply a verdict filter to ${CHECKS} rows ${median(report.map((r) => r.filterMs!)).toFixed(1)} ms`);
  const jsonBytes = statSync(written.json).size;
  endWithBudgets([
    htmlBytes > HTML_BUDGET && `index.html is ${htmlBytes} bytes, over the 3 MiB budget`,
    jsonBytes >= JSON_BUDGET && `results.json is ${jsonBytes} bytes, over the 5 MiB budget`,
    tti > TTI_BUDGET_MS && `time to interactive ${ms(tti)} is over the ${ms(TTI_BUDGET_MS)} budget`,
  ]);
} finally {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
}
