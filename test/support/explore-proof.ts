// What proves exploration (explore/) before it is trusted, shared by its CI
// tests (test/explore/) and its benches (bench/explore-*.bench.ts): the
// reference targets to explore — clean, each legitimate variant, each
// real-world condition, each fault of an explored area — and an exploration
// of one target over many seeds, with what it found above REVIEW.
import { startReference } from '../../reference/server.ts';
import { referenceProfile } from '../../reference/profile.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { VARIANTS } from '../../reference/variants/index.ts';
import { CONDITIONS } from '../../reference/conditions/index.ts';
import { FAULTS } from '../../reference/faults/index.ts';
import { loadFaults } from '../../reference/faults/load.ts';
import { LOAD_CHECKS } from '../../load/checks.ts';
import { requirementById } from '../../src/requirements.ts';
import { exploreArea, type AreaExploration } from '../../explore/engine.ts';
import { explorationResults } from '../../explore/results.ts';
import { exploreTarget, type ExploreTarget } from '../../explore/target.ts';
import type { AreaModel } from '../../explore/model.ts';
import { AREA_MODELS } from '../../explore/areas/index.ts';

export interface ProofTarget {
  name: string;
  kind: 'clean' | 'variant' | 'condition' | 'fault';
  options: Partial<ReferenceOptions>;
}

/** The targets exploration must find nothing on: the clean reference, every variant, every condition. */
export function specificityTargets(): ProofTarget[] {
  return [
    { name: 'clean', kind: 'clean', options: {} },
    ...VARIANTS.map((v): ProofTarget => ({ name: v.name, kind: 'variant', options: { variants: [v.name] } })),
    ...CONDITIONS.map((c): ProofTarget => ({ name: c.name, kind: 'condition', options: { conditions: [c.name] } })),
  ];
}

/** The explored area a fault breaks, when exploration explores it (a fault breaks one requirement, of one area). */
export function exploredAreaOf(faultName: string, models: readonly AreaModel[] = AREA_MODELS): string | undefined {
  const fault = FAULTS.find((f) => f.name === faultName);
  const area = fault && requirementById(fault.requirement)?.area;
  return models.some((m) => m.area === area) ? area : undefined;
}

/** What only the load stage measures (the rate and size limits): no explored model probes it. */
const LOAD_REQUIREMENTS = new Set(LOAD_CHECKS.flatMap((c) => c.requirements));
const LOAD_FAULTS = new Set(loadFaults.map((f) => f.name));

/** Every fault of an explored area, but those of the limits the load stage measures. */
export function faultTargets(models: readonly AreaModel[] = AREA_MODELS): ProofTarget[] {
  return FAULTS.filter((f) => exploredAreaOf(f.name, models) && !LOAD_FAULTS.has(f.name) && !LOAD_REQUIREMENTS.has(f.requirement)).map((f) => ({ name: f.name, kind: 'fault', options: { faults: [f.name] } }));
}

/** The targets of one area's specificity: the clean reference and the variants and conditions that touch the area (the bench takes every one). */
export function specificityTargetsOf(area: string): ProofTarget[] {
  const touches = (a: string | readonly string[]) => a === 'all' || a === area || (Array.isArray(a) && a.includes(area));
  return [
    { name: 'clean', kind: 'clean', options: {} },
    ...VARIANTS.filter((v) => touches(v.area)).map((v): ProofTarget => ({ name: v.name, kind: 'variant', options: { variants: [v.name] } })),
    ...CONDITIONS.filter((c) => touches(c.touches)).map((c): ProofTarget => ({ name: c.name, kind: 'condition', options: { conditions: [c.name] } })),
  ];
}

/** Runs `explore` against a reference started for the target, and stops it after. */
export async function withReference<T>(target: ProofTarget, explore: (explored: ExploreTarget) => Promise<T>): Promise<T> {
  const reference = await startReference({ port: 0, ...target.options });
  const explored = exploreTarget(referenceProfile(reference.url, target.options));
  try {
    return await explore(explored);
  } finally {
    await explored.close();
    await reference.close();
  }
}

/** A rule's result above REVIEW: what a specificity proof holds at zero and a sensitivity proof counts. */
export interface AboveReview {
  seed: number;
  check: string;
  verdict: string;
  reason: string;
}

export interface SeedsExplored {
  cases: number;
  ms: number;
  above: AboveReview[];
}

/**
 * Explores every model over each seed (up to `concurrency` seeds at once:
 * most of a case is waiting for the target), each seed stopping after
 * `maxCases` cases per area or at `budgetMs`.
 */
export async function exploreSeeds(
  explored: ExploreTarget,
  seeds: readonly number[],
  {
    maxCases,
    budgetMs = 120_000,
    concurrency = 4,
    models = AREA_MODELS,
    enough,
  }: {
    maxCases?: number;
    budgetMs?: number;
    concurrency?: number;
    models?: readonly AreaModel[];
    /** Ends an area's exploration of a seed before its limits, once what it was run for is seen (a sensitivity proof: the fault's rule found). */
    enough?: (exploration: AreaExploration) => boolean;
  },
): Promise<SeedsExplored> {
  const started = performance.now();
  const outcome: SeedsExplored = { cases: 0, ms: 0, above: [] };
  const queue = [...seeds];
  const worker = async () => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      for (const model of models) {
        const stop = new AbortController();
        const onCase = enough ? (e: AreaExploration) => enough(e) && stop.abort() : undefined;
        const exploration = await exploreArea(model, explored, { seed, deadline: Date.now() + budgetMs, maxCases, signal: stop.signal, onCase });
        outcome.cases += exploration.cases;
        for (const result of explorationResults(exploration, explored.redactor, 0)) {
          if (result.verdict === 'FAIL' || result.verdict === 'WARN' || result.verdict === 'ERROR') {
            outcome.above.push({ seed, check: result.id, verdict: result.verdict, reason: result.reason ?? '' });
          }
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, seeds.length) }, worker));
  outcome.ms = performance.now() - started;
  return outcome;
}
