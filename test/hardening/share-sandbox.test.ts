// A shared report (/share/TOKEN) is read by whoever holds the link, on the
// lab's own origin, and its evidence comes from hostile servers: it must run
// sandboxed in an origin of its own, as the console frames a report
// (app/serve/console/security-headers.ts reportPolicy), so that nothing in it
// can read the lab's cookies or call the lab as a signed-in user (issue 28,
// finding 5). Against a real `ptas serve` with its console, over a store
// holding a finished run whose bundle is a report as `ptas run` writes it:
// the share page's policy carries the console's sandbox, and in Debian's
// Chromium the report still draws itself (its inline script ran) while its
// origin is opaque: no cookie of the lab, no storage.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import type { CheckResult } from '../../src/check/model.ts';
import { buildResults } from '../../src/results/build.ts';
import { suiteVersion, specVersion } from '../../src/version.ts';
import { writeReport } from '../../reports/write.ts';
import { writeBundle } from '../../app/certify/write-bundle.ts';
import { listAllChecks } from '../../app/run/list.ts';
import type { RunRecord } from '../../app/serve/contract.ts';
import { reportPolicy as consoleReportPolicy } from '../../app/serve/console/security-headers.ts';
import { reportPolicy as shareReportPolicy } from '../../app/serve/api/share.ts';
import { StoreLayout } from '../../app/serve/store/layout.ts';
import { RunStore } from '../../app/serve/store/runs.ts';
import { launchChromium } from '../report/support/browser.ts';
import { startConsoleTestServer, type TestServer } from '../serve/support.ts';

const RUN_ID = 'shared-run-0001';
const TARGET = 'https://sandbox.example.com';

/** A store with one finished run of the bundled reference and its bundle, as `ptas serve` keeps it. */
async function seededStore(): Promise<string> {
  const data = mkdtempSync(path.join(os.tmpdir(), 'ptas-share-sandbox-'));
  const layout = new StoreLayout(data);
  layout.ensure();
  const checks: CheckResult[] = (await listAllChecks()).map((meta) => ({ ...meta, verdict: 'PASS', findings: [], evidence: [], timeline: [], target: TARGET, durationMs: 10 }));
  const results = buildResults({
    run: { target: TARGET, suiteVersion, specVersion: specVersion(), profileHash: 'sha256:0123456789ab', startedAt: '2026-12-31T20:00:00.000Z', finishedAt: '2026-12-31T20:01:00.000Z', durationMs: 60_000, insecureTls: false },
    checks,
  });
  const bundle = layout.bundleDir(RUN_ID);
  writeReport(results, bundle);
  writeBundle({ dir: bundle, results, profile: { salt: 'ab', hashedSecrets: [], content: { baseUrl: TARGET } }, tlsCertificateSha256: null, requiredChecks: [] });
  const record: RunRecord = { id: RUN_ID, implementation: 'reference', options: { load: false }, status: 'finished', createdAt: results.run.startedAt, startedAt: results.run.startedAt, finishedAt: results.run.finishedAt, verdict: results.verdict, counts: results.counts };
  new RunStore(layout).save(record);
  return data;
}

let lab: TestServer;
let browser: Browser;
let shareUrl: string;

before(async () => {
  lab = await startConsoleTestServer({ dataDir: await seededStore() });
  const shared = await lab.call('POST', `/api/runs/${RUN_ID}/share`);
  assert.equal(shared.status, 201, shared.text);
  shareUrl = `${lab.url}${shared.json.url}`;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await lab?.close();
});

test('the share page\'s policy is the report\'s own, unframable, and sandboxed as the console sandboxes its framed report', async () => {
  const page = await fetch(shareUrl);
  const html = await page.text();
  const policy = page.headers.get('content-security-policy') ?? '';
  const sandbox = /(?:^|;\s*)(sandbox[^;]*)/.exec(policy)?.[1];
  assert.ok(sandbox, `no sandbox directive: ${policy}`);
  assert.equal(sandbox, /(?:^|;\s*)(sandbox[^;]*)/.exec(consoleReportPolicy(html))?.[1], 'the console\'s allowances, no more');
  assert.doesNotMatch(sandbox, /allow-same-origin|allow-top-navigation|allow-forms|allow-popups/);
  assert.match(policy, /frame-ancestors 'none'/);
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!.replaceAll('&#39;', "'");
  assert.ok(policy.startsWith(meta), 'the report\'s own policy first');
  assert.equal(shareReportPolicy(html), policy);
});

test('in Chromium the shared report draws itself (its script ran), in an opaque origin: no lab cookie, no storage', async () => {
  const context = await browser.newContext();
  // A cookie of the lab that a page of its origin could read (the console's own session cookie is HttpOnly).
  await context.addCookies([{ name: 'lab-probe', value: 'readable-by-the-lab-origin', url: lab.url }]);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(shareUrl);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  assert.equal(await page.textContent('#verdict'), 'CONFORMANT');
  assert.ok((await page.locator('details.check').count()) > 80, 'the checks were drawn');
  // A string, not a function: tsx would wrap a function's inner helpers in a __name the page does not have.
  const seen = (await page.evaluate(`(() => {
    const attempt = (read) => { try { return 'read: ' + String(read()); } catch (error) { return 'refused: ' + error.name; } };
    return { origin: window.origin, cookie: attempt(() => document.cookie), storage: attempt(() => window.localStorage) };
  })()`)) as { origin: string; cookie: string; storage: string };
  assert.equal(seen.origin, 'null', `the report runs in the lab's origin (${seen.origin})`);
  assert.doesNotMatch(seen.cookie, /readable-by-the-lab-origin/, `the report read the lab's cookie: ${seen.cookie}`);
  assert.match(seen.storage, /^refused: SecurityError/);
  assert.deepEqual(problems, []);
  await context.close();
});
