// `ptas run`: resolve the target (the embedded reference when no base URL is
// given), check it is reachable, run the conformance checks, then the load
// stage, and write the report. The returned exit code follows the verdict.
import path from 'node:path';
import type { Profile } from '../../src/config/profile.ts';
import { buildResults } from '../../src/results/build.ts';
import { exitCodeFor } from '../../src/results/verdict.ts';
import type { RunResults } from '../../src/results/model.ts';
import { specVersion, suiteVersion } from '../../src/version.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { writeReport, type WrittenReport } from '../../reports/write.ts';
import { runConformance } from './conformance.ts';
import { assertReachable } from './preflight.ts';
import { profileHash } from './profile-hash.ts';
import { resolveTarget, type Target } from './target.ts';
import { runLoadStage, type LoadStageResult } from '../../load/stage.ts';

export interface RunOptions {
  /** The profile from file, env and flags; without baseUrl the embedded reference is the target. */
  profile: Profile;
  outDir: string;
  /** Faults to inject into the embedded reference. */
  faults?: string[];
  /** Legitimate variants of the embedded reference. */
  variants?: string[];
  /** Options of the embedded reference (limits, seed). */
  reference?: Partial<ReferenceOptions>;
  grep?: string;
  workers?: number;
  checkTimeoutMs?: number;
  /** Run the load stage (429/413 probes) after the checks (default true). */
  load?: boolean;
  signal?: AbortSignal;
  /** Terminal output (progress lines); default process.stdout. */
  output?: NodeJS.WritableStream;
}

export interface RunOutcome {
  results: RunResults;
  report: WrittenReport;
  exitCode: number;
}

export async function ptasRun(options: RunOptions): Promise<RunOutcome> {
  const out = options.output ?? process.stdout;
  const startedAt = new Date();
  const target = await resolveTarget(options);
  try {
    const { profile } = target;
    if (target.embedded) out.write(`ptas: started ${target.description}\n`);
    await assertReachable(target.connection);
    out.write(`ptas: running conformance checks against ${profile.baseUrl}\n`);
    const checks = await runConformance({
      targets: [{ name: 'target', profile }],
      grep: options.grep,
      workers: options.workers,
      checkTimeoutMs: options.checkTimeoutMs,
      output: out,
      signal: options.signal,
    });
    const loadStage =
      options.load === false || options.signal?.aborted
        ? { checks: [] }
        : await runLoadStage({ profile, embeddedReference: Boolean(target.embedded), signal: options.signal, output: out });
    const interrupted = options.signal?.aborted || checks.status === 'interrupted' ? 'interrupted (SIGINT)' : undefined;
    const results = runResults(options, target, { startedAt, embeddedReference: Boolean(target.embedded), interrupted, checks, loadStage });
    const report = writeReport(results, path.resolve(options.outDir));
    const exitCode = exitCodeFor(results.verdict, Boolean(interrupted));
    return { results, report, exitCode };
  } finally {
    await target.stop();
  }
}

interface StageOutcomes {
  startedAt: Date;
  embeddedReference: boolean;
  interrupted: string | undefined;
  checks: Awaited<ReturnType<typeof runConformance>>;
  loadStage: LoadStageResult;
}

function runResults(options: RunOptions, { profile, connection }: Pick<Target, 'profile' | 'connection'>, { startedAt, embeddedReference, interrupted, checks, loadStage }: StageOutcomes): RunResults {
  const finishedAt = new Date();
  return buildResults({
    run: {
      target: profile.baseUrl,
      implementation: profile.name,
      suiteVersion,
      specVersion: specVersion(),
      profileHash: profileHash(profile),
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      reference: embeddedReference ? { faults: options.faults ?? [], variants: options.variants ?? [] } : undefined,
      insecureTls: connection.insecure,
      interrupted,
    },
    checks: [...checks.checks, ...loadStage.checks],
    load: loadStage.load,
    errors: checks.errors,
  });
}
