// The load probes' self-test (README, "How the suite proves its verdicts hold"): the clean reference
// passes every load check, and every fault of a requirement a load check
// covers is caught by that check. test/selftest/selftest.test.ts does the same
// for the conformance checks; load faults are only visible under load. A load
// fault of a cross-cutting requirement (rate-limit-429-html) is judged by the
// cross-cutting check over the load stage's exchanges (load/stage/crosscut.ts),
// as `ptas run` does, under the full profile and under its minimal profile.
// Every FAIL must name its sentence: a catalogue sentence, or the profile key and value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runLoadStage } from '../../load/stage.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';
import { FAULTS } from '../../reference/faults/index.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { spawnReferences } from '../../app/run/reference-process.ts';
import type { LoadProfile } from '../../src/config/sections/load.ts';
import { isCaught } from '../support/selftest.ts';
import { minimalProfile } from '../support/minimal-profile.ts';
import { loadFaults } from '../../reference/faults/load.ts';
import { CROSSCUT_CHECKS, scopeOfProfile } from '../../src/crosscut/index.ts';
import { withLoadEvidence } from '../../load/stage/crosscut.ts';
import type { CheckResult } from '../../src/check/model.ts';
import type { Fault } from '../../reference/faults/types.ts';

/** Which probe produces each load check: a fault run enables only that one. */
const PROBE_OF: Record<string, keyof NonNullable<LoadProfile['probes']>> = {
  'load.token-rate-limit': 'tokenRateLimit',
  'load.rate-limit-headers': 'tokenRateLimit',
  'load.token-body-size-limit': 'tokenBodyLimit',
  'load.accept-rate-limit': 'acceptRateLimit',
  'load.rate-limited-accept-not-executed': 'acceptRateLimit',
};

/** The probe that draws the answers a load fault of a cross-cutting requirement breaks. */
const CROSSCUT_PROBE_OF: Record<string, keyof NonNullable<LoadProfile['probes']>> = {
  'rate-limit-429-html': 'tokenRateLimit',
};

/** What the FAIL must say, where the acceptance criteria name the failure (issue 7). */
const REASON: Record<string, RegExp> = {
  'token-rate-limit-503': /503/,
  'no-token-rate-limit': /no 429 up to the cap/,
  'token-rate-limit-reset': /dropped connections/,
  'token-body-limit-reset': /closed without a status/,
  'token-body-limit-chunked-unchecked': /chunked/,
  'rate-limit-429-html': /429 \(text\/html/,
};

/**
 * What each FAIL rests on (src/results/verdict.ts): a limit not found is a
 * contradiction only of the limit the reference's profile documents (the spec
 * shows no value, 8); a wrong answer to an oversize body contradicts the
 * spec's "Request size limit (status 413)". A 503 on the token endpoint (its
 * row does not list it) or a dropped connection in place of the 429 is no
 * answer of the limiter (README "Verdicts": a gateway's, transient): what
 * those faults contradict is the documented limit, above which no 429 came.
 */
const BASIS: Record<string, { kind: 'spec' | 'profile-declared'; profileKey?: string; quote: RegExp }> = {
  'no-token-rate-limit': { kind: 'profile-declared', profileKey: 'load.tokenRateLimit.expectedRps', quote: /^Rate limit \(status 429\)/ },
  'no-accept-rate-limit': { kind: 'profile-declared', profileKey: 'load.acceptRateLimit.expectedRps', quote: /^Rate limit \(status 429\)/ },
  'no-token-body-limit': { kind: 'profile-declared', profileKey: 'load.tokenBodyLimit.expectedBytes', quote: /^Request size limit \(status 413\)/ },
  'token-rate-limit-503': { kind: 'profile-declared', profileKey: 'load.tokenRateLimit.expectedRps', quote: /^Rate limit \(status 429\)/ },
  'token-rate-limit-reset': { kind: 'profile-declared', profileKey: 'load.tokenRateLimit.expectedRps', quote: /^Rate limit \(status 429\)/ },
  // The spec's own words, not a table row ending in "not shown".
  'token-body-limit-reset': { kind: 'spec', quote: /^Request size limit \(status 413\) \| Token endpoint$/ },
  'token-body-limit-chunked-unchecked': { kind: 'spec', quote: /^Request size limit \(status 413\) \| Token endpoint$/ },
  'rate-limited-accept-executes': { kind: 'spec', quote: /^The platform starts processing at once\./ },
  'rate-limit-429-html': { kind: 'spec', quote: /^All request and response bodies are JSON/ },
};

/** Where a FAIL's basis falls short of what BASIS says it rests on; a profile-declared basis must carry its value. */
function basisProblem(fault: Fault, results: CheckResult[]): string | undefined {
  const basis = BASIS[fault.name];
  if (!basis) return undefined;
  const failed = results.find((c) => c.verdict === 'FAIL');
  const got = failed?.basis;
  const ok = got?.kind === basis.kind && got.profileKey === basis.profileKey && basis.quote.test(got.quote) && (got.kind !== 'profile-declared' || got.declaredValue !== undefined);
  return ok ? undefined : `${fault.name}: FAIL basis ${JSON.stringify(got)}, expected ${basis.kind} ${basis.profileKey ?? ''} ${basis.quote}`;
}

const only = process.env.PTAS_SELFTEST_ONLY?.split(',').filter(Boolean);
const covered = new Map(LOAD_CHECKS.flatMap((c) => c.requirements.map((r) => [r, c] as const)));
const crosscutting = new Set(CROSSCUT_CHECKS.flatMap((c) => c.requirements));
/** A load fault whose requirement a cross-cutting check covers: caught over the load stage's exchanges. */
const judgedByCrossCut = (f: Fault) => crosscutting.has(f.requirement) && loadFaults.includes(f);
const faults = FAULTS.filter((f) => covered.has(f.requirement) || judgedByCrossCut(f)).filter((f) => !only || only.some((o) => f.name === o || f.requirement.startsWith(o)));

type Profile = ReturnType<typeof referenceProfile>;

/** The reference's profile without a trade id in the offer status: execution is then told by the status a control offer reaches. */
function withoutTradeId(profile: Profile): Profile {
  const offerStatus = structuredClone(profile.trading!.offerStatus!);
  delete offerStatus.extract!.tradeId;
  return { ...profile, trading: { ...profile.trading, offerStatus } };
}

/** More profiles a fault is run under: each way the check can tell what it must catch. */
const MORE_PROFILES: Record<string, Array<{ suffix: string; adjust: (p: Profile) => Profile }>> = {
  'rate-limited-accept-executes': [{ suffix: 'without-trade-id', adjust: withoutTradeId }],
};

/** The fault's runs: under the reference's full profile, under its minimal profile when it declares one, and MORE_PROFILES. */
function profilesOf(fault: Fault, full: Profile): Array<{ name: string; profile: Profile }> {
  return [
    { name: fault.name, profile: full },
    ...(fault.minimalProfile ? [{ name: `${fault.name}@minimal-profile`, profile: minimalProfile(full, fault.minimalProfile) }] : []),
    ...(MORE_PROFILES[fault.name] ?? []).map((m) => ({ name: `${fault.name}@${m.suffix}`, profile: m.adjust(full) })),
  ];
}

/** The checks covering the fault's requirement in one load stage run (for a cross-cutting one: recomputed over its exchanges, as ptas run does). */
async function faultResults(fault: Fault, profile: Profile): Promise<CheckResult[]> {
  const probe = CROSSCUT_PROBE_OF[fault.name] ?? PROBE_OF[covered.get(fault.requirement)!.id]!;
  profile.load = { ...profile.load, probes: { tokenRateLimit: false, acceptRateLimit: false, tokenBodyLimit: false, [probe]: true } };
  const run = await runLoadStage({ profile, embeddedReference: true });
  const checks = judgedByCrossCut(fault) ? withLoadEvidence([], run.checks, scopeOfProfile(profile)) : run.checks;
  return checks.filter((c) => c.requirements.includes(fault.requirement));
}

/** A stage some check of which did not pass while the generator could not start its arrivals on time. */
function starvedAndNotPassed(run: Awaited<ReturnType<typeof runLoadStage>>): boolean {
  const notPassed = run.checks.some((c) => c.verdict !== 'PASS' && !(c.severity === 'REVIEW' && c.verdict === 'REVIEW'));
  return notPassed && generatorNotes(run).some((note) => /could not be started on time/.test(note));
}

/** What the rate probes said of a generator that did not hold their plan. */
function generatorNotes(run: Awaited<ReturnType<typeof runLoadStage>>): string[] {
  return (run.load?.probes ?? []).flatMap((p) => (p.kind === 'rate-limit' && p.generatorNote ? [p.generatorNote] : []));
}

test('load self-test: the clean reference passes every load check, every load fault is caught', { timeout: 10 * 60_000 }, async (t) => {
  assert.ok(only || faults.length >= 10, `${faults.length} load faults`);
  const started = performance.now();
  const farm = await spawnReferences([{ faults: [] }, ...faults.map((f) => ({ faults: [f.name] }))]);
  try {
    const clean = farm.servers[0]!;
    // A stage in which the machine starved the generator (arrivals started late and dropped: seen once in CI, while another
    // test file's load ran beside this one, as "no 429 up to 800 req/s … allow a longer run") measured the machine, not the
    // reference: it is run again, up to three times in all. (A staircase now climbs again itself when a climb drew no 429
    // while its generator fell behind, load/probes/rate-limit/run.ts; this covers a stage starved through every climb, and
    // the other probes.) The faults below are judged on whatever their runs saw.
    let cleanRun = await runLoadStage({ profile: referenceProfile(clean.url, clean.options), embeddedReference: true });
    for (let tries = 1; tries < 3 && starvedAndNotPassed(cleanRun); tries++) {
      t.diagnostic(`clean run ${tries}: the generator was starved (${generatorNotes(cleanRun).join('; ')}); running it again`);
      cleanRun = await runLoadStage({ profile: referenceProfile(clean.url, clean.options), embeddedReference: true });
    }
    assert.deepEqual(
      cleanRun.checks.filter((c) => c.verdict !== 'PASS' && !(c.severity === 'REVIEW' && c.verdict === 'REVIEW')).map((c) => `${c.id}: ${c.verdict} ${c.reason}`),
      [],
      'the clean reference must pass every load check',
    );
    assert.deepEqual(cleanRun.checks.map((c) => c.id).sort(), LOAD_CHECKS.map((c) => c.id).sort());
    assert.equal(cleanRun.load?.probes.length, 3);
    // The error answers the clean stage received (its 429s and 413s, one of each kind) are JSON.
    const cleanCrossCut = withLoadEvidence([], cleanRun.checks, { baseUrl: clean.url });
    assert.deepEqual(cleanCrossCut.map((c) => `${c.id}: ${c.verdict}`), ['errors.error-bodies-are-json: PASS'], JSON.stringify(cleanCrossCut.map((c) => c.reason ?? c.findings)));
    assert.match(cleanCrossCut[0]!.findings.map((f) => f.message).join(' '), /token endpoint 413\/429/, 'the load stage\'s 413 and 429 answers were judged');
    // Without a trade id, the refused offers' statuses (superseded, not "accepted") show no execution either.
    const statusOnly = withoutTradeId(referenceProfile(clean.url, clean.options));
    statusOnly.load = { ...statusOnly.load, probes: { tokenRateLimit: false, tokenBodyLimit: false, acceptRateLimit: true } };
    const cleanStatusOnly = (await runLoadStage({ profile: statusOnly, embeddedReference: true })).checks.find((c) => c.id === 'load.rate-limited-accept-not-executed')!;
    assert.equal(cleanStatusOnly.verdict, 'PASS', `${cleanStatusOnly.reason}`);
    assert.match(cleanStatusOnly.reason ?? '', /executed would show status "accepted", which the control offer reached/);

    const missed: string[] = [];
    let runs = 0;
    for (const [i, fault] of faults.entries()) {
      const server = farm.servers[i + 1]!;
      for (const { name, profile } of profilesOf(fault, referenceProfile(server.url, server.options))) {
        runs++;
        const results = await faultResults(fault, profile);
        t.diagnostic(`${name} (${fault.requirement}): ${results.map((c) => `${c.id}=${c.verdict}: ${c.reason}`).join('; ')}`);
        const pattern = REASON[fault.name];
        const explained = !pattern || results.some((c) => pattern.test(c.reason ?? ''));
        if (!isCaught(results) || !explained) missed.push(`${name}: ${results.map((c) => `${c.id}=${c.verdict} ${c.reason}`).join(', ')}`);
        const problem = basisProblem(fault, results);
        if (problem) missed.push(`${name}: ${problem}`);
      }
    }
    const score = `${runs - missed.length}/${runs}`;
    t.diagnostic(`load mutation score: ${score} fault runs caught in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    process.stdout.write(`# load mutation score: ${score} fault runs caught\n`);
    assert.deepEqual(missed, [], 'load faults no check caught');
  } finally {
    await farm.stop();
  }
});
