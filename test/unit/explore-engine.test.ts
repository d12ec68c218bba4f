// The exploration engine (explore/engine.ts, explore/results.ts) on models
// that send nothing: a case that contradicts a rule is shrunk to the smallest
// one that still does and kept only when it does so twice more; a rule
// contradicted once is recorded, never a finding; a seed repeats its cases;
// and each rule's result says what was found, exercised, inconclusive,
// left to a human or never reached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { exploreArea, type ExploreLimits } from '../../explore/engine.ts';
import { explorationResults } from '../../explore/results.ts';
import { defineExploreRule } from '../../explore/rule.ts';
import type { AreaExplorer, AreaModel } from '../../explore/model.ts';
import { exploreTarget } from '../../explore/target.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { CaseRun } from '../../explore/case-run.ts';

const LIMIT = defineExploreRule({ id: 'explore.crypto-transfers.engine-test-limit', title: 'numbers below 500', requirements: ['WDA-CREATE-SCHEMA'] });
const PARITY = defineExploreRule({ id: 'explore.crypto-transfers.engine-test-parity', title: 'odd numbers are for a human', requirements: ['WDA-REQUIRED-FIELDS'] });
const NEVER = defineExploreRule({ id: 'explore.crypto-transfers.engine-test-never', title: 'no case reaches it', requirements: ['WDA-KNOWN-VASP'] });
const RULES = [LIMIT, PARITY, NEVER];

/** A model of numbers: 500 and above contradicts LIMIT (as `contradicts` says), an odd number is recorded for a human. */
function numbers(contradicts: (n: number) => boolean = (n) => n >= 500): AreaModel<number> {
  return {
    area: 'crypto-transfers',
    rules: RULES,
    prepare: () => ({
      cases: fc.integer({ min: 0, max: 100_000 }),
      describe: (n) => `the number ${n}`,
      kindOf: (n) => (n % 2 ? 'odd' : 'even'),
      run: async (n, run) => {
        run.judge(LIMIT.id, (check) => (contradicts(n) ? check.fail(`${n} is 500 or more`) : check.note(`${n} is below 500`)));
        run.judge(PARITY.id, (check) => (n % 2 ? check.review(`${n} is odd`) : check.note(`${n} is even`)));
      },
    }),
  };
}

const target = exploreTarget({ baseUrl: 'http://127.0.0.1:9', credentials: { clientId: 'c', clientSecret: 's' } });
const limits = (extra: Partial<ExploreLimits> = {}): ExploreLimits => ({ seed: 42, deadline: Date.now() + 60_000, maxCases: 300, ...extra });

test('a contradicting case is shrunk to the smallest that still contradicts, reproduced twice, and its record is the finding', async () => {
  const exploration = await exploreArea(numbers(), target, limits({ findingNote: (f) => `seed ${f.seed}: ${f.description}` }));
  assert.equal(exploration.findings.length, 1);
  const [finding] = exploration.findings;
  assert.equal(finding!.rule.id, LIMIT.id);
  assert.equal(finding!.case, 500, 'fast-check shrinks to the boundary');
  assert.ok(finding!.shrinks > 0);
  const results = explorationResults(exploration, target.redactor, 1);
  const limit = results.find((r) => r.id === LIMIT.id)!;
  assert.equal(limit.verdict, 'FAIL');
  assert.match(limit.reason!, /500 is 500 or more/);
  assert.ok(limit.findings.some((f) => f.level === 'INFO' && /seed \d+: the number 500/.test(f.message)), 'the note names the case');
  // Judged again from its record, offline, it says the same.
  assert.equal(judgeRecord(LIMIT, limit.record!).verdict, 'FAIL');
});

test('each rule says what exploration saw of it: left to a human (REVIEW, one case of each kind), never reached (SKIP)', async () => {
  const exploration = await exploreArea(numbers(() => false), target, limits());
  assert.equal(exploration.findings.length, 0);
  assert.equal(exploration.cases, 300, 'a deterministic exploration stops after its cases');
  const byId = new Map(explorationResults(exploration, target.redactor, 1).map((r) => [r.id, r]));
  assert.equal(byId.get(LIMIT.id)!.verdict, 'PASS');
  assert.match(byId.get(LIMIT.id)!.reason ?? byId.get(LIMIT.id)!.findings.map((f) => f.message).join(), /300 generated case\(s\) exercised this rule/);
  const parity = byId.get(PARITY.id)!;
  assert.equal(parity.verdict, 'REVIEW');
  assert.equal(parity.findings.filter((f) => f.level === 'REVIEW').length, 1, 'one odd case kept, not one per odd number');
  assert.equal(byId.get(NEVER.id)!.verdict, 'SKIP');
  assert.match(byId.get(NEVER.id)!.reason!, /no generated case reached this rule/);
});

test('a rule contradicted once but not when the case runs twice more is recorded, never a finding', async () => {
  let contradicted = false;
  const once = (n: number) => {
    if (n < 500 || contradicted) return false;
    contradicted = true;
    return true;
  };
  const exploration = await exploreArea(numbers(once), target, limits());
  assert.equal(exploration.findings.length, 0);
  assert.deepEqual(exploration.unreproduced.map((u) => u.rule.id), [LIMIT.id]);
  const limit = explorationResults(exploration, target.redactor, 1).find((r) => r.id === LIMIT.id)!;
  assert.equal(limit.verdict, 'PASS');
  assert.ok(limit.findings.some((f) => /contradicted this rule once but not when it was run twice more/.test(f.message)));
});

test('a rule no case could observe is ERROR, saying why', async () => {
  const unanswered: AreaModel<number> = {
    ...numbers(),
    prepare: () => ({ cases: fc.nat(10), describe: String, run: async (_n, run) => run.judge(LIMIT.id, (check) => check.notObserved('the target did not answer')) }),
  };
  const result = explorationResults(await exploreArea(unanswered, target, limits({ maxCases: 20 })), target.redactor, 1).find((r) => r.id === LIMIT.id)!;
  assert.equal(result.verdict, 'ERROR');
  assert.match(result.reason!, /saw nothing to judge by: not observed: the target did not answer/);
});

test('the same seed makes the same cases; another seed others', async () => {
  const seen = async (seed: number) => {
    const cases: number[] = [];
    const recording: AreaModel<number> = { ...numbers(), prepare: () => ({ cases: fc.integer({ min: 0, max: 499 }), describe: String, run: async (n) => void cases.push(n) }) };
    await exploreArea(recording, target, limits({ seed, maxCases: 50 }));
    return cases;
  };
  assert.deepEqual(await seen(7), await seen(7));
  assert.notDeepEqual(await seen(7), await seen(8));
});

test('a model that cannot explore the profile skips every rule, naming the key', async () => {
  const unexplorable: AreaModel<number> = { ...numbers(), prepare: () => ({ unexplorable: 'no user', configKey: 'cryptoTransfers.userId' }) };
  const results = explorationResults(await exploreArea(unexplorable, target, limits()), target.redactor, 1);
  assert.deepEqual(new Set(results.map((r) => r.verdict)), new Set(['SKIP']));
  assert.equal(results[0]!.configKey, 'cryptoTransfers.userId');
});

test("a suite helper's events, told on the case's helper context, reach every rule's timeline; its claims reach no rule", () => {
  const run = new CaseRun(target, RULES);
  const helper = run.helperContext();
  helper.event('polled the offer', 'status accepted');
  helper.note('a set-up note of the helper');
  run.judge(LIMIT.id, (check) => check.note('judged'));
  run.judge(PARITY.id, (check) => check.note('judged'));
  for (const rule of [LIMIT, PARITY]) {
    const outcome = run.outcome(rule);
    assert.deepEqual(outcome.timeline.map((t) => t.event), ['polled the offer'], rule.id);
    assert.ok(!outcome.findings.some((f) => f.message.includes('set-up note')), `${rule.id}: the helper's note is no rule's`);
  }
});

test('an abort ends the generation at once: no case is made after it, long before the deadline (the Ctrl-C of a run, a proof that has seen enough)', async () => {
  let generated = 0;
  const counting: AreaModel<number> = {
    ...numbers(() => false),
    prepare: (profile) => {
      const explorer = numbers(() => false).prepare(profile) as AreaExplorer<number>;
      return { ...explorer, cases: explorer.cases.map((n) => (generated++, n)) };
    },
  };
  const stop = new AbortController();
  const started = performance.now();
  const exploration = await exploreArea(counting, target, limits({ maxCases: undefined, deadline: Date.now() + 60_000, signal: stop.signal, onCase: (e) => e.cases >= 20 && stop.abort() }));
  assert.equal(exploration.cases, 20);
  assert.ok(generated <= 22, `${generated} cases generated for 20 run: generation stops with the abort`);
  assert.ok(performance.now() - started < 30_000, 'ended with the abort, not at the deadline');
});
