// Hostile implementations: each behaviour must end the affected check in
// FAIL or ERROR with evidence and a reason, within the request timeout plus
// 2 s, without crashing the run, and without the suite's memory following a
// gigabyte body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTransport, HttpClient } from '../../src/http/client.ts';
import { Redactor } from '../../src/http/redact.ts';
import { runConformance } from '../../app/run/conformance.ts';
import { HOSTILE_BEHAVIOURS, startHostileServer } from '../support/hostile-server.ts';

const TIMEOUT_MS = 2_000;

test('every hostile behaviour ends in FAIL or ERROR with evidence, in bounded time', { timeout: 180_000 }, async (t) => {
  const hostile = await startHostileServer();
  t.after(() => hostile.close());
  const targets = HOSTILE_BEHAVIOURS.map((behaviour) => ({
    name: behaviour,
    grep: '@check:auth\\.token-response-(schema|is-json)(\\s|$)',
    profile: {
      baseUrl: `${hostile.url}/hostile/${behaviour}`,
      credentials: { clientId: 'hostile-client', clientSecret: 'hostile-secret-value' },
      http: { timeoutMs: TIMEOUT_MS },
    },
  }));
  const started = performance.now();
  // Two workers rather than the default four: fewer Playwright worker starts; each check's time is bounded on its own, whatever the count.
  const output = await runConformance({ targets, progress: false, workers: 2 });
  const wallMs = performance.now() - started;
  assert.deepEqual(output.errors, [], 'the run itself must not break');
  const rows: string[] = [];
  for (const behaviour of HOSTILE_BEHAVIOURS) {
    // The two token-response checks the grep selects; the run's cross-cutting checks are judged elsewhere.
    const checks = output.checks.filter((c) => c.target === behaviour && c.id.startsWith('auth.'));
    assert.equal(checks.length, 2, `${behaviour}: the checks did not run`);
    for (const check of checks) {
      rows.push(`${behaviour.padEnd(20)} ${check.id.padEnd(28)} ${check.verdict.padEnd(5)} ${String(check.durationMs).padStart(5)} ms  ${check.reason ?? ''}`);
      assert.ok(check.durationMs <= TIMEOUT_MS + 2_000, `${behaviour}: ${check.id} took ${check.durationMs} ms`);
      assert.ok(check.evidence.length >= 1, `${behaviour}: ${check.id} has no evidence`);
      assert.ok(!JSON.stringify(check).includes('hostile-secret-value'), `${behaviour}: the secret leaked`);
    }
    // Each behaviour breaks the token response; at least one of the two checks must say so, with a reason.
    const caught = checks.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR');
    assert.ok(caught.length >= 1, `${behaviour}: ${checks.map((c) => `${c.id}=${c.verdict}`).join(', ')}`);
    for (const check of caught) assert.ok(check.reason && check.reason.length > 10, `${behaviour}: ${check.id} has no clear reason`);
  }
  const table = `hostile behaviours (request timeout ${TIMEOUT_MS} ms, wall ${(wallMs / 1000).toFixed(1)} s):\n${rows.join('\n')}`;
  process.stdout.write(table.replace(/^/gm, '# ') + '\n');
  assert.deepEqual(hostile.redirectHits, [], 'a redirect to another origin was followed');
});

test('a gigabyte body and 10,000-deep JSON stay within a memory cap in the client', async (t) => {
  const hostile = await startHostileServer();
  t.after(() => hostile.close());
  const http = new HttpClient({ baseUrl: hostile.url, transport: createTransport({ timeoutMs: 10_000 }), redactor: new Redactor() });
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const big = await http.get('/hostile/gigabyte-body/x');
    assert.equal(big.truncated, true);
    const deep = await http.get('/hostile/deep-json/x');
    assert.ok(Array.isArray(deep.json));
  } finally {
    clearInterval(sampler);
  }
  const growthMb = (peak - before) / 1024 ** 2;
  t.diagnostic(`RSS growth while reading a 1 GiB body (8 MiB cap) and 10,000-deep JSON: ${growthMb.toFixed(1)} MiB`);
  assert.ok(growthMb < 150, `RSS grew by ${growthMb.toFixed(1)} MiB`);
});
