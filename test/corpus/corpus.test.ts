// The recorded corpus (test/support/corpus.ts), judged again by the suite as
// it now is: the fast guard of the verdict policy. Every recorded verdict and
// basis must come out the same; a policy change shows as the list of checks
// it changes, which its author accepts with `npm run corpus:update` (the
// corpus changes in the same commit, reviewed like a snapshot). The fault runs
// must still be caught on the basis test/selftest/fault-basis.ts names, the
// variants and conditions CONFORMANT, the clean reference free of findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckMeta, CheckResult } from '../../src/check/model.ts';
import { runVerdict } from '../../src/results/verdict.ts';
import type { JudgingSuite } from '../../src/results/rejudge.ts';
import { installedSuite } from '../../app/rejudge/rejudge.ts';
import { listAllChecks } from '../../app/run/list.ts';
import { judgeBases } from '../support/basis-judgment.ts';
import { corpusFlips, describeFlip, readCorpus, CORPUS_FILE } from '../support/corpus.ts';
import { catchesOf, isCaught } from '../support/selftest.ts';
import { statSync } from 'node:fs';

await listAllChecks();
const suite = installedSuite();
const corpus = readCorpus();

test('the recorded corpus judged again: every verdict and basis as recorded, every fault caught on its basis, every variant and condition CONFORMANT', (t) => {
  const started = performance.now();
  const { flips, judged } = corpusFlips(corpus, suite);
  const ms = performance.now() - started;
  const verdicts = [...judged.values()].reduce((n, checks) => n + checks.length, 0);
  t.diagnostic(`${corpus.targets.length} targets, ${verdicts} verdicts judged again in ${ms.toFixed(0)} ms from ${CORPUS_FILE} (${statSync(CORPUS_FILE).size} bytes, recorded by ${corpus.recordedBy.suiteVersion} at ${corpus.recordedBy.gitCommit ?? 'no commit'})`);
  assert.deepEqual(flips.map(describeFlip), [], 'the verdict policy changed these verdicts: if that is what the change means, accept them with npm run corpus:update and commit the corpus with the change');

  const faults = corpus.targets.filter((c) => c.kind === 'fault').map((target) => {
    const checks = judged.get(target)!;
    return { target: target.target, fault: { name: target.fault! }, caught: isCaught(checks), catches: catchesOf(checks) };
  });
  assert.deepEqual(faults.filter((f) => !f.caught).map((f) => f.target), [], 'fault runs no check catches any more');
  const { wrongBasis, collateral } = judgeBases(faults);
  assert.deepEqual(wrongBasis, [], 'fault runs caught, but not on the basis test/selftest/fault-basis.ts names');
  assert.deepEqual(collateral, [], 'collateral findings in fault runs');

  const mustBeConformant = corpus.targets.filter((c) => c.kind === 'variant' || c.kind === 'condition');
  const falseVerdicts = (checks: CheckResult[]) => checks.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').map((c) => `${c.id}=${c.verdict}`);
  assert.deepEqual(
    mustBeConformant.filter((c) => runVerdict({ checks: judged.get(c)!, errors: [] }) !== 'CONFORMANT' || falseVerdicts(judged.get(c)!).length).map((c) => `${c.target}: ${falseVerdicts(judged.get(c)!).join(', ')}`),
    [],
    'variants or conditions no longer CONFORMANT',
  );
  const clean = judged.get(corpus.targets.find((c) => c.kind === 'clean')!)!;
  assert.deepEqual(clean.filter((c) => ['FAIL', 'WARN', 'ERROR'].includes(c.verdict)).map((c) => `${c.id}=${c.verdict}`), [], 'the clean reference has findings');
});

/** The installed suite with one check's requirements replaced: a deliberate change of what its findings rest on. */
function withRequirements(checkId: string, requirements: string[]): JudgingSuite {
  return { ...suite, metaOf: (id) => (id === checkId ? ({ ...suite.metaOf(id)!, requirements } satisfies CheckMeta) : suite.metaOf(id)) };
}

test('a changed basis shows as the one flip it causes, naming the fault, the check, the recorded and the new basis', () => {
  const changed = withRequirements('auth.missing-bearer-is-401', ['AUTH-BEARER-INVALID-REJECTED']);
  const { flips } = corpusFlips(corpus, changed);
  const ofFault = flips.filter((f) => f.fault === 'missing-bearer-allowed');
  assert.ok(ofFault.length >= 1, 'the fault run of missing-bearer-allowed shows the change');
  assert.equal(describeFlip(ofFault[0]!), 'fault missing-bearer-allowed (target missing-bearer-allowed): auth.missing-bearer-is-401: recorded FAIL on AUTH-BEARER-REQUIRED, now FAIL on AUTH-BEARER-INVALID-REJECTED');
  // Only that check changed, wherever it FAILed; every other verdict of the corpus is as recorded.
  assert.deepEqual([...new Set(flips.map((f) => f.check))], ['auth.missing-bearer-is-401']);
});

test('a changed level shows as the flips it causes: a MUST check made SHOULD turns its FAILs into WARNs, and nothing else', () => {
  const meta = suite.metaOf('trading.second-accept-rejected')!;
  const changed: JudgingSuite = { ...suite, metaOf: (id) => (id === meta.id ? { ...meta, severity: 'SHOULD' } : suite.metaOf(id)) };
  const { flips } = corpusFlips(corpus, changed);
  assert.ok(flips.length >= 1);
  for (const flip of flips) {
    assert.equal(flip.check, meta.id);
    assert.match(flip.recorded, /^FAIL on /);
    assert.equal(flip.now, flip.recorded.replace(/^FAIL/, 'WARN'));
  }
});
