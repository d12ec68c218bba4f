// An exploration's report in Chromium, as its reader walks it: `ptas
// explore` against a broken reference; the contradicted rule is a FAIL whose
// evidence is the shrunk case (its exchange and curl line) and whose note
// names the replay file; the traceability matrix lists, per requirement, the
// hand-written checks apart from the explored rules, with how many generated
// cases exercised each, and counts the rules no case reached.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import type { RunResults } from '../../src/results/model.ts';
import { runPtas } from '../support/cli.ts';
import { launchChromium } from './support/browser.ts';

const FOUND = 'explore.crypto-transfers.echoes-request';
let browser: Browser;
let scratch: string;
let results: RunResults;

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-explore-report-'));
  const run = await runPtas(['explore', '--fault', 'wda-owner-name-not-stored', '--area', 'crypto-transfers', '--seed', '5', '--cases', '200', '--out', scratch]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  results = JSON.parse(readFileSync(path.join(scratch, 'results.json'), 'utf8')) as RunResults;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the contradicted rule shows its shrunk case as evidence, and the matrix tells generated cases from hand-written checks', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => (m.type() === 'error' ? problems.push(m.text()) : undefined));
  await page.goto(pathToFileURL(path.join(scratch, 'index.html')).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  assert.equal(await page.textContent('#verdict'), 'NOT CONFORMANT');

  const row = page.locator(`details.check[id="check-${FOUND}"]`);
  assert.match((await row.locator('summary').textContent())!, /owner_legal_name sent "Erika Mustermann", returned ""/);
  await row.locator('summary').click();
  const evidence = row.locator('.evidence');
  await evidence.waitFor();
  assert.equal(await evidence.locator('section.exchange').count(), results.checks.find((c) => c.id === FOUND)!.evidence.length);
  assert.match((await evidence.locator('.curl pre').first().textContent())!, /^curl -sS -X POST .*\/v1\/crypto-transfers\/addresses\/withdrawals/);
  assert.match((await evidence.textContent())!, /ptas explore --replay explore\/explore\.crypto-transfers\.echoes-request\.replay\.json/);

  // The matrix: the requirement's hand-written check did not run (an exploration alone); its explored rule did, with its cases.
  const matrixRow = page.locator('tr[id="req-WDA-ECHOES-REQUEST"]');
  assert.match((await matrixRow.locator('.generated').textContent())!, new RegExp(`generated cases:\\s*FAIL\\s*${FOUND.replaceAll('.', '\\.')} · \\d+ generated cases?`));
  const explored = results.checks.filter((c) => c.id.startsWith('explore.'));
  const unreached = explored.filter((c) => c.verdict === 'SKIP').length;
  assert.match((await page.textContent('.matrix-head'))!, new RegExp(`\\d+ exercised by generated cases, ${unreached} explored rules? no case reached`));
  for (const check of explored.filter((c) => c.verdict === 'SKIP')) {
    assert.match((await page.textContent(`tr[id="req-${check.requirements[0]}"]`))!, /no generated case reached it/);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
