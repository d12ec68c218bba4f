// Exploring one area: fast-check generates the model's cases from a seed and
// runs each against the target until the budget ends. A case whose judgment
// finds a rule contradicted (FAIL, or a SHOULD's WARN) that no earlier case
// found is shrunk to the smallest case that still finds a new one, then run
// twice more: a rule is found only when both runs find it again (a transient
// answer or timing never decides a rule). Exploration then goes on, with a
// new seed derived from the first, looking for the rules not found yet.
import fc from 'fast-check';
import type { CheckMeta, CheckOutcome } from '../src/check/model.ts';
import { CaseRun } from './case-run.ts';
import type { AreaExplorer, AreaModel, Unexplorable } from './model.ts';
import { isUnexplorable } from './model.ts';
import type { ExploreTarget } from './target.ts';

export interface ExploreLimits {
  /** The note a finding's record starts with: the case, its seed and path, and how to replay it. */
  findingNote?: (finding: Omit<RuleFinding, 'run'>) => string;
  /** The run's seed: every round's seed derives from it. */
  seed: number;
  /** When to stop generating cases (ms since the epoch). */
  deadline: number;
  /** Stop after this many generated cases (shrinking not counted): a deterministic exploration. */
  maxCases?: number;
  signal?: AbortSignal;
  /** A finding, or a rule contradicted once and not again: a line for the run's log. */
  progress?: (line: string) => void;
  /** After each generated case: how far the exploration is (the stage shows it as live progress). */
  onCase?: (exploration: AreaExploration) => void;
}

/** A rule a generated case contradicted, shrunk and reproduced. */
export interface RuleFinding {
  rule: CheckMeta;
  /** The shrunk case, as the model made it (plain JSON). */
  case: unknown;
  description: string;
  /** The seed of the round that found it and fast-check's path to the shrunk case: with them fast-check replays it. */
  seed: number;
  path: string;
  shrinks: number;
  /** The second reproduction: its exchanges and claims are the finding's. */
  run: CaseRun;
}

/** A case whose judgment of a rule is for a human (REVIEW): what the spec leaves open, recorded with its exchanges. */
export interface RecordedCase {
  /** The case's kind: one case of each is kept. */
  kind: string;
  description: string;
  findings: CheckOutcome['findings'];
  evidence: CheckOutcome['evidence'];
}

/** How many cases for a human a rule keeps: the first ones, each of another kind (the case's description without its values). */
const RECORDED_CASES = 5;

export interface RuleTally {
  /** Cases whose judgment of the rule concluded (PASS, REVIEW, INFO, or a finding). */
  judged: number;
  /** The first cases whose judgment of the rule was REVIEW, one of each kind. */
  recorded: RecordedCase[];
  /** Cases that reached the rule but saw nothing to judge by (ERROR: no answer, a transient one). */
  inconclusive: number;
  lastInconclusive?: string;
}

export interface AreaExploration {
  area: string;
  rules: readonly CheckMeta[];
  seed: number;
  /** Generated cases run (shrinking and reproductions not counted). */
  cases: number;
  /** Cases run while shrinking and reproducing. */
  extraRuns: number;
  tallies: Map<string, RuleTally>;
  findings: RuleFinding[];
  /** A rule a case contradicted once that did not do so again when the case was run twice more: recorded, never a finding. */
  unreproduced: Array<{ rule: CheckMeta; description: string }>;
  unexplorable?: Unexplorable;
  /** Why exploring stopped before its budget, when it did: a bug of the model, the run stopped. */
  stopped?: string;
}

/** A round's seed, derived from the run's (fast-check seeds are 32-bit integers). */
export function roundSeed(seed: number, round: number): number {
  return (seed + Math.imul(round, 0x9e3779b1)) | 0;
}

/** Extra time the shrinking of a case found just before the deadline may take. */
const SHRINK_GRACE_MS = 10_000;

type Verdictish = 'finding' | 'judged' | 'inconclusive';

function classify(run: CaseRun, rule: CheckMeta): { kind: Verdictish; reason?: string; outcome: CheckOutcome } {
  const outcome = run.outcome(rule);
  if (outcome.verdict === 'FAIL' || outcome.verdict === 'WARN') return { kind: 'finding', outcome };
  if (outcome.verdict === 'ERROR') return { kind: 'inconclusive', reason: outcome.reason, outcome };
  return { kind: 'judged', outcome };
}

/** Runs one case; `preface`, a note every rule's record starts with (what case this is, and how to replay it). */
export async function runCase<C>(explorer: AreaExplorer<C>, rules: readonly CheckMeta[], target: ExploreTarget, c: C, preface?: (rule: CheckMeta) => string): Promise<CaseRun> {
  const run = new CaseRun(target, rules);
  if (preface) for (const rule of rules) run.note(rule.id, preface(rule));
  try {
    await explorer.run(c, run);
  } catch (error) {
    run.broken = error instanceof Error ? error.message : String(error);
  }
  return run;
}

/** The rules a run found contradicted. */
export function findingsOf(run: CaseRun): CheckMeta[] {
  return run.reachedRules().filter((rule) => classify(run, rule).kind === 'finding');
}

export async function exploreArea(model: AreaModel, target: ExploreTarget, limits: ExploreLimits): Promise<AreaExploration> {
  const exploration: AreaExploration = { area: model.area, rules: model.rules, seed: limits.seed, cases: 0, extraRuns: 0, tallies: new Map(), findings: [], unreproduced: [] };
  const prepared = model.prepare(target.profile);
  if (isUnexplorable(prepared)) return { ...exploration, unexplorable: prepared };
  const explorer = prepared as AreaExplorer<unknown>;
  for (const rule of model.rules) exploration.tallies.set(rule.id, { judged: 0, recorded: [], inconclusive: 0 });
  const known = new Set<string>();
  const stopped = () => limits.signal?.aborted || Date.now() >= limits.deadline || (limits.maxCases !== undefined && exploration.cases >= limits.maxCases);

  for (let round = 0; !stopped() && known.size < model.rules.length; round++) {
    const seed = roundSeed(limits.seed, round);
    let shrinking = false;
    /** The new rules the last failing case found: that case is the shrunk one. */
    let lastFound: CheckMeta[] = [];
    const property = fc.asyncProperty(explorer.cases, async (c) => {
      // Interrupts the generation (as fast-check's time limit does): returning true would have it generate on until the deadline.
      if (limits.signal?.aborted) throw new fc.PreconditionFailure(true);
      if (!shrinking && limits.maxCases !== undefined && exploration.cases >= limits.maxCases) return true;
      const run = await runCase(explorer, model.rules, target, c);
      if (shrinking) exploration.extraRuns++;
      else {
        exploration.cases++;
        tally(exploration, run, explorer.describe(c), explorer.kindOf?.(c));
        limits.onCase?.(exploration);
      }
      const fresh = findingsOf(run).filter((rule) => !known.has(rule.id));
      if (!fresh.length) return true;
      shrinking = true;
      lastFound = fresh;
      return false;
    });
    const remaining = limits.maxCases === undefined ? Number.MAX_SAFE_INTEGER : limits.maxCases - exploration.cases;
    let details: fc.RunDetails<[unknown]>;
    try {
      // Generation ends at the deadline (fast-check's own interruption: a predicate cannot stop it); a
      // shrinking the deadline cut short goes on from where it was, replayed by its seed and path, for a grace.
      details = (await fc.check(property, { seed, numRuns: Math.max(1, remaining), plugins: [fc.interruptAfterTimeLimit(Math.max(1, limits.deadline - Date.now()))] })) as fc.RunDetails<[unknown]>;
      if (details.failed && details.interrupted && details.counterexamplePath) {
        const more = (await fc.check(property, { seed, path: details.counterexamplePath, plugins: [fc.interruptAfterTimeLimit(SHRINK_GRACE_MS)] })) as fc.RunDetails<[unknown]>;
        if (more.failed && more.counterexample) details = { ...more, numShrinks: details.numShrinks + more.numShrinks };
      }
    } catch (error) {
      exploration.stopped = `exploring ${model.area} stopped on a bug of its model: ${error instanceof Error ? error.message : String(error)}`;
      break;
    }
    if (!details.failed || !details.counterexample) break;
    if (details.errorInstance && !(details.errorInstance instanceof Error && /Property failed by returning false/.test(details.errorInstance.message))) {
      exploration.stopped = `exploring ${model.area} stopped on a bug of its model: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`;
      break;
    }
    const [shrunk] = details.counterexample;
    const description = explorer.describe(shrunk);
    // Run twice more: only what both runs find is found; the second run's record is the finding's.
    const found = (rule: CheckMeta) => ({ rule, case: shrunk, description, seed, path: details.counterexamplePath ?? '', shrinks: details.numShrinks });
    const first = await runCase(explorer, model.rules, target, shrunk);
    const second = await runCase(explorer, model.rules, target, shrunk, limits.findingNote && ((rule) => limits.findingNote!(found(rule))));
    exploration.extraRuns += 2;
    const again = new Set(findingsOf(first).map((rule) => rule.id));
    const reproduced = findingsOf(second).filter((rule) => again.has(rule.id) && !known.has(rule.id));
    for (const rule of reproduced) {
      known.add(rule.id);
      exploration.findings.push({ ...found(rule), run: second });
      limits.progress?.(`explore ${model.area}: ${rule.id} contradicted by ${description} (found after ${exploration.cases} cases, shrunk ${details.numShrinks} times, reproduced 2/2)`);
    }
    if (!reproduced.length) {
      // What the shrunk case found did not come back: recorded, and not looked for again (a flaky answer would be chased forever).
      for (const rule of lastFound) {
        known.add(rule.id);
        exploration.unreproduced.push({ rule, description });
        limits.progress?.(`explore ${model.area}: ${rule.id} was contradicted once by ${description}, but not when the case was run twice more: recorded, not a finding`);
      }
    }
  }
  return exploration;
}

function tally(exploration: AreaExploration, run: CaseRun, description: string, caseKind: string | undefined): void {
  for (const rule of run.reachedRules()) {
    const counts = exploration.tallies.get(rule.id)!;
    const { kind, reason, outcome } = classify(run, rule);
    if (kind === 'inconclusive') {
      counts.inconclusive++;
      counts.lastInconclusive = reason;
      continue;
    }
    counts.judged++;
    if (outcome.verdict !== 'REVIEW' || counts.recorded.length >= RECORDED_CASES) continue;
    const of = caseKind ?? description;
    if (counts.recorded.some((r) => r.kind === of)) continue;
    counts.recorded.push({ kind: of, description, findings: outcome.findings.filter((f) => f.level === 'REVIEW'), evidence: outcome.evidence });
  }
}
