// The proof that the suite's verdicts can be trusted (README, "How the suite
// proves its verdicts hold"), in one run: the clean reference passes every check; every fault of
// the reference is caught by the checks covering the requirement it breaks
// (sensitivity: the mutation score), also under latency and closed
// connections; every legitimate variant — alone, and all compatible ones
// together — and every real-world condition — alone on the areas it touches,
// and all at once on every check — is CONFORMANT with no FAIL and no ERROR
// (specificity).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { VARIANTS } from '../../reference/variants/index.ts';
import { CONDITIONS } from '../../reference/conditions/index.ts';
import { conformanceFaults, runSelfTest, type FaultVerdict } from '../support/selftest.ts';
import type { ExpectedCatch } from './fault-basis.ts';
import { judgeBases, sameCatch } from '../support/basis-judgment.ts';
import { corpusOf, corpusFlips, describeFlip, writeCorpus } from '../support/corpus.ts';
import { installedSuite } from '../../app/rejudge/rejudge.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { suiteVersion } from '../../src/version.ts';
import { execFileSync } from 'node:child_process';

// PTAS_SELFTEST_ONLY=name,name (fault or variant names, or requirement-id prefixes) narrows the run while developing.
const only = process.env.PTAS_SELFTEST_ONLY?.split(',').filter(Boolean);
// PTAS_SELFTEST_WORKERS=N sets the number of Playwright workers (default: test/support/selftest.ts).
const faults = (await conformanceFaults()).filter((f) => !only || only.some((o) => f.name === o || f.requirement.startsWith(o)));
const variants = VARIANTS.filter((v) => !only || only.includes(v.name));
const conditions = CONDITIONS.filter((c) => !only || only.includes(c.name));

// PTAS_SELFTEST_VERDICTS=file writes every target's check verdicts (target → check id → verdict):
// diff two such files to prove a refactoring changed no verdict.
const verdictsFile = process.env.PTAS_SELFTEST_VERDICTS;
// PTAS_SELFTEST_BASIS=file writes what each fault was caught on (check and basis, over its runs): the shape of fault-basis.ts.
const basisFile = process.env.PTAS_SELFTEST_BASIS;
/** PTAS_SELFTEST_CORPUS=file writes the run's records as the recorded corpus (npm run corpus:record). */
const corpusFile = process.env.PTAS_SELFTEST_CORPUS;

const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : 100).toFixed(1);

test('self-test: clean reference passes, every fault is caught (also under latency and closed connections), every legitimate variant and every real-world condition is conformant', { timeout: 12 * 60_000 }, async (t) => {
  const result = await runSelfTest({ faults, variants, conditions }, { workers: Number(process.env.PTAS_SELFTEST_WORKERS) || undefined });
  if (verdictsFile) writeFileSync(verdictsFile, JSON.stringify(verdictsByTarget(result), null, 2) + '\n');
  if (basisFile) writeFileSync(basisFile, JSON.stringify(observedBases(result.faults), null, 2) + '\n');
  // Observe, then judge: every verdict of the run judged again from its record gives the verdict and basis it has (issue 31).
  const corpus = corpusOf(result, { suiteVersion, gitCommit: gitCommit(), at: new Date().toISOString() });
  await listAllChecks();
  const { flips } = corpusFlips(corpus, installedSuite());
  t.diagnostic(`judged again from their records: ${corpus.targets.reduce((n, c) => n + c.checks.length + c.loadChecks.length, 0)} verdicts, ${flips.length} changed`);
  assert.deepEqual(flips.map(describeFlip), [], 'verdicts that judging their records again does not give');
  if (corpusFile) t.diagnostic(`corpus written to ${corpusFile}: ${writeCorpus(corpus, corpusFile)} bytes`);
  assert.deepEqual(result.errors, [], 'the check runner reported errors');

  const falseFailures = result.clean.filter((c) => c.verdict === 'FAIL' || c.verdict === 'WARN' || c.verdict === 'ERROR');
  assert.deepEqual(
    falseFailures.map((c) => `${c.id}: ${c.verdict} ${c.reason}`),
    [],
    'the clean reference must pass every check',
  );
  for (const c of result.clean.filter((c) => c.verdict === 'SKIP' || c.verdict === 'REVIEW')) {
    assert.ok(c.reason, `${c.id} is ${c.verdict} without a reason`);
  }

  const missed = result.faults.filter((f) => !f.caught);
  const notFlagged = result.faults.filter((f) => f.caught && !f.notConformant);
  const caught = result.faults.length - missed.length;
  const specific = result.variants.filter((v) => v.verdict === 'CONFORMANT' && v.falseVerdicts.length === 0);
  const variantChecks = result.variants.flatMap((v) => v.checks);
  const falseChecks = result.variants.flatMap((v) => v.falseVerdicts);
  t.diagnostic(`mutation score (sensitivity): ${caught}/${result.faults.length} faults caught (${percent(caught, result.faults.length)}%)`);
  t.diagnostic(
    `specificity: ${specific.length}/${result.variants.length} variant targets CONFORMANT (${percent(specific.length, result.variants.length)}%); ` +
      `${variantChecks.length - falseChecks.length}/${variantChecks.length} check verdicts free of FAIL and ERROR (${percent(variantChecks.length - falseChecks.length, variantChecks.length)}%)`,
  );
  const conformantUnder = result.conditions.filter((c) => c.verdict === 'CONFORMANT' && c.falseVerdicts.length === 0);
  t.diagnostic(`conditions: ${conformantUnder.length}/${result.conditions.length} condition targets CONFORMANT (${result.conditions.map((c) => c.target).join(', ')})`);
  t.diagnostic(`clean reference: ${result.clean.length} checks, ${result.clean.filter((c) => c.verdict === 'PASS').length} PASS`);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  t.diagnostic(`self-test time: ${seconds(result.durationMs)} in all (side by side: checks ${seconds(result.checksMs)}, load stages ${seconds(result.loadStagesMs)})`);

  assert.deepEqual(
    missed.map((f) => `${f.target} (${f.fault.requirement}): ${f.checks.map((c) => `${c.id}=${c.verdict}`).join(', ') || 'no covering check ran'}`),
    [],
    'faults no check caught',
  );
  assert.deepEqual(notFlagged.map((f) => f.target), [], 'faults of MUST requirements that left the run CONFORMANT');
  const { wrongBasis, collateral } = judgeBases(result.faults);
  t.diagnostic(`bases: ${result.faults.length - wrongBasis.length}/${result.faults.length} fault runs caught on the basis test/selftest/fault-basis.ts names; collateral findings: ${collateral.length}`);
  assert.deepEqual(wrongBasis, [], 'faults caught, but not by the check or on the basis fault-basis.ts names (or with no entry there)');
  assert.deepEqual(collateral, [], 'collateral findings: checks that FAILed (or WARNed) in a fault\'s run on something the fault does not concern');
  assert.deepEqual(
    result.variants.filter((v) => !specific.includes(v)).map((v) => `${v.target} → ${v.verdict}: ${v.falseVerdicts.map((c) => `${c.id}=${c.verdict} ${c.reason}`).join('; ') || 'no check FAILed or ERRORed'}`),
    [],
    'legitimate variants the suite does not find CONFORMANT (false verdicts)',
  );
  assert.deepEqual(
    result.conditions.filter((c) => !conformantUnder.includes(c)).map((c) => `${c.target} → ${c.verdict}: ${c.falseVerdicts.map((v) => `${v.id}=${v.verdict} ${v.reason}`).join('; ') || 'no check FAILed or ERRORed'}`),
    [],
    'real-world conditions under which the correct reference is not CONFORMANT',
  );
});

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function verdictsByTarget(result: Awaited<ReturnType<typeof runSelfTest>>): Record<string, Record<string, string>> {
  const byId = (checks: { id: string; verdict: string }[]) => Object.fromEntries(checks.map((c) => [c.id, c.verdict]).sort(([a], [b]) => a.localeCompare(b)));
  return {
    clean: byId(result.clean),
    ...Object.fromEntries(result.faults.map((f) => [`fault:${f.target}`, byId(f.checks)])),
    ...Object.fromEntries(result.variants.map((v) => [v.target, byId(v.checks)])),
    ...Object.fromEntries(result.conditions.map((c) => [c.target, byId(c.checks)])),
  };
}

/** What each fault was caught on over all its runs, as fault-basis.ts lists it. */
function observedBases(faults: FaultVerdict[]): Record<string, ExpectedCatch[]> {
  const out: Record<string, ExpectedCatch[]> = {};
  for (const f of faults) {
    const list = (out[f.fault.name] ??= []);
    for (const c of f.catches) if (!list.some((e) => sameCatch(e, c.check, c.basis))) list.push([c.check, c.basis]);
  }
  return out;
}
