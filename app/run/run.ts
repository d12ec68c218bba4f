// `ptas run`: resolve the target (the embedded reference when no base URL is
// given), check it is reachable, run the conformance checks, then the load
// stage, and write the report. The returned exit code follows the verdict.
import { requireResolved } from '../../src/config/resolved.ts';
import path from 'node:path';
import { ConfigError } from '../../src/config/errors.ts';
import type { Profile, ResolvedProfile } from '../../src/config/profile.ts';
import { buildResults } from '../../src/results/build.ts';
import { exitCodeFor } from '../../src/results/verdict.ts';
import type { RunResults } from '../../src/results/model.ts';
import { specVersion, suiteVersion } from '../../src/version.ts';
import { referenceProfile } from '../../reference/profile.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { writeReport, type WrittenReport } from '../../reports/write.ts';
import { runConformance } from './conformance.ts';
import { assertReachable } from './preflight.ts';
import { profileHash } from './profile-hash.ts';
import { spawnReference, type ReferenceProcess } from './reference-process.ts';
import { runLoadStage, type LoadStageResult } from '../../load/stage.ts';
import { FaultSet } from '../../reference/faults/index.ts';
import { VariantSet } from '../../reference/variants/index.ts';

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
  let reference: ReferenceProcess | undefined;
  checkReferenceOptions(options);
  try {
    if (!options.profile.baseUrl) reference = await spawnReference({ ...options.reference, faults: options.faults ?? [], variants: options.variants ?? [] });
    const profile = reference ? referenceTarget(options, reference, out) : requireResolved(options.profile);
    await assertReachable(profile.baseUrl, profile.http);
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
        : await runLoadStage({ profile, embeddedReference: Boolean(reference), signal: options.signal, output: out });
    const interrupted = options.signal?.aborted || checks.status === 'interrupted' ? 'interrupted (SIGINT)' : undefined;
    const results = runResults(options, profile, { startedAt, embeddedReference: Boolean(reference), interrupted, checks, loadStage });
    const report = writeReport(results, path.resolve(options.outDir));
    const exitCode = exitCodeFor(results.verdict, Boolean(interrupted));
    return { results, report, exitCode };
  } finally {
    await reference?.stop();
  }
}

/** Faults and variants change the embedded reference only, and must be known ones. */
function checkReferenceOptions(options: RunOptions): void {
  if (options.faults?.length && options.profile.baseUrl) {
    throw new ConfigError('--fault injects faults into the embedded reference; it cannot be combined with --base-url');
  }
  if (options.variants?.length && options.profile.baseUrl) {
    throw new ConfigError('--variant changes the embedded reference; it cannot be combined with --base-url');
  }
  try {
    new FaultSet(options.faults ?? []);
    new VariantSet(options.variants ?? []);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** The profile of the embedded reference, with the user's sections but its own address and credentials. */
function referenceTarget(options: RunOptions, reference: ReferenceProcess, out: NodeJS.WritableStream): ResolvedProfile {
  const { baseUrl: _ignored, credentials: _alsoIgnored, ...userSections } = options.profile;
  const profile = { ...referenceProfile(reference.url, reference.options), ...userSections };
  const faults = options.faults?.length ? ` with fault(s) ${options.faults.join(', ')}` : '';
  const variants = options.variants?.length ? ` with variant(s) ${options.variants.join(', ')}` : '';
  out.write(`ptas: started the reference implementation at ${reference.url}${faults}${variants}\n`);
  return profile;
}

interface StageOutcomes {
  startedAt: Date;
  embeddedReference: boolean;
  interrupted: string | undefined;
  checks: Awaited<ReturnType<typeof runConformance>>;
  loadStage: LoadStageResult;
}

function runResults(options: RunOptions, profile: ResolvedProfile, { startedAt, embeddedReference, interrupted, checks, loadStage }: StageOutcomes): RunResults {
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
      insecureTls: profile.http?.insecure ?? false,
      interrupted,
    },
    checks: [...checks.checks, ...loadStage.checks],
    load: loadStage.load,
    errors: checks.errors,
  });
}
