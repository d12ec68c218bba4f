// The report in a real browser: Debian's Chromium, driven by Playwright's
// library API, opens index.html from file:// for a real failing run of the
// auth checks, and for hostile and load-heavy synthetic results. Screenshots
// go to test-results/report/ (PTAS_TEST_ARTIFACTS to change it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { fromRoot } from '../../src/paths.ts';
import type { RunResults } from '../../src/results/model.ts';
import { validateAgainst } from '../../src/schemas/registry.ts';
import { compareWithBaseline } from '../../reports/baseline.ts';
import { writeReport } from '../../reports/write.ts';
import { buildResults } from '../../src/results/build.ts';
import { artifactText } from '../support/artifact-text.ts';
import { launchChromium } from './support/browser.ts';
import { hostileResults, PAYLOADS } from './support/hostile.ts';
import { syntheticResults } from './support/synthetic.ts';

// The functions passed to page.evaluate run in Chromium. The Node program has
// no DOM library; these declarations cover the little of it they use.
interface PageNode {
  id: string;
  hidden: boolean;
  textContent: string | null;
  closest(selector: string): PageNode | null;
}
declare const document: { querySelectorAll(selector: string): ArrayLike<PageNode> };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const location: { hash: string };
declare const window: { scrollTo(x: number, y: number): void; __pwned?: number };
declare const DOMParser: new () => { parseFromString(text: string, type: string): { querySelector(s: string): PageNode | null; querySelectorAll(s: string): ArrayLike<PageNode> } };

const artifacts = process.env.PTAS_TEST_ARTIFACTS ?? fromRoot('test-results', 'report');
const FAILING_CHECK = 'auth.refresh-token-single-use';
/** A JWT: three base64url segments, header and payload JSON objects ("eyJ" is base64 of '{"'). */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/;
/** The client secret app/run/reference-process.ts generates for the embedded reference. */
const REFERENCE_SECRET = /ref-[A-Za-z0-9_-]{24}/;

let browser: Browser;
let scratch: string;
let run: { dir: string; code: number | null; stdout: string; results: RunResults };

before(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-browser-test-'));
  const dir = path.join(scratch, 'run');
  const result = spawnSync(
    process.execPath,
    // The auth checks (a FAIL with evidence to show) on two workers rather than four: fewer worker starts, the same report.
    [fromRoot('bin', 'ptas.js'), 'run', '--no-load', '--fault', 'refresh-token-reusable', '--grep', '@area:auth', '--workers', '2', '--out', dir],
    { cwd: fromRoot(), encoding: 'utf8', timeout: 150_000 },
  );
  run = { dir, code: result.status, stdout: result.stdout + result.stderr, results: JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults };
  browser = await launchChromium();
  mkdirSync(artifacts, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface Watched {
  page: Page;
  problems: string[];
  requests: string[];
}

/** A page that records console errors and warnings, uncaught errors, dialogs and every request. */
async function open(file: string, viewport = { width: 1400, height: 1000 }): Promise<Watched> {
  const page = await browser.newPage({ viewport });
  const watched: Watched = { page, problems: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') watched.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => watched.problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    watched.problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => watched.requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return watched;
}

const rowSelector = (id: string) => `details.check[id="check-${id}"]`;

test('a real run with a reference fault: NOT CONFORMANT, exit 1, results valid against the published schema', () => {
  assert.equal(run.code, 1, run.stdout);
  assert.match(run.stdout, /NOT CONFORMANT/);
  assert.match(run.stdout, new RegExp(`FAIL ${FAILING_CHECK.replace(/\./g, '\\.')} \\[TOKEN-REFRESH-SINGLE-USE\\]`));
  assert.equal(run.results.verdict, 'NOT CONFORMANT');
  assert.deepEqual(validateAgainst('results.schema.json', run.results), []);
  const failing = run.results.checks.find((c) => c.id === FAILING_CHECK);
  assert.equal(failing?.verdict, 'FAIL');
});

test('no token or client secret in plain text in the HTML, JSON or JUnit file', () => {
  for (const name of ['index.html', 'results.json', 'junit.xml']) {
    const text = artifactText(path.join(run.dir, name));
    assert.doesNotMatch(text, JWT, `${name} holds a JWT`);
    assert.doesNotMatch(text, REFERENCE_SECRET, `${name} holds the reference's client secret`);
  }
  // The tokens were there to leak: the evidence shows them as markers.
  const json = readFileSync(path.join(run.dir, 'results.json'), 'utf8');
  assert.match(json, /«refresh_token#[0-9a-f]{8}»/);
  assert.match(json, /«client_secret#[0-9a-f]{8}»/);
});

test('in Chromium from file://: verdict, counts, the failing check\'s evidence, filters; no console error, no request', async () => {
  const file = path.join(run.dir, 'index.html');
  const { page, problems, requests } = await open(file);
  const results = run.results;

  assert.equal(await page.textContent('#verdict'), 'NOT CONFORMANT');
  for (const [verdict, n] of Object.entries(results.counts)) {
    assert.equal(await page.textContent(`#counts [data-verdict="${verdict}"] b`), String(n), `${verdict} count`);
  }
  assert.equal(await page.locator('details.check').count(), results.checks.length);
  assert.match((await page.textContent('.banner'))!, /refresh-token-reusable/);

  // The failing check is closed; opening it builds its evidence.
  const row = page.locator(rowSelector(FAILING_CHECK));
  assert.match((await row.locator('summary').textContent())!, /refresh token reused at .* was accepted: 200/);
  assert.equal(await row.locator('.evidence').count(), 0, 'evidence is built lazily');
  await row.locator('summary').click();
  const evidence = row.locator('.evidence');
  await evidence.waitFor();
  const exchanges = evidence.locator('section.exchange');
  const failing = results.checks.find((c) => c.id === FAILING_CHECK)!;
  assert.equal(await exchanges.count(), failing.evidence.length);
  const last = exchanges.last();
  assert.match((await last.locator('header').textContent())!, /second use of the same refresh token/);
  assert.match((await last.locator('.request-line').textContent())!, /POST http:\/\/127\.0\.0\.1:\d+\/v1\/oauth\/token → 200/);
  assert.match((await last.locator('.curl pre').textContent())!, /^curl -sS -X POST .*\$REFRESH_TOKEN/);
  assert.match((await last.locator('pre.body').first().textContent())!, /"refresh_token": "«refresh_token#[0-9a-f]{8}»"/);
  assert.match((await evidence.locator('.details').textContent())!, /expected\s*a 4xx refusal/);
  const clause = results.requirements.find((r) => r.id === 'TOKEN-REFRESH-SINGLE-USE')!.clause;
  assert.ok((await evidence.locator('.spec-requirements').textContent())!.includes(`TOKEN-REFRESH-SINGLE-USE clause ${clause} MUST`), 'the evidence quotes the requirement and its clause');
  await page.evaluate(() => document.querySelectorAll('#filters')[0]!.hidden = true);
  await row.screenshot({ path: path.join(artifacts, 'failing-check-evidence.png') });
  await page.evaluate(() => document.querySelectorAll('#filters')[0]!.hidden = false);

  // Filters: the FAIL chip shows exactly the failing checks; then a requirement prefix; then text.
  await page.click('.filter-bar .chip[data-verdict="FAIL"]');
  const visibleIds = () =>
    page.evaluate(() => [...(document.querySelectorAll('details.check') as unknown as PageNode[])].filter((r) => !r.hidden && !r.closest('section')!.hidden).map((r) => r.id));
  assert.deepEqual((await visibleIds()).sort(), results.checks.filter((c) => c.verdict === 'FAIL').map((c) => `check-${c.id}`).sort());
  assert.equal(await page.getAttribute('#counts [data-verdict="FAIL"]', 'aria-pressed'), 'true', 'the banner count shows the filter');
  await page.click('#filter-reset');
  await page.fill('#filter-requirement', 'token-refresh');
  assert.deepEqual(
    (await visibleIds()).sort(),
    results.checks.filter((c) => c.requirements.some((r) => r.startsWith('TOKEN-REFRESH'))).map((c) => `check-${c.id}`).sort(),
  );
  await page.click('#filter-reset');
  await page.fill('#filter-text', 'jwk set');
  await page.waitForFunction(() => document.querySelectorAll('details.check:not([hidden])').length < 5);
  assert.deepEqual(await visibleIds(), ['check-auth.tokens-verify-against-jwks']);
  await page.click('#filter-reset');
  assert.equal((await visibleIds()).length, results.checks.length);

  // The traceability matrix: the broken requirement shows FAIL; requirements of other areas are uncovered by this run.
  assert.match((await page.textContent('tr[id="req-TOKEN-REFRESH-SINGLE-USE"]'))!, /auth\.refresh-token-single-use.*FAIL/s);
  const uncovered = results.requirements.filter((r) => r.checks.length === 0).length;
  assert.ok(uncovered > 0);
  assert.equal(await page.locator('tr.req-row.st-UNCOVERED').count(), uncovered);
  await page.check('#only-uncovered');
  assert.equal(await page.locator('tr.req-row:not([hidden])').count(), uncovered);
  await page.uncheck('#only-uncovered');

  // Following a requirement link from a check row lands on its matrix row.
  await page.click(`${rowSelector(FAILING_CHECK)} a.req`);
  assert.equal(await page.evaluate(() => location.hash), '#req-TOKEN-REFRESH-SINGLE-USE');

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(artifacts, 'report-top.png') });
  await page.screenshot({ path: path.join(artifacts, 'report-full.png'), fullPage: true });

  // junit.xml from the same run parses as XML with one testcase per check.
  const junit = readFileSync(path.join(run.dir, 'junit.xml'), 'utf8');
  const parsed = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    return { error: doc.querySelector('parsererror')?.textContent ?? null, cases: doc.querySelectorAll('testcase').length, failures: doc.querySelectorAll('testcase > failure').length };
  }, junit);
  assert.deepEqual(parsed, { error: null, cases: results.checks.length, failures: results.counts.FAIL });

  assert.deepEqual(problems, []);
  assert.deepEqual([...new Set(requests)], [pathToFileURL(file).href], 'the only request is the file itself');
  await page.close();
});

test('the copy button puts the curl line on the clipboard', async () => {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await page.goto(`${pathToFileURL(path.join(run.dir, 'index.html')).href}#check-${FAILING_CHECK}`);
  await page.waitForSelector('body[data-ready="true"]');
  const row = page.locator(rowSelector(FAILING_CHECK));
  await row.locator('.evidence').waitFor();
  const button = row.locator('button.copy').last();
  await button.click();
  await page.waitForFunction(() => [...(document.querySelectorAll('button.copy') as unknown as PageNode[])].some((b) => b.textContent === 'Copied'));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await row.locator('.curl pre').last().textContent());
  await context.close();
});

test('a baseline comparison shows the newly failing checks', async () => {
  const previous = buildResults({
    run: run.results.run,
    checks: run.results.checks.map((c) => (c.verdict === 'FAIL' ? { ...c, verdict: 'PASS' as const, reason: undefined } : c)),
  });
  const dir = path.join(scratch, 'compared');
  const written = writeReport(run.results, dir, { diff: compareWithBaseline(previous, run.results) });
  const { page, problems, requests } = await open(written.html);
  assert.match((await page.textContent('#baseline'))!, /Newly failing \(2\)/);
  assert.match((await page.textContent('#baseline'))!, /Newly passing \(0\)/);
  assert.match((await page.textContent(`${rowSelector(FAILING_CHECK)} .diff-mark`))!, /newly failing \(was PASS\)/);
  assert.deepEqual(problems, []);
  assert.deepEqual([...new Set(requests)], [pathToFileURL(written.html).href]);
  await page.close();
});

test('hostile evidence is shown as text: no script runs, nothing loads', async () => {
  const results = hostileResults();
  const written = writeReport(results, path.join(scratch, 'hostile'));
  const { page, problems, requests } = await open(written.html);
  const row = page.locator(rowSelector(results.checks[0]!.id));
  await row.locator('summary').click();
  await row.locator('.evidence').waitFor();
  await page.locator('.probe').first().waitFor();
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.ok((await row.locator('.check-reason').textContent())!.includes(PAYLOADS[1]!), 'the payload reads as text');
  assert.ok((await row.locator('pre.body').last().textContent())!.includes(PAYLOADS[0]!));
  assert.equal(await page.locator('img, iframe, link, script:not(#ptas-data):not(#ptas-evidence)').count(), 1, 'only our own script element');
  assert.deepEqual(problems, []);
  assert.deepEqual([...new Set(requests)], [pathToFileURL(written.html).href]);
  await page.close();
});

test('the load section draws the staircase, the bisection and the profiles as SVG', async () => {
  const results = syntheticResults({ checks: 30, loadRequests: 1_000_000 });
  const written = writeReport(results, path.join(scratch, 'load'));
  const { page, problems } = await open(written.html);
  const load = results.load!;
  assert.equal(await page.locator('#load article.probe').count(), load.probes.length + load.profiles.length);
  const charts = await page.locator('#load svg.chart').count();
  assert.ok(charts >= 5 * 2 + 1 + 4 * 3, `${charts} charts`);
  assert.match((await page.textContent('#load'))!, /429 onset 120 req\/s/);
  assert.match((await page.textContent('#load'))!, /1,000,000/);
  const bisection = load.probes.find((p) => p.kind === 'body-size')!;
  const bisectionArticle = page.locator('#load article.probe', { hasText: 'Body size (413) bisection' });
  assert.equal(await bisectionArticle.locator('table.steps tbody tr').count(), bisection.steps.length);
  assert.equal(await bisectionArticle.locator('svg.chart circle').count(), bisection.steps.length);
  // The sticky filter bar would cover the top of element screenshots.
  await page.evaluate(() => document.querySelectorAll('#filters')[0]!.hidden = true);
  // Off-screen articles are laid out only when scrolled to (content-visibility): scroll first, then measure.
  for (const [article, name] of [[page.locator('#load article.probe').first(), 'load-rate-limit.png'], [bisectionArticle, 'load-body-size.png']] as const) {
    await article.scrollIntoViewIfNeeded();
    await page.waitForTimeout(100);
    await article.screenshot({ path: path.join(artifacts, name) });
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('a check with hundreds of exchanges opens fifty at a time', async () => {
  const results = syntheticResults({ checks: 5 });
  const check = results.checks[0]!;
  const template = syntheticResults({ checks: 40 }).checks.flatMap((c) => c.evidence);
  check.evidence = Array.from({ length: 120 }, (_, i) => ({ ...template[i % template.length]!, id: i + 1 }));
  const written = writeReport(results, path.join(scratch, 'many'));
  const { page, problems } = await open(`${written.html}`);
  const row = page.locator(rowSelector(check.id));
  await row.locator('summary').click();
  await row.locator('.evidence').waitFor();
  assert.equal(await row.locator('section.exchange').count(), 50);
  await row.locator('button.more').click();
  assert.equal(await row.locator('section.exchange').count(), 100);
  assert.equal(await row.locator('button.more').textContent(), 'Show 20 more of 20 exchanges');
  await row.locator('button.more').click();
  assert.equal(await row.locator('section.exchange').count(), 120);
  assert.equal(await row.locator('button.more').isHidden(), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('in a browser without DecompressionStream the page still draws, and an opened check says where its exchanges are', async () => {
  const results = syntheticResults({ checks: 5 });
  const written = writeReport(results, path.join(scratch, 'no-decompression'));
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  await page.addInitScript(() => {
    delete (window as unknown as Record<string, unknown>).DecompressionStream;
  });
  await page.goto(pathToFileURL(written.html).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  const row = page.locator(rowSelector(results.checks[0]!.id));
  await row.locator('summary').click();
  const evidence = row.locator('.evidence');
  await evidence.waitFor();
  assert.match((await evidence.textContent())!, /The exchanges could not be expanded \(this browser has no DecompressionStream\)\. results\.json next to this file holds them\./);
  assert.equal(await evidence.locator('.spec-requirements').count(), 1, 'what the check is about still shows');
  assert.deepEqual(problems, []);
  await page.close();
});
