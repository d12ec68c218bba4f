// `ptas run`: resolve the target (the embedded reference when no base URL is
// given), check it is reachable, run the conformance checks, then the load
// stage, write the report, and last the manifest that makes the folder a
// certification bundle (app/certify/write-bundle.ts). The results are built
// from the run's events, the one stream its terminal and live view hear too
// (src/run-events/heard-results.ts). The returned exit code follows the
// verdict.
import path from 'node:path';
import type { Profile } from '../../src/config/profile.ts';
import { buildResults } from '../../src/results/build.ts';
import { exitCodeFor } from '../../src/results/verdict.ts';
import type { RunResults, ShardPart } from '../../src/results/model.ts';
import { specVersion, suiteVersion } from '../../src/version.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { writeReport, type WrittenReport } from '../../reports/write.ts';
import { runConformance, type CheckRunOutput } from './conformance.ts';
import { fanOut, type RunEventSink } from '../../src/run-events/events.ts';
import { heardResults, type HeardResults } from '../../src/run-events/heard-results.ts';
import { terminalSink } from '../../src/run-events/terminal.ts';
import { assertRunChoices } from '../../runner/settings.ts';
import { assertReachable } from './preflight.ts';
import { profileHash } from './profile-hash.ts';
import { resolveTarget, type Target } from './target.ts';
import { runLoadStage } from '../../load/stage.ts';
import { judgedAgain, rejudgedLines, withLoadEvidence } from '../../load/stage/crosscut.ts';
import { scopeOfProfile } from '../../src/crosscut/index.ts';
import { loadSigningKey } from '../../src/certify/signing.ts';
import { requiredCheckIds } from '../certify/required-checks.ts';
import { certifiability } from '../../src/certify/certifiability.ts';
import { tlsCertificateSha256 } from '../certify/target-fingerprint.ts';
import { hashedProfile, writeBundle, type BundleInput } from '../certify/write-bundle.ts';
import { applyWaivers } from '../../src/results/waivers.ts';
import { assertKnownChecks, loadWaivers } from '../../src/results/waivers-file.ts';
import { listAllChecks } from './list.ts';
import { runExploreStage, type ExploreChoices } from '../../explore/stage.ts';

export interface RunOptions {
  /** The profile from file, env and flags; without baseUrl the embedded reference is the target. */
  profile: Profile;
  outDir: string;
  /** Faults to inject into the embedded reference. */
  faults?: string[];
  /** Legitimate variants of the embedded reference. */
  variants?: string[];
  /** Real-world conditions of the embedded reference (reference/conditions/). */
  conditions?: string[];
  /** Options of the embedded reference (limits, seed). */
  reference?: Partial<ReferenceOptions>;
  grep?: string;
  /** Run the conformance checks (default true); false: the load stage alone (a re-run whose checks all observed something: app/run/rerun.ts). */
  conformance?: boolean;
  workers?: number;
  checkTimeoutMs?: number;
  /** Run the load stage (429/413 probes) after the checks (default true). */
  load?: boolean;
  /** Explore with generated cases after the checks, before the load stage (explore/): `ptas explore`, `ptas run --explore`. */
  explore?: ExploreChoices;
  signal?: AbortSignal;
  /**
   * Hears what happens as the run goes (src/run-events/events.ts): its log
   * lines, each check as it finishes (the runner's, the cross-cutting ones,
   * the load stage's), each 429 staircase step, the probes' live progress.
   * Default: the terminal, process.stdout (src/run-events/terminal.ts).
   */
  events?: RunEventSink;
  /** An Ed25519 private key (PEM file or env:NAME) that signs manifest.json. */
  signKey?: string;
  /** The certifier's nonce: sent as the ptas-nonce header on every exchange and bound into manifest.json. */
  nonce?: string;
  /** Run one part of the checks; the load stage runs in part 1 only (LOAD_SHARD). `ptas merge` makes the whole. */
  shard?: ShardPart;
  /** A waiver file (schemas/waivers.schema.json): known failures shown as WAIVED. */
  waivers?: string;
  /** A stale or unmatched waiver makes the run INCOMPLETE. */
  strictWaivers?: boolean;
}

/** The conformance stage of a run that runs the load stage alone: no check, nothing wrong. */
function noConformanceStage(): CheckRunOutput {
  return { checks: [], errors: [], status: 'passed', startedAt: new Date().toISOString(), durationMs: 0 };
}

/** The part of a sharded run that runs the load stage: its probes measure rates, so they run once, in one place. */
const LOAD_SHARD = 1;

export interface RunOutcome {
  results: RunResults;
  report: WrittenReport;
  bundle: ReturnType<typeof writeBundle>;
  exitCode: number;
}

export async function ptasRun(options: RunOptions): Promise<RunOutcome> {
  // What the run tells as it goes is what it keeps: its results are what this sink heard.
  const heard = heardResults();
  const events = fanOut(options.events ?? terminalSink(process.stdout), heard.events);
  const log = (line: string) => events({ kind: 'log', line });
  const startedAt = new Date();
  // A key that cannot sign, a waiver file that cannot be used or a worker count of 0 is found before the run, not after it.
  assertRunChoices(options);
  const signingKey = options.signKey ? loadSigningKey(options.signKey) : undefined;
  const waivers = options.waivers ? loadWaivers(options.waivers) : undefined;
  if (waivers) assertKnownChecks(waivers, (await listAllChecks()).map((c) => c.id));
  const target = await resolveTarget(withNonce(options));
  try {
    const { profile } = target;
    if (target.embedded) log(`ptas: started ${target.description}`);
    await assertReachable(target.connection);
    if (options.conformance !== false) log(`ptas: running conformance checks against ${profile.baseUrl}`);
    const checks = options.conformance === false ? noConformanceStage() : await runConformance({
      targets: [{ name: 'target', profile }],
      grep: options.grep,
      workers: options.workers,
      checkTimeoutMs: options.checkTimeoutMs,
      events,
      signal: options.signal,
      shard: options.shard,
    });
    if (options.explore && !options.signal?.aborted && (!options.shard || options.shard.index === LOAD_SHARD)) {
      await runExploreStage({ ...options.explore, profile, outDir: path.resolve(options.outDir), events, signal: options.signal });
    }
    const loadStage =
      options.load === false || options.signal?.aborted || (options.shard && options.shard.index !== LOAD_SHARD)
        ? { checks: [] }
        : await runLoadStage({ profile, embeddedReference: Boolean(target.embedded), signal: options.signal, events });
    // The cross-cutting checks judged again over both stages' exchanges: the load stage's error answers too.
    const judged = withLoadEvidence(checks.checks, loadStage.checks, scopeOfProfile(profile));
    for (const check of judgedAgain(checks.checks, judged)) events({ kind: 'check', check });
    for (const line of rejudgedLines(checks.checks, judged)) log(line);
    const interrupted = options.signal?.aborted || checks.status === 'interrupted' ? 'interrupted (SIGINT)' : undefined;
    const built = runResults(options, target, { startedAt, embeddedReference: Boolean(target.embedded), interrupted, heard });
    // Expiry is judged at the run's end, so re-rendering the bundle later says the same.
    const waived = waivers ? applyWaivers(built, waivers, { strict: Boolean(options.strictWaivers), now: new Date(built.run.finishedAt) }) : built;
    const requiredChecks = await requiredCheckIds();
    // What ptas verify will say of the bundle, said with the verdict wherever the run is shown.
    const results = { ...waived, certification: certifiability(waived, requiredChecks) };
    const report = writeReport(results, path.resolve(options.outDir));
    const bundle = writeBundle({
      dir: report.dir,
      results,
      profile: await hashedProfile(profile),
      tlsCertificateSha256: await tlsCertificateSha256(target.connection),
      requiredChecks,
      nonce: options.nonce,
      grep: options.grep,
      waiversSha256: waivers?.sha256,
      signingKey,
    } satisfies BundleInput);
    const exitCode = exitCodeFor(results.verdict, Boolean(interrupted));
    return { results, report, bundle, exitCode };
  } finally {
    await target.stop();
  }
}

/** The run's profile with the certifier's nonce, which every sender then puts on every request (src/http/connection.ts runHeaders). */
function withNonce(options: RunOptions): RunOptions {
  if (!options.nonce) return options;
  return { ...options, profile: { ...options.profile, http: { ...options.profile.http, nonce: options.nonce } } };
}

interface StageOutcomes {
  startedAt: Date;
  embeddedReference: boolean;
  interrupted: string | undefined;
  /** What the run's events told: its checks, the load stage's section, the problems outside any check. */
  heard: HeardResults;
}

function runResults(options: RunOptions, { profile, connection }: Pick<Target, 'profile' | 'connection'>, { startedAt, embeddedReference, interrupted, heard }: StageOutcomes): RunResults {
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
      reference: embeddedReference ? { faults: options.faults ?? [], variants: options.variants ?? [], conditions: options.conditions ?? [] } : undefined,
      insecureTls: connection.insecure,
      interrupted,
      shard: options.shard,
    },
    checks: heard.checks(),
    load: heard.load(),
    errors: heard.problems(),
  });
}
