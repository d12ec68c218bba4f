// The load probes' self-test (README, "How the suite proves its verdicts hold"): the clean reference
// passes every load check, and every fault of a requirement a load check
// covers is caught by that check. test/selftest/selftest.test.ts does the same
// for the conformance checks; load faults are only visible under load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { runLoadStage } from '../../load/stage.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';
import { FAULTS } from '../../reference/faults/index.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { spawnReferences } from '../../app/run/reference-process.ts';
import type { LoadProfile } from '../../src/config/sections/load.ts';
import { isCaught } from '../support/selftest.ts';

/** Which probe produces each load check: a fault run enables only that one. */
const PROBE_OF: Record<string, keyof NonNullable<LoadProfile['probes']>> = {
  'load.token-rate-limit': 'tokenRateLimit',
  'load.rate-limit-headers': 'tokenRateLimit',
  'load.token-body-size-limit': 'tokenBodyLimit',
  'load.accept-rate-limit': 'acceptRateLimit',
  'load.rate-limited-accept-not-executed': 'acceptRateLimit',
};

/** What the FAIL must say, where the acceptance criteria name the failure (issue 7). */
const REASON: Record<string, RegExp> = {
  'token-rate-limit-503': /503/,
  'no-token-rate-limit': /no 429 up to the cap/,
  'token-rate-limit-reset': /dropped connections/,
  'token-body-limit-reset': /closed without a status/,
  'token-body-limit-chunked-unchecked': /chunked/,
};

/**
 * What each FAIL rests on (src/results/verdict.ts): a limit not found is a
 * contradiction only of the limit the reference's profile documents (the spec
 * shows no value, 8); a wrong answer to load or to an oversize body
 * contradicts the spec's "Rate limit (status 429)" / "Request size limit (status 413)".
 */
const BASIS: Record<string, { kind: 'spec' | 'profile-declared'; profileKey?: string }> = {
  'no-token-rate-limit': { kind: 'profile-declared', profileKey: 'load.tokenRateLimit.expectedRps' },
  'no-accept-rate-limit': { kind: 'profile-declared', profileKey: 'load.acceptRateLimit.expectedRps' },
  'no-token-body-limit': { kind: 'profile-declared', profileKey: 'load.tokenBodyLimit.expectedBytes' },
  'token-rate-limit-503': { kind: 'spec' },
  'token-rate-limit-reset': { kind: 'spec' },
  'token-body-limit-reset': { kind: 'spec' },
  'token-body-limit-chunked-unchecked': { kind: 'spec' },
  'rate-limited-accept-executes': { kind: 'spec' },
};

const quiet = new Writable({ write: (_chunk, _enc, done) => done() });
const only = process.env.PTAS_SELFTEST_ONLY?.split(',').filter(Boolean);
const covered = new Map(LOAD_CHECKS.flatMap((c) => c.requirements.map((r) => [r, c] as const)));
const faults = FAULTS.filter((f) => covered.has(f.requirement)).filter((f) => !only || only.some((o) => f.name === o || f.requirement.startsWith(o)));

test('load self-test: the clean reference passes every load check, every load fault is caught', { timeout: 10 * 60_000 }, async (t) => {
  assert.ok(faults.length >= 9, `${faults.length} load faults`);
  const started = performance.now();
  const farm = await spawnReferences([{ faults: [] }, ...faults.map((f) => ({ faults: [f.name] }))]);
  try {
    const clean = farm.servers[0]!;
    const cleanRun = await runLoadStage({ profile: referenceProfile(clean.url, clean.options), embeddedReference: true, output: quiet });
    assert.deepEqual(
      cleanRun.checks.filter((c) => c.verdict !== 'PASS' && !(c.severity === 'REVIEW' && c.verdict === 'REVIEW')).map((c) => `${c.id}: ${c.verdict} ${c.reason}`),
      [],
      'the clean reference must pass every load check',
    );
    assert.deepEqual(cleanRun.checks.map((c) => c.id).sort(), LOAD_CHECKS.map((c) => c.id).sort());
    assert.equal(cleanRun.load?.probes.length, 3);

    const missed: string[] = [];
    for (const [i, fault] of faults.entries()) {
      const server = farm.servers[i + 1]!;
      const check = covered.get(fault.requirement)!;
      const probe = PROBE_OF[check.id]!;
      const profile = referenceProfile(server.url, server.options);
      profile.load = { ...profile.load, probes: { tokenRateLimit: false, acceptRateLimit: false, tokenBodyLimit: false, [probe]: true } };
      const run = await runLoadStage({ profile, embeddedReference: true, output: quiet });
      const results = run.checks.filter((c) => c.requirements.includes(fault.requirement));
      t.diagnostic(`${fault.name} (${fault.requirement}): ${results.map((c) => `${c.id}=${c.verdict}: ${c.reason}`).join('; ')}`);
      const pattern = REASON[fault.name];
      const explained = !pattern || results.some((c) => pattern.test(c.reason ?? ''));
      if (!isCaught(results) || !explained) missed.push(`${fault.name}: ${results.map((c) => `${c.id}=${c.verdict} ${c.reason}`).join(', ')}`);
      const basis = BASIS[fault.name];
      const failed = results.find((c) => c.verdict === 'FAIL');
      if (basis && (failed?.basis?.kind !== basis.kind || failed.basis.profileKey !== basis.profileKey)) {
        missed.push(`${fault.name}: FAIL basis ${JSON.stringify(failed?.basis)}, expected ${JSON.stringify(basis)}`);
      }
    }
    const score = `${faults.length - missed.length}/${faults.length}`;
    t.diagnostic(`load mutation score: ${score} faults caught in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    process.stdout.write(`# load mutation score: ${score} faults caught\n`);
    assert.deepEqual(missed, [], 'load faults no check caught');
  } finally {
    await farm.stop();
  }
});
