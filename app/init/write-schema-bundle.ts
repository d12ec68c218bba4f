// `npm run schema:bundle`: regenerates schemas/ptas-profile.bundle.json after
// a change to schemas/config.schema.json or schemas/profile/*.schema.json
// (test/unit/init.test.ts fails until it is rerun).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/paths.ts';
import { PROFILE_SCHEMA_BUNDLE, bundleText } from './schema-bundle.ts';

writeFileSync(PROFILE_SCHEMA_BUNDLE, bundleText());
process.stdout.write(`wrote ${path.relative(packageRoot, PROFILE_SCHEMA_BUNDLE)}\n`);
