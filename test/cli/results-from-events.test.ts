// `ptas run` keeps what it told: results.json's checks are the check events
// its sink heard (src/run-events/heard-results.ts), each whole (findings,
// evidence, record), and nothing else; a problem outside any check is told
// as an event and kept as one of the run's errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ptasRun } from '../../app/run/run.ts';
import type { CheckResult } from '../../src/check/model.ts';
import type { RunEvent } from '../../src/run-events/events.ts';

test('results.json holds exactly the checks the run\'s events told, whole, and the terminal\'s log came through the same sink', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ptas-events-'));
  try {
    const heard: RunEvent[] = [];
    const outcome = await ptasRun({ profile: {}, outDir: out, grep: 'users\\.details-schema|users\\.unknown-user-404', load: false, events: (e) => heard.push(e) });
    const told = heard.filter((e): e is Extract<RunEvent, { kind: 'check' }> => e.kind === 'check').map((e) => e.check);
    const kept = (JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { checks: CheckResult[] }).checks;
    assert.ok(told.some((c) => c.id === 'users.details-schema') && told.some((c) => c.id === 'errors.error-bodies-are-json'), told.map((c) => c.id).join(', '));
    assert.deepEqual(
      kept.map((c) => [c.id, c.verdict, c.record, c.evidence.length]),
      told.map((c) => [c.id, c.verdict, JSON.parse(JSON.stringify(c.record)), c.evidence.length]),
    );
    assert.ok(told.find((c) => c.id === 'users.details-schema')!.evidence.length > 0, 'a runner check arrives whole, with its evidence');
    assert.ok(heard.some((e) => e.kind === 'log' && /PASS\s+users\.details-schema/.test(e.line)), 'the progress lines too');
    assert.equal(outcome.results.checks.length, told.length);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
