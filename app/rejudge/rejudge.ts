// `ptas rejudge BUNDLE|results.json... [--out DIR]`: stored runs judged again
// by the installed suite, without contacting the implementation
// (src/results/rejudge.ts): what changed, check by check, and whether each
// run would still certify. With --out, each run judged again becomes a new
// report, and a bundle's a new bundle whose results.json names the run it
// came from (run.rejudgedFrom); the old signature does not carry over.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { MANIFEST_FILE, sha256Hex, type Manifest } from '../../src/certify/manifest.ts';
import { certifiability } from '../../src/certify/certifiability.ts';
import { checkSince, registeredChecks } from '../../src/check/registry.ts';
import { CROSSCUT_CHECKS } from '../../src/crosscut/index.ts';
import { PtasError } from '../../src/errors.ts';
import type { RunResults } from '../../src/results/model.ts';
import { rejudgeRun, type JudgingSuite } from '../../src/results/rejudge.ts';
import { previewOfJudged, type RejudgePreview } from '../../src/results/rejudge-preview.ts';
import { suiteVersion } from '../../src/version.ts';
import { readResultsFile, resolveResultsPath } from '../../reports/read-results.ts';
import { writeReport } from '../../reports/write.ts';
import { writeBundle } from '../certify/write-bundle.ts';
import { requiredCheckIds } from '../certify/required-checks.ts';
import { verifyFiles } from '../verify/bundle-files.ts';
import { judgeProbeRecord } from '../../load/stage/probe-judgment.ts';

export class RejudgeRefused extends PtasError {
  readonly code = 'results-file';
  override name = 'RejudgeRefused';
}

/** One stored run as given: a bundle (its manifest beside results.json) or a results.json alone. */
interface StoredRun {
  source: string;
  results: RunResults;
  resultsSha256: string;
  bundle?: { dir: string; manifest: Manifest; manifestSha256: string };
}

export interface RejudgedStored {
  source: string;
  /** The run judged again, as written with --out. */
  results: RunResults;
  /** What that changes, as the console's Re-judge page shows it (src/results/rejudge-preview.ts). */
  preview: RejudgePreview;
  /** Where the run judged again was written (--out): its folder, and its manifest when the source was a bundle. */
  written?: { dir: string; manifestPath?: string; manifest?: Manifest };
}

function readStored(given: string): StoredRun {
  const file = resolveResultsPath(given);
  const dir = path.dirname(file);
  const results = readResultsFile(file);
  const resultsSha256 = sha256Hex(readFileSync(file));
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (!existsSync(manifestFile)) return { source: given, results, resultsSha256 };
  const bytes = readFileSync(manifestFile);
  const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  const files = verifyFiles(dir, manifest);
  if (!files.ok) throw new RejudgeRefused(`${given}: not the bundle its manifest describes (${files.detail}); a bundle changed after its run is not judged again`);
  return { source: given, results, resultsSha256, bundle: { dir, manifest, manifestSha256: sha256Hex(bytes) } };
}

/** The installed suite as the judgment needs it: every registered check (the caller has loaded the check files). */
export function installedSuite(): JudgingSuite {
  const metas = new Map(registeredChecks().map((m) => [m.id, m]));
  const crossCutting = new Set(CROSSCUT_CHECKS.map((c) => c.id));
  return {
    version: suiteVersion,
    metaOf: (id) => metas.get(id),
    isCrossCutting: (id) => crossCutting.has(id),
    checks: () => [...metas.values()].map((m) => ({ ...m, since: checkSince(m.id)! })),
    judge: judgeProbeRecord,
  };
}

/** Where each run judged again is written: --out itself for one run, a folder per run inside it for several. */
function outDirs(runs: readonly StoredRun[], outDir: string): string[] {
  if (runs.length === 1) return [outDir];
  const used = new Set<string>();
  return runs.map((run, i) => {
    const base = path.basename(run.bundle?.dir ?? path.dirname(resolveResultsPath(run.source))) || `run-${i + 1}`;
    const name = used.has(base) ? `${base}-${i + 1}` : base;
    used.add(name);
    return path.join(outDir, name);
  });
}

export interface RejudgeOptions {
  paths: string[];
  outDir?: string;
  signingKey?: KeyObject;
}

export async function rejudgeStored(options: RejudgeOptions, suite: JudgingSuite = installedSuite()): Promise<RejudgedStored[]> {
  const runs = options.paths.map(readStored);
  const required = await requiredCheckIds();
  const dirs = options.outDir ? outDirs(runs, path.resolve(options.outDir)) : [];
  for (const dir of dirs) {
    const input = runs.find((r) => path.resolve(path.dirname(resolveResultsPath(r.source))) === dir);
    if (input) throw new RejudgeRefused(`--out ${dir} holds ${input.source}: write the run judged again into a new folder`);
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new RejudgeRefused(`--out ${dir} is a file`);
  }
  return runs.map((run, i) => {
    const rejudged = rejudgeRun(run.results, suite);
    const judged = rejudged.results;
    const rejudgedFrom = {
      suiteVersion: run.results.run.suiteVersion,
      resultsSha256: run.resultsSha256,
      ...(run.bundle ? { manifestSha256: run.bundle.manifestSha256 } : {}),
    };
    const results: RunResults = { ...judged, run: { ...judged.run, suiteVersion: suite.version, rejudgedFrom }, certification: certifiability(judged, required) };
    const account: RejudgedStored = { source: run.source, results, preview: previewOfJudged(run.results, { ...rejudged, results }, suite, required) };
    const dir = dirs[i];
    if (!dir) return account;
    const report = writeReport(results, dir);
    if (!run.bundle) return { ...account, written: { dir: report.dir } };
    const { manifest } = run.bundle;
    const bundle = writeBundle({
      dir: report.dir,
      results,
      profile: manifest.profile,
      tlsCertificateSha256: manifest.target.tlsCertificateSha256,
      requiredChecks: required,
      nonce: manifest.run.nonce ?? undefined,
      grep: manifest.run.grep ?? undefined,
      waiversSha256: results.waivers?.sha256,
      signingKey: options.signingKey,
    });
    return { ...account, written: { dir: report.dir, manifestPath: bundle.manifestPath, manifest: bundle.manifest } };
  });
}
