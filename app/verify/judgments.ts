// `ptas verify`, the judgments: every verdict in results.json is what the
// check's record judges to (src/check/record.ts, a load probe's analysis
// included: load/stage/probe-judgment.ts). Under the suite version that
// judged the run, a verdict that its record does not give was changed after
// the run — even in an unsigned bundle whose reports and hashes were all
// rewritten to agree with it. Under another version the judgments may
// rightly differ: that is `ptas rejudge`'s question, not a discrepancy.
import type { RunResults } from '../../src/results/model.ts';
import type { JudgingSuite } from '../../src/results/rejudge.ts';
import type { VerifyStep } from './steps.ts';

export function verifyJudgments(results: RunResults, suite: JudgingSuite): VerifyStep {
  const name = 'judgments';
  if (results.run.suiteVersion !== suite.version) {
    return { name, ok: true, detail: `judged by suite ${results.run.suiteVersion}, this is ${suite.version}: not judged again here (ptas rejudge shows what this version says)` };
  }
  let judged = 0;
  for (const check of results.checks) {
    const meta = suite.metaOf(check.id);
    // A check merged from attempts folds them (ptas verify checks that fold), and one recorded before records has none to judge.
    if (!meta || !check.record || check.attempts?.length) continue;
    const given = check.waived?.verdict ?? check.verdict;
    const again = suite.judge(meta, check.record).verdict;
    if (again !== given) return { name, ok: false, detail: `results.json: check ${check.id} (target ${check.target}) says ${given}, but what it recorded judges to ${again}: its verdict was changed after the run` };
    judged++;
  }
  return { name, ok: true, detail: `${judged} verdicts are what their checks' records judge to (suite ${suite.version})` };
}
