// Which shard bundles `ptas merge` accepts: each one intact (its files as its
// manifest lists them, signed by the given key when one is given), each a
// part of one run — the same suite and commit, catalogue, profile, target
// and nonce, and the same number of parts — and every part there exactly once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { MANIFEST_FILE, sha256Hex, type Manifest } from '../../src/certify/manifest.ts';
import { PtasError } from '../../src/errors.ts';
import type { RunResults } from '../../src/results/model.ts';
import { verifyFiles } from '../verify/bundle-files.ts';
import { verifySignature } from '../verify/signature-and-nonce.ts';

export class MergeRefused extends PtasError {
  readonly code = 'merge-refused';
  override name = 'MergeRefused';
}

export interface ShardBundle {
  dir: string;
  manifest: Manifest;
  manifestSha256: string;
  results: RunResults;
}

function readShard(dir: string, publicKey: KeyObject | undefined): ShardBundle {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.join(dir, MANIFEST_FILE));
  } catch {
    throw new MergeRefused(`${dir}: no ${MANIFEST_FILE} (give the --out directories of ptas run --shard)`);
  }
  const manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
  for (const step of [verifyFiles(dir, manifest), verifySignature(dir, bytes, manifest, publicKey)]) {
    if (!step.ok) throw new MergeRefused(`${dir}: ${step.detail}`);
  }
  if (!manifest.run.shard) throw new MergeRefused(`${dir}: not a shard (it ran without --shard)`);
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
    ? { target: `the bundled reference (faults ${JSON.stringify(results.run.reference.faults)}, variants ${JSON.stringify(results.run.reference.variants ?? [])})` }
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
    'number of shards': manifest.run.shard?.total,
  };
}

/** The shards in order 1..n, or a refusal naming the first problem. */
export function readShards(dirs: readonly string[], publicKey?: KeyObject): ShardBundle[] {
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
  const total = first.manifest.run.shard!.total;
  const byIndex = new Map<number, ShardBundle>();
  for (const shard of shards) {
    const index = shard.manifest.run.shard!.index;
    const twice = byIndex.get(index);
    if (twice) throw new MergeRefused(`shard ${index}/${total} given twice: ${twice.dir} and ${shard.dir}`);
    byIndex.set(index, shard);
  }
  for (let index = 1; index <= total; index++) {
    if (!byIndex.has(index)) throw new MergeRefused(`shard ${index}/${total} is missing (given: ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${total}`).join(', ')})`);
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, shard]) => shard);
}
