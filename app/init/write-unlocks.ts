// `npm run unlocks`: reruns the suite against the bundled reference and
// rewrites app/init/unlocks.json, the map `ptas init` writes into its comments
// (test/unit/init-unlocks.test.ts fails until it is rerun after a check
// starts or stops skipping on a profile key). Takes about half a minute.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/paths.ts';
import { computeUnlocks } from './unlocks-run.ts';
import { UNLOCKS_FILE, unlocksText } from './unlocks.ts';

const started = performance.now();
const computed = await computeUnlocks({ log: (line) => process.stdout.write(`${line}\n`) });
writeFileSync(UNLOCKS_FILE, unlocksText(computed));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`wrote ${path.relative(packageRoot, UNLOCKS_FILE)} (${Object.keys(computed.unlocks).length} keys, the needs of ${Object.keys(computed.needs).length} checks) in ${seconds} s\n`);
