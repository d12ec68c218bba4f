// `ptas verify`, the files: every artifact the manifest lists is there with
// its SHA-256 and size, and nothing is there that it does not list.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex, type Manifest } from '../../src/certify/manifest.ts';
import { bundleFiles } from '../certify/write-bundle.ts';
import type { VerifyStep } from './steps.ts';

export function verifyFiles(dir: string, manifest: Manifest): VerifyStep {
  const listed = new Set(manifest.artifacts.map((a) => a.path));
  for (const artifact of manifest.artifacts) {
    const file = path.join(dir, artifact.path);
    if (artifact.path.split('/').includes('..') || path.isAbsolute(artifact.path)) {
      return { name: 'files', ok: false, detail: `${artifact.path}: the manifest names a path outside the bundle` };
    }
    if (!existsSync(file)) return { name: 'files', ok: false, detail: `${artifact.path}: listed in the manifest but missing` };
    const bytes = readFileSync(file);
    if (sha256Hex(bytes) !== artifact.sha256 || bytes.length !== artifact.bytes) {
      return { name: 'files', ok: false, detail: `${artifact.path}: its SHA-256 differs from the manifest's (changed after the run)` };
    }
  }
  const unlisted = bundleFiles(dir).filter((file) => !listed.has(file));
  if (unlisted.length) return { name: 'files', ok: false, detail: `${unlisted[0]}: in the bundle but not listed in the manifest${unlisted.length > 1 ? ` (and ${unlisted.length - 1} more)` : ''}` };
  return { name: 'files', ok: true, detail: `${manifest.artifacts.length} artifacts, every SHA-256 as listed, nothing unlisted` };
}
