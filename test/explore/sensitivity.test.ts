// Sensitivity of exploration alone (no hand-written check runs): against
// each reference fault of an explored area, over a fixed seed and a fixed
// number of cases, exploration finds what test/explore/fault-table.ts says —
// the explored rule that catches it, and nothing for a fault it cannot catch
// by design — and no rule the table does not name for it (a collateral
// finding would blame something the fault does not concern). The areas whose
// cases wait (auth: the token endpoint's rate limit; trading: processing,
// polls and expiry; webhooks: deliveries and observation windows) find
// within a time budget, not a number of cases, and so
// does a fault whose every case waits: those are the bench's
// (`npm run bench -- explore-sensitivity`), over several seeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AREA_MODELS } from '../../explore/areas/index.ts';
import { exploreSeeds, exploredAreaOf, faultTargets, withReference } from '../support/explore-proof.ts';
import { EXPLORED_FAULTS, type Expected } from './fault-table.ts';
import type { AreaExploration } from '../../explore/engine.ts';

const SEED = 20261129;
const CASES = 1000;
/**
 * A fault's exploration ends once its rule is found and this many cases have
 * run: most are found within a few dozen cases, and the rest of the cases
 * only look for collateral findings (a rule the table does not name).
 */
const CASES_AFTER_FOUND = 300;
const PACED_AREAS = new Set(['auth', 'trading', 'webhooks']);

test('the table names every fault of the explored areas', () => {
  assert.deepEqual(faultTargets().map((t) => t.name).sort(), Object.keys(EXPLORED_FAULTS).sort());
});

test(`exploration alone finds each fault the table says it finds, by the rule it names, and nothing it does not name (seed ${SEED}, up to ${CASES} cases, ${CASES_AFTER_FOUND} once found)`, async (t) => {
  const problems: string[] = [];
  let found = 0;
  for (const target of faultTargets()) {
    const expected = EXPLORED_FAULTS[target.name]!;
    if (PACED_AREAS.has(exploredAreaOf(target.name)!) || ('slow' in expected && expected.slow)) continue;
    const models = AREA_MODELS.filter((m) => m.area === exploredAreaOf(target.name));
    const { above } = await withReference(target, (explored) => exploreSeeds(explored, [SEED], { maxCases: CASES, models, enough: foundAfter(expected, CASES_AFTER_FOUND) }));
    const rules = new Set(above.map((a) => a.check));
    const allowed = 'foundBy' in expected ? [expected.foundBy, ...(expected.alsoBy ?? [])] : [];
    if ('foundBy' in expected && !rules.has(expected.foundBy)) problems.push(`${target.name}: not found by ${expected.foundBy}`);
    if (rules.has('foundBy' in expected ? expected.foundBy : '')) found++;
    for (const a of above) if (!allowed.includes(a.check)) problems.push(`${target.name}: ${a.verdict} ${a.check} the table does not name: ${a.reason}`);
  }
  assert.deepEqual(problems, []);
  const paced = faultTargets().filter((f) => PACED_AREAS.has(exploredAreaOf(f.name)!)).length;
  t.diagnostic(`explored faults found by exploration alone: ${found} of ${faultTargets().length - paced} (the ${paced} of ${[...PACED_AREAS].join(', ')} are the bench's)`);
});

/** Whether a fault's exploration has seen enough: its rule found, after at least `cases` cases (a fault found by no rule runs them all). */
function foundAfter(expected: Expected, cases: number): (exploration: AreaExploration) => boolean {
  return (exploration) => 'foundBy' in expected && exploration.cases >= cases && exploration.findings.some((f) => f.rule.id === expected.foundBy);
}
