// What `ptas run` adds for a certification bundle: the checks of its --nonce
// and --shard arguments, and the line that says where the manifest is, whether
// it is signed, and which part of a sharded run it is.
import type { Manifest } from '../src/certify/manifest.ts';
import type { ShardPart } from '../src/results/model.ts';

/** A nonce travels in a request header: visible ASCII only, at most 200 characters (schemas/profile/http.schema.json http.nonce). */
export function nonceArgument(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,200}$/.test(value)) throw new Error('--nonce: 1 to 200 visible ASCII characters (no spaces), as the certifier issued it');
  return value;
}

/** "i/n" → the part; 1 <= i <= n <= 64. */
export function shardArgument(value: string | undefined): ShardPart | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const [index, total] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || index < 1 || total < 1 || index > total || total > 64) throw new Error(`--shard: INDEX/TOTAL with 1 <= INDEX <= TOTAL <= 64, e.g. 1/2 (got ${JSON.stringify(value)})`);
  return { index, total };
}

export function bundleLine(manifest: Manifest, manifestPath: string): string {
  const signed = manifest.signature === 'unsigned' ? 'unsigned (give --sign-key to sign it)' : `signed, Ed25519 key sha256:${manifest.signature.publicKeySha256.slice(0, 16)}…`;
  const nonce = manifest.run.nonce ? `, nonce ${manifest.run.nonce}` : '';
  const part = manifest.run.shard ? `, shard ${manifest.run.shard.index}/${manifest.run.shard.total}: join the parts with ptas merge` : '';
  return `  manifest: ${manifestPath} (${manifest.artifacts.length} artifacts, ${signed}${nonce}${part})\n`;
}
