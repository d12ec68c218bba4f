// The terminal summary: short, and complete about what matters in CI logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { terminalSummary } from '../../reports/terminal.ts';
import { syntheticResults } from './support/synthetic.ts';

test('verdict, counts, each failure with its requirement, and the load headline figures', () => {
  const results = syntheticResults({ checks: 60, loadRequests: 100_000 });
  const summary = terminalSummary(results);
  const c = results.counts;
  assert.match(summary, new RegExp(`^\\n${results.verdict}  ${results.run.target}\\n`));
  assert.ok(summary.includes(`${c.PASS} pass, ${c.FAIL} fail, ${c.WARN} warn, ${c.REVIEW} review, ${c.SKIP} skip, ${c.ERROR} error`));
  for (const check of results.checks.filter((x) => x.verdict === 'FAIL')) {
    assert.ok(summary.includes(`  FAIL ${check.id} [${check.requirements.join(', ')}]: ${check.reason}`));
  }
  assert.match(summary, /load PASS load\.token-rate-limit: 429 onset 120 req\/s, limit ≈ 100 req\/s/);
  assert.match(summary, /load PASS load\.token-body-size-limit: smallest 413 body 65537 B, largest accepted 65536 B/);
  assert.match(summary, /load profile stress: /);
});

test('notices for an interrupted run and switched-off TLS verification; long lists are cut', () => {
  const results = syntheticResults({ checks: 10 });
  results.run.interrupted = 'interrupted (SIGINT)';
  results.run.insecureTls = true;
  results.checks = Array.from({ length: 30 }, (_, i) => ({ ...results.checks[0]!, id: `auth.failing-${i}`, verdict: 'FAIL' as const, reason: 'broken' }));
  const summary = terminalSummary(results);
  assert.match(summary, /INTERRUPTED: interrupted \(SIGINT\)/);
  assert.match(summary, /TLS certificate verification was OFF/);
  assert.equal(summary.match(/^ {2}FAIL auth\.failing-/gm)?.length, 20);
  assert.match(summary, /… and 10 more \(see the report\)/);
});
