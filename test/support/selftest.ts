// The self-test, as a function the tests and the benchmark share. It proves
// both halves of a trustworthy verdict in one Playwright run:
// - sensitivity: one reference server per fault, each running only the checks
//   tagged with the requirement its fault breaks (a cross-cutting requirement's
//   fault: the auth and users checks, whose error answers it judges); every
//   fault must be caught;
// - specificity: one reference server per legitimate variant, and one with
//   every compatible variant at once, each running every check; each must be
//   CONFORMANT with no FAIL and no ERROR (variants the load stage observes
//   also get the load stage).
// Plus a clean reference that must pass everything.
import os from 'node:os';
import { setTimeout } from 'node:timers/promises';
import { FAULTS, type Fault } from '../../reference/faults/index.ts';
import { loadFaults } from '../../reference/faults/load.ts';
import { compatibleVariants, variantByName, VARIANTS, type Variant } from '../../reference/variants/index.ts';
import { conditionByName, CONDITIONS, type Condition } from '../../reference/conditions/index.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { minimalProfile } from './minimal-profile.ts';
import { spawnReferences } from '../../app/run/reference-process.ts';
import { runConformance } from '../../app/run/conformance.ts';
import type { CheckResult, VerdictBasis } from '../../src/check/model.ts';
import { breaksConformance, runVerdict } from '../../src/results/verdict.ts';
import type { RunVerdict } from '../../src/results/model.ts';
import { listConformanceChecks } from '../../app/run/list.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';
import { catalogue, requirementById } from '../../src/requirements.ts';
import { runLoadStage } from '../../load/stage.ts';

export const CLEAN = 'clean';
export const ALL_COMPATIBLE = 'variants:all-compatible';

export interface FaultVerdict {
  fault: Fault;
  /** The fault's name, or minimalTarget(name) for its run under a minimal profile. */
  target: string;
  checks: CheckResult[];
  caught: boolean;
  /** Every check that caught something in the fault's run, with what it rested on (test/selftest/fault-basis.ts holds what each fault must be caught on). */
  catches: Catch[];
  /** A MUST requirement's fault must make the run NOT CONFORMANT. */
  notConformant: boolean;
}

/** A target that must be CONFORMANT: a legitimate variant, or a real-world condition. */
export interface VariantVerdict {
  /** `variant:NAME`, ALL_COMPATIBLE, `condition:NAME` or ALL_CONDITIONS. */
  target: string;
  variants: string[];
  conditions: string[];
  checks: CheckResult[];
  verdict: RunVerdict;
  /** The checks that gave a verdict the variant does not deserve: FAIL or ERROR. */
  falseVerdicts: CheckResult[];
}

export interface SelfTestResult {
  clean: CheckResult[];
  faults: FaultVerdict[];
  variants: VariantVerdict[];
  /** Each condition on the areas it touches, and all conditions at once on every check. */
  conditions: VariantVerdict[];
  errors: string[];
  durationMs: number;
  /** From the start, until the checks (one Playwright run over every target) and until the load stages beside them were done. */
  checksMs: number;
  loadStagesMs: number;
}

/** Playwright --grep for one requirement tag (not its longer siblings: -SINGLE-USE vs -SINGLE-USE-ATOMIC). */
export function requirementGrep(requirement: string): string {
  return `@${requirement}(\\s|$)`;
}

/**
 * A cross-cutting check (src/crosscut/) carries no tag to grep for: it judges
 * the exchanges of the checks that ran. Its fault's target runs the auth and
 * users checks, which between them provoke error answers of two operations.
 */
const CROSSCUT_REQUIREMENTS = new Set(CROSSCUT_CHECKS.flatMap((c) => c.requirements));
const CROSSCUT_FAULT_GREP = '@area:(auth|users)(\\s|$)';

function faultGrep(fault: Fault): string {
  return CROSSCUT_REQUIREMENTS.has(fault.requirement) ? CROSSCUT_FAULT_GREP : requirementGrep(fault.requirement);
}

/**
 * Faults whose requirement some conformance check (or cross-cutting check over their exchanges) covers; the load
 * probes test their own, including a load fault of a cross-cutting requirement (rate-limit-429-html: only load
 * draws the answers it breaks, so test/load/faults.test.ts proves it caught over the load stage's exchanges).
 */
export async function conformanceFaults(): Promise<Fault[]> {
  const covered = new Set([...(await listConformanceChecks()).flatMap((c) => c.requirements), ...CROSSCUT_REQUIREMENTS]);
  const loadOnly = new Set(loadFaults.map((f) => f.name));
  // A fault no hand-written check names is exploration's to find (test/explore/).
  return FAULTS.filter((f) => covered.has(f.requirement) && !loadOnly.has(f.name) && !f.unnamed);
}

/**
 * A fault is caught when a check covering its requirement says so: FAIL for a
 * MUST check, WARN (or FAIL) for SHOULD and REVIEW checks, whose violations
 * are warnings by the verdict rules.
 */
export function isCaught(checks: CheckResult[]): boolean {
  return checks.some((c) => c.verdict === 'FAIL' || (c.severity !== 'MUST' && c.verdict === 'WARN'));
}

/** One check's finding in a fault's run: its verdict and the name of its basis (basisName). */
export interface Catch {
  check: string;
  verdict: CheckResult['verdict'];
  basis: string;
}

/**
 * A basis as the basis table names it: the requirement whose own quote it is,
 * the id of the catalogue sentence it quotes otherwise (another sentence of
 * the spec, or a standard's section), or `profile:KEY` for a profile's
 * declaration. So a FAIL quoting the wrong sentence of the right requirement
 * is told apart.
 */
export function basisName(basis: VerdictBasis | undefined): string {
  if (!basis) return 'none';
  if (basis.kind === 'profile-declared') return `profile:${basis.profileKey}`;
  if (basis.kind === 'spec' && basis.quote === requirementById(basis.requirement)?.quote) return basis.requirement;
  const source = basis.kind === 'standard' ? basis.standard : 'spec';
  const sentence = Object.entries(catalogue().sentences).find(([, s]) => s.source === source && s.clause === basis.clause && s.quote === basis.quote);
  return sentence?.[0] ?? basis.requirement;
}

/** The checks that caught something (isCaught's verdicts), with their bases. */
export function catchesOf(checks: CheckResult[]): Catch[] {
  return checks.filter((c) => c.verdict === 'FAIL' || (c.severity !== 'MUST' && c.verdict === 'WARN')).map((c) => ({ check: c.id, verdict: c.verdict, basis: basisName(c.basis) }));
}

interface ServerPlan {
  name: string;
  faults: string[];
  variants: string[];
  /** Real-world conditions of the reference (reference/conditions/). */
  conditions?: string[];
  grep?: string;
  /** Keys of a minimal profile (test/support/minimal-profile.ts) instead of the reference's full one. */
  minimalProfile?: string[];
}

/** The target name of a fault run under its minimal profile. */
export const minimalTarget = (fault: string) => `${fault}@minimal-profile`;

/**
 * The conditions every fault must still be caught under: real deployments'
 * latency and closed connections must not hide a contradiction.
 */
export const FAULT_CONDITIONS = ['latency', 'connection-close'] as const;

/** The target name of a fault run under FAULT_CONDITIONS. */
export const underConditions = (fault: string) => `${fault}@${FAULT_CONDITIONS.join(',')}`;

/** Every fault alone, once more under FAULT_CONDITIONS, and once more under its minimal profile when it declares one. */
function faultPlans(faults: readonly Fault[], withConditions: boolean): ServerPlan[] {
  return faults.flatMap((f) => {
    const plan = { name: f.name, faults: [f.name], variants: [], grep: faultGrep(f) };
    const conditioned = withConditions ? [{ ...plan, name: underConditions(f.name), conditions: [...FAULT_CONDITIONS] }] : [];
    const minimal = f.minimalProfile ? [{ ...plan, name: minimalTarget(f.name), minimalProfile: f.minimalProfile }] : [];
    return [plan, ...conditioned, ...minimal];
  });
}

export const ALL_CONDITIONS = 'conditions:all';

/**
 * The condition targets: each condition alone, running the checks of the
 * areas it touches, then every condition at once running every check, less
 * those that only stretch waits (Condition.stretchesWaitsOnly: proven alone).
 * A correct implementation under real-world conditions must stay CONFORMANT.
 */
function conditionPlans(conditions: readonly Condition[]): ServerPlan[] {
  const plans: ServerPlan[] = conditions.map((c) => ({
    name: `condition:${c.name}`,
    faults: [],
    variants: [],
    conditions: [c.name],
    grep: c.touches === 'all' ? undefined : `@area:(${c.touches.join('|')})(\\s|$)`,
  }));
  const combined = conditions.filter((c) => !c.stretchesWaitsOnly);
  if (combined.length > 1) plans.push({ name: ALL_CONDITIONS, faults: [], variants: [], conditions: combined.map((c) => c.name) });
  return plans;
}

/**
 * The variant targets: each variant alone, running the checks of its own area
 * (a variant changes one area's behaviour; 'all' runs everything), then all
 * compatible variants together running every check, where one area's variant
 * meeting another area's checks would show.
 */
function variantPlans(variants: readonly Variant[]): ServerPlan[] {
  const plans: ServerPlan[] = variants.map((v) => ({
    name: `variant:${v.name}`,
    faults: [],
    variants: [v.name],
    grep: v.area === 'all' ? undefined : `@area:${v.area}(\\s|$)`,
  }));
  const together = compatibleVariants(variants);
  if (together.length > 1) plans.push({ name: ALL_COMPATIBLE, faults: [], variants: together });
  return plans;
}

/** A plan the load stage observes: a variant only load sees, or a condition alone that load sees (a token running out mid-staircase). */
function observedByLoad(plan: ServerPlan): boolean {
  if (plan.variants.some((name) => variantByName(name)?.observedByLoad)) return true;
  return plan.conditions?.length === 1 && Boolean(conditionByName(plan.conditions[0]!)?.observedByLoad);
}

/**
 * The load stage of each plan whose variants or condition it observes, one after another on
 * a reference process of their own: the load probes measure rates, and must
 * share an event loop neither with the servers the checks run against nor
 * with each other (two stages at once turned two PASSes into WARNs).
 */
async function loadStageChecks(plans: ServerPlan[]): Promise<Map<string, CheckResult[]>> {
  const results = new Map<string, CheckResult[]>();
  if (!plans.length) return results;
  const farm = await spawnReferences(plans.map((p) => ({ faults: p.faults, variants: p.variants, conditions: p.conditions ?? [] })));
  try {
    for (const [i, plan] of plans.entries()) {
      const server = farm.servers[i]!;
      // No event sink: a silent stage.
      const load = await runLoadStage({ profile: referenceProfile(server.url, server.options), embeddedReference: true });
      results.set(plan.name, load.checks.map((c) => ({ ...c, target: plan.name })));
    }
    return results;
  } finally {
    await farm.stop();
  }
}

/**
 * The checks mostly wait (windows, polling, expiry, and under the conditions
 * a 65 s poll and 6 s webhook deliveries), and every worker serves every
 * target (runner/run-targets.ts): more workers than cores overlap the
 * waits. A worker takes about two CPU-seconds to start (Playwright's own
 * modules, then the checks); they start a core's worth at a time
 * (runner/worker-start-gate.mjs), so the first check ends at about 8 s and
 * the last worker begins at about 25 s; from then on all are busy, the CPU
 * about 60 % used. Measured on 2 cores, the whole self-test (~3,500 tests,
 * 1,325 test-seconds), on a machine others share, the same day: 16 workers
 * with the load stages 20 s after the first check, 100.6-111.0 s (seven
 * runs); 20 workers, 97.8-104.7 s (three), the load stages then ending last; 20
 * workers with them 10 s after the first check, 90.6-91.3 s (five runs);
 * 24 workers, 98.8-99.0 s (their starts take the CPU the waits left).
 */
const SELFTEST_WORKERS = 20;
const CHECKS_NICENESS = 10;
/**
 * When the load stages start after the first check: once most workers are
 * up (about 2 CPU-s each on 2 cores; a core's worth at a time), since the
 * probes, which the workers yield to, would slow their start. The load
 * stages take about 75 s of their own (ten, one after another; the
 * short-token-lifetime one runs its staircases in turn), so they end at
 * about 90 s, a few seconds after the checks: at once after the first check,
 * 95.5-107.8 s (four runs, 20 workers); 8 s after, 98.3-98.6 s; 10 s after,
 * 90.6-91.3 s; 20 s after, 97.8-104.7 s. Should the load stages get shorter
 * or the checks longer, move this with them.
 */
const LOAD_STAGES_AFTER_FIRST_CHECK_MS = 10_000;

export async function runSelfTest(
  selection: { faults?: Fault[]; variants?: readonly Variant[]; conditions?: readonly Condition[] } = {},
  options: { workers?: number } = {},
): Promise<SelfTestResult> {
  const started = performance.now();
  const faults = selection.faults ?? (await conformanceFaults());
  const conditions = selection.conditions ?? CONDITIONS;
  const plans: ServerPlan[] = [
    { name: CLEAN, faults: [], variants: [] },
    ...faultPlans(faults, conditions.length > 0),
    ...variantPlans(selection.variants ?? VARIANTS),
    ...conditionPlans(conditions),
  ];
  const farm = await spawnReferences(plans.map((p) => ({ faults: p.faults, variants: p.variants, conditions: p.conditions ?? [] })));
  try {
    const targets = farm.servers.map((server, i) => {
      const full = referenceProfile(server.url, server.options);
      const keys = plans[i]!.minimalProfile;
      return { name: plans[i]!.name, profile: keys ? minimalProfile(full, keys) : full, grep: plans[i]!.grep };
    });
    // The load stages run beside the checks, which yield the CPU to them (nice): the probes measure rates,
    // and at equal priority a busy CPU moved a 429 onset enough to turn a PASS into a WARN.
    os.setPriority(farm.pid, CHECKS_NICENESS);
    let checksDone = 0;
    let loadDone = 0;
    // The load stages start LOAD_STAGES_AFTER_FIRST_CHECK_MS after the first check has finished, once the workers
    // are up: the probes, which the workers yield to, would otherwise take the CPU the workers start with, and
    // every worker that starts late holds its share of the waits back (see LOAD_STAGES_AFTER_FIRST_CHECK_MS).
    let checksStarted!: () => void;
    const firstCheck = new Promise<void>((resolve) => (checksStarted = resolve));
    // The run's first event (its first progress line) says the workers are up.
    const checks = runConformance({ targets, progress: true, events: () => checksStarted(), workers: options.workers ?? SELFTEST_WORKERS, niceness: CHECKS_NICENESS })
      .finally(() => checksStarted())
      .finally(() => (checksDone = performance.now()));
    // A narrowed self-test's checks may all end sooner: the load stages wait for that at most (the timer, unref'd, holds nothing open).
    const workersUp = firstCheck.then(() => Promise.race([setTimeout(LOAD_STAGES_AFTER_FIRST_CHECK_MS, undefined, { ref: false }), checks.then(() => undefined, () => undefined)]));
    const [output, loadChecks] = await Promise.all([checks, workersUp.then(() => loadStageChecks(plans.filter(observedByLoad))).finally(() => (loadDone = performance.now()))]);
    const loadStagesMs = loadDone - started;
    const byTarget = (name: string) => output.checks.filter((c) => c.target === name);

    const specificity = (plan: ServerPlan): VariantVerdict => {
      const checks = [...byTarget(plan.name), ...(loadChecks.get(plan.name) ?? [])];
      return {
        target: plan.name,
        variants: plan.variants,
        conditions: plan.conditions ?? [],
        checks,
        verdict: runVerdict({ checks, errors: output.errors }),
        falseVerdicts: checks.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR'),
      };
    };
    const variants = plans.filter((plan) => plan.variants.length).map(specificity);
    const conditionVerdicts = plans.filter((plan) => !plan.faults.length && plan.conditions?.length).map(specificity);
    return {
      clean: byTarget(CLEAN),
      faults: plans
        .filter((plan) => plan.faults.length)
        .map((plan) => {
          const fault = faults.find((f) => f.name === plan.faults[0])!;
          const checks = byTarget(plan.name);
          const must = requirementById(fault.requirement)?.level === 'MUST';
          return { fault, target: plan.name, checks, caught: isCaught(checks), catches: catchesOf(checks), notConformant: !must || checks.some(breaksConformance) };
        }),
      variants,
      conditions: conditionVerdicts,
      errors: output.errors,
      durationMs: performance.now() - started,
      checksMs: checksDone - started,
      loadStagesMs,
    };
  } finally {
    await farm.stop();
  }
}
