// index.html as text: self-contained, a strict CSP that matches the inline
// script and style, the data embedded losslessly and inertly, and hostile
// evidence unable to add markup. (browser.test.ts runs the page itself.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { renderHtml, type EmbeddedReportData } from '../../reports/html.ts';
import { unpackEvidence } from '../../reports/html/evidence-pack.ts';
import { hostileResults, PAYLOADS } from './support/hostile.ts';
import { syntheticResults } from './support/synthetic.ts';
import { completeResults } from './support/complete.ts';
import type { RunResults } from '../../src/results/model.ts';

function parts(html: string) {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
  const data = /<script type="application\/json" id="ptas-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  const evidence = /<script type="application\/gzip" data-encoding="base64" id="ptas-evidence">([\s\S]*?)<\/script>/.exec(html)?.[1];
  const script = /<script>([\s\S]*?)<\/script>\s*<\/body>/.exec(html)?.[1];
  assert.ok(csp && style && data && evidence !== undefined && script, 'page has CSP, style, data, evidence and script');
  const page = html.replace(data, '').replace(evidence, '');
  return { csp, style, data, evidence, script, page };
}

/** The results as the page's script sees them, its evidence expanded. */
function embedded(html: string): RunResults {
  const { data, evidence } = parts(html);
  return unpackEvidence((JSON.parse(data) as EmbeddedReportData).results, evidence);
}

const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

test('the CSP forbids every load and allows exactly the inline script and style', () => {
  const { csp, style, script } = parts(renderHtml(syntheticResults({ checks: 20, loadRequests: 50_000 })));
  assert.match(csp, /default-src 'none'/);
  assert.ok(csp.includes(`script-src ${sha(script)}`), 'script hash matches');
  assert.ok(csp.includes(`style-src ${sha(style)}`), 'style hash matches');
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
});

test('the page references nothing outside itself', () => {
  const { page } = parts(renderHtml(syntheticResults({ checks: 20, loadRequests: 50_000 })));
  assert.doesNotMatch(page, /\b(src|href)\s*=\s*["']?(https?:|\/\/)/i);
  assert.doesNotMatch(page, /url\(|@import|<link\b|<iframe\b|<img\b/i);
  assert.doesNotMatch(page, /\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|\beval\(|new Function|innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
});

test('the embedded data round-trips exactly, the evidence compressed apart from the rest', () => {
  const results = completeResults as unknown as RunResults;
  const html = renderHtml(results);
  assert.deepEqual(embedded(html), results);
  const { data } = parts(html);
  const shown = (JSON.parse(data) as EmbeddedReportData).results.checks;
  assert.ok(shown.length > 0 && shown.every((c) => !('evidence' in c) && !('timeline' in c)), 'no exchange or timeline in the JSON');
});

test('hostile evidence cannot add markup to the page', () => {
  const results = hostileResults();
  const html = renderHtml(results);
  const { data, evidence, page } = parts(html);
  assert.equal(html.match(/<script/gi)?.length, 3, 'only the data blocks and our script');
  assert.doesNotMatch(data, /[<>]/, 'the data block holds no markup character');
  assert.match(evidence, /^[A-Za-z0-9+/]*=*$/, 'the evidence block is base64');
  assert.deepEqual(embedded(html).checks[0]!.evidence, results.checks[0]!.evidence, 'the hostile exchange is kept as it was');
  for (const tag of ['<img', '<svg', '<iframe', '<link', '<a href="javascript', '<style>body{background:url(http']) {
    assert.ok(!page.includes(tag), `no ${tag} in the page`);
  }
  assert.ok(page.includes('&lt;/script&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;'), 'the implementation name is shown escaped');
  assert.deepEqual((JSON.parse(data) as EmbeddedReportData).results.checks[0]!.reason, results.checks[0]!.reason);
  assert.ok(PAYLOADS.length > 0);
});

test('the banner states the verdict, counts, metadata and the notices', () => {
  const results = syntheticResults({ checks: 40 });
  results.run.insecureTls = true;
  results.run.interrupted = 'interrupted (SIGINT)';
  results.verdict = 'INCOMPLETE';
  const html = renderHtml(results);
  assert.match(html, /<span class="verdict" id="verdict">INCOMPLETE<\/span>/);
  assert.match(html, /the run was cut short: interrupted \(SIGINT\)/);
  assert.match(html, /id="notice-interrupted"/);
  assert.match(html, /id="notice-insecure-tls"/);
  for (const [verdict, n] of Object.entries(results.counts)) assert.match(html, new RegExp(`data-verdict="${verdict}"[^>]*><b>${n}</b>`));
  for (const value of [results.run.suiteVersion, results.run.specVersion, results.run.profileHash, '2026-11-22 21:13:43 UTC', '36 min 6 s']) {
    assert.ok(html.includes(`>${value}</dd>`), `banner shows ${value}`);
  }
  assert.doesNotMatch(renderHtml(syntheticResults({ checks: 5 })), /notice-(interrupted|insecure-tls)/);
});

test('a thousand checks with a million-request load section stay under 3 MiB (the page) and 5 MiB (results.json)', () => {
  const results = syntheticResults({ checks: 1000, loadRequests: 1_000_000 });
  const page = Buffer.byteLength(renderHtml(results));
  const json = Buffer.byteLength(JSON.stringify(results));
  assert.ok(page < 3 * 1024 * 1024, `index.html: ${page} bytes`);
  assert.ok(json < 5 * 1024 * 1024, `results.json: ${json} bytes`);
});
