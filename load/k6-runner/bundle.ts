// Bundles the k6 entry scripts with esbuild: proves every import resolves
// with nothing but k6's own modules left external (CI runs it through
// test/load/k6-scripts.test.ts), and with --outdir writes plain-JS bundles for
// k6 older than 0.57 or a k6-operator image.
//
//   npm run k6:bundle                 # check only
//   npm run k6:bundle -- --outdir dist/k6
import { build, type BuildResult } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const K6_ENTRY_SCRIPTS = ['arrival-rate.ts', 'body-size-boundary.ts'].map((f) => path.join(here, '..', 'k6', f));

export async function bundleK6Scripts(outdir?: string): Promise<BuildResult<{ write: boolean; metafile: true }>> {
  return build({
    entryPoints: K6_ENTRY_SCRIPTS,
    bundle: true,
    format: 'esm',
    // Neutral: a Node built-in (node:fs, …) would fail to resolve instead of being bundled or left external.
    platform: 'neutral',
    target: 'es2020',
    external: ['k6', 'k6/*'],
    write: outdir !== undefined,
    outdir: outdir ?? path.join(here, 'bundle-check'),
    metafile: true,
    logLevel: 'silent',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--outdir');
  const outdir = i > 0 ? process.argv[i + 1] : undefined;
  try {
    const result = await bundleK6Scripts(outdir);
    const inputs = Object.keys(result.metafile.inputs).length;
    process.stdout.write(`k6 scripts bundle: ${K6_ENTRY_SCRIPTS.length} entries, ${inputs} modules, no unresolved import${outdir ? `; written to ${outdir}` : ''}\n`);
  } catch (error) {
    process.stderr.write(`k6 scripts do not bundle: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
