// The fault (mutation) self-test, as a function the tests and the benchmark
// share: one reference server per fault plus a clean one, all in one child
// process; one Playwright run with a project per server, where each faulty
// project runs only the checks tagged with the requirement its fault breaks.
import { Writable } from 'node:stream';
import { FAULTS, type Fault } from '../../reference/faults/index.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { spawnReferences } from '../../src/run/reference-process.ts';
import { runConformance } from '../../src/run/conformance.ts';
import type { CheckResult } from '../../src/check/model.ts';
import { breaksConformance } from '../../src/check/model.ts';
import { listConformanceChecks } from '../../src/run/list.ts';
import { requirementById } from '../../src/requirements.ts';

export const CLEAN = 'clean';

export interface FaultVerdict {
  fault: Fault;
  checks: CheckResult[];
  caught: boolean;
  /** A MUST requirement's fault must make the run NOT CONFORMANT. */
  notConformant: boolean;
}

export interface SelfTestResult {
  clean: CheckResult[];
  faults: FaultVerdict[];
  errors: string[];
  durationMs: number;
}

/** Playwright --grep for one requirement tag (not its longer siblings: -SINGLE-USE vs -SINGLE-USE-ATOMIC). */
export function requirementGrep(requirement: string): string {
  return `@${requirement}(\\s|$)`;
}

/** Faults whose requirement some conformance check covers (the load probes test their own). */
export function conformanceFaults(): Fault[] {
  const covered = new Set(listConformanceChecks().flatMap((c) => c.requirements));
  return FAULTS.filter((f) => covered.has(f.requirement));
}

/**
 * A fault is caught when a check covering its requirement says so: FAIL for a
 * MUST check, WARN (or FAIL) for SHOULD and REVIEW checks, whose violations
 * are warnings by the verdict rules.
 */
export function isCaught(checks: CheckResult[]): boolean {
  return checks.some((c) => c.verdict === 'FAIL' || (c.severity !== 'MUST' && c.verdict === 'WARN'));
}

export async function runSelfTest(faults: Fault[] = conformanceFaults(), options: { workers?: number } = {}): Promise<SelfTestResult> {
  const started = performance.now();
  const farm = await spawnReferences([{ faults: [] }, ...faults.map((f) => ({ faults: [f.name] }))]);
  try {
    const targets = farm.servers.map((server, i) => ({
      name: i === 0 ? CLEAN : faults[i - 1]!.name,
      profile: referenceProfile(server.url, server.options),
      grep: i === 0 ? undefined : requirementGrep(faults[i - 1]!.requirement),
    }));
    const quiet = new Writable({ write: (_chunk, _enc, done) => done() });
    const output = await runConformance({ targets, progress: false, output: quiet, workers: options.workers });
    const byTarget = (name: string) => output.checks.filter((c) => c.target === name);
    return {
      clean: byTarget(CLEAN),
      faults: faults.map((fault) => {
        const checks = byTarget(fault.name);
        const must = requirementById(fault.requirement)?.level === 'MUST';
        return { fault, checks, caught: isCaught(checks), notConformant: !must || checks.some(breaksConformance) };
      }),
      errors: output.errors,
      durationMs: performance.now() - started,
    };
  } finally {
    await farm.stop();
  }
}
