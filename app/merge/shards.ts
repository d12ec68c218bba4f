// Which shard bundles `ptas merge` accepts: each one intact (its files as its
// manifest lists them, signed by the given key when one is given), each a
// part of one run — the same suite and commit, catalogue, profile, target
// and nonce, and the same number of parts — and every part there at least
// once. A part given twice with the same manifest (the same directory, or a
// copy) is a duplicate and refused; another run of the same part (its own
// manifest: a re-run after a failed night or a broken machine) is an attempt,
// and the attempts of a part are ordered by when their runs started
// (src/results/attempts.ts states what becomes of their verdicts). A run
// without --shard is the one part of a run of one part (1/1): its re-run
// (ptas run --rerun-of, which runs only some of its checks) is its next
// attempt. A bundle that is itself a merge is refused: merge its parts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { MANIFEST_FILE, sha256Hex, type Manifest } from '../../src/certify/manifest.ts';
import { PtasError } from '../../src/errors.ts';
import type { RunResults, ShardPart } from '../../src/results/model.ts';
import { verifyEntries } from '../verify/bundle-entries.ts';
import { verifyFiles } from '../verify/bundle-files.ts';
import { verifySignature } from '../verify/signature-and-nonce.ts';

export class MergeRefused extends PtasError {
  readonly code = 'merge-refused';
  override name = 'MergeRefused';
}

/** The part a run is: its --shard, or the one part of a run of one part. */
export function partOf(manifest: Manifest): ShardPart {
  return manifest.run.shard ?? { index: 1, total: 1 };
}

export interface ShardBundle {
  dir: string;
  manifest: Manifest;
  manifestSha256: string;
  results: RunResults;
}

/** One part of the sharded run: every run of it that was given, oldest first. */
export interface PartRuns {
  index: number;
  total: number;
  runs: ShardBundle[];
}

function readShard(dir: string, publicKey: KeyObject | undefined): ShardBundle {
  if (!existsSync(path.join(dir, MANIFEST_FILE))) throw new MergeRefused(`${dir}: no ${MANIFEST_FILE} (give the --out directories of ptas run --shard)`);
  // As ptas verify: nothing in a part is followed (a link, a FIFO) before it is read.
  const entries = verifyEntries(dir);
  if (!entries.ok) throw new MergeRefused(`${dir}: ${entries.detail}`);
  const bytes = readFileSync(path.join(dir, MANIFEST_FILE));
  const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  for (const step of [verifyFiles(dir, manifest), verifySignature(dir, bytes, manifest, publicKey)]) {
    if (!step.ok) throw new MergeRefused(`${dir}: ${step.detail}`);
  }
  if (manifest.run.mergedFrom) throw new MergeRefused(`${dir}: already a merge of ${manifest.run.mergedFrom.length} run(s): give the runs it was merged from, and the new one`);
  const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults;
  return { dir, manifest, manifestSha256: sha256Hex(bytes), results };
}

/**
 * What must be the same in every part of one run, by name. The bundled
 * reference listens on a new port at every start, and its profile names that
 * address: its parts must name the same faults and variants instead.
 */
function identity(shard: ShardBundle): Record<string, unknown> {
  const { manifest, results } = shard;
  const target = results.run.reference
    ? {
        target: `the bundled reference (faults ${JSON.stringify(results.run.reference.faults)}, variants ${JSON.stringify(results.run.reference.variants ?? [])}, conditions ${JSON.stringify(results.run.reference.conditions ?? [])})`,
      }
    : { 'profile hash': results.run.profileHash, target: manifest.target.baseUrl };
  return {
    'suite version': manifest.suite.version,
    'suite commit': manifest.suite.gitCommit,
    catalogue: manifest.catalogue.sha256,
    ...target,
    'TLS certificate': manifest.target.tlsCertificateSha256,
    nonce: manifest.run.nonce,
    'waiver file': results.waivers?.sha256 ?? null,
    '--strict-waivers': results.waivers?.strict ?? null,
    'number of shards': partOf(manifest).total,
  };
}

/** The runs of one part, oldest first; the same run given twice is refused, and so are two runs that cannot be ordered. */
function orderedRuns(runs: readonly ShardBundle[], total: number): ShardBundle[] {
  const index = partOf(runs[0]!.manifest).index;
  const bySha = new Map<string, ShardBundle>();
  for (const run of runs) {
    const twice = bySha.get(run.manifestSha256);
    if (twice) {
      throw new MergeRefused(
        `shard ${index}/${total} given twice: ${twice.dir} and ${run.dir} are the same run (manifest.json sha256 ${run.manifestSha256.slice(0, 12)}…); a re-run of a part has a manifest of its own and counts as an attempt`,
      );
    }
    bySha.set(run.manifestSha256, run);
  }
  const ordered = [...runs].sort((a, b) => Date.parse(a.results.run.startedAt) - Date.parse(b.results.run.startedAt));
  ordered.forEach((run, i) => {
    const next = ordered[i + 1];
    if (next && Date.parse(next.results.run.startedAt) === Date.parse(run.results.run.startedAt)) {
      throw new MergeRefused(`shard ${index}/${total}: ${run.dir} and ${next.dir} are two runs started at the same instant (${run.results.run.startedAt}): which attempt came first cannot be told`);
    }
  });
  return ordered;
}

/** The parts in order 1..n, each with its runs oldest first, or a refusal naming the first problem. */
export function readShards(dirs: readonly string[], publicKey?: KeyObject): PartRuns[] {
  if (dirs.length === 0) throw new MergeRefused('no shard directories given');
  const shards = dirs.map((dir) => readShard(dir, publicKey));
  const first = shards[0]!;
  for (const shard of shards.slice(1)) {
    const want = identity(first);
    for (const [what, value] of Object.entries(identity(shard))) {
      if (JSON.stringify(value) !== JSON.stringify(want[what])) {
        throw new MergeRefused(`${shard.dir}: its ${what} (${JSON.stringify(value)}) is not ${first.dir}'s (${JSON.stringify(want[what])}): not parts of one run`);
      }
    }
  }
  const total = partOf(first.manifest).total;
  const byIndex = new Map<number, ShardBundle[]>();
  for (const shard of shards) {
    const index = partOf(shard.manifest).index;
    byIndex.set(index, [...(byIndex.get(index) ?? []), shard]);
  }
  // A duplicate is named before a missing part: `merge part1 part1` is the first mistake, not the absent part 2.
  const parts = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([index, runs]) => ({ index, total, runs: orderedRuns(runs, total) }));
  for (let index = 1; index <= total; index++) {
    if (!byIndex.has(index)) throw new MergeRefused(`shard ${index}/${total} is missing (given: ${parts.map((p) => `${p.index}/${total}`).join(', ')})`);
  }
  return parts;
}
