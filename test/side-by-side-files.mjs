// The test files `npm run test:side-by-side` runs, three at a time: the
// longest first, then the rest in name order. Node's runner starts files in
// the order given, so a long file started last would run alone at the end
// while the other slots stand idle (longest-first scheduling keeps them busy).
// The list holds the files that took longest in a timed run of the group
// (per-file durations, three at a time on the 2-core CI machine, 2026-11-29);
// a file not named here runs in name order after them, so a new long file
// costs time at the end until it is added. Files elsewhere: test/load and the
// interrupt test run timed (test:timed), the self-test alone (test:selftest).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const LONGEST_FIRST = [
  'test/serve/api.test.ts',
  'test/cli/certify.test.ts',
  'test/unit/init-unlocks.test.ts',
  'test/cli/cli.test.ts',
  'test/serve/console-browser.test.ts',
  'test/cli/rerun.test.ts',
  'test/cli/onboarding.test.ts',
  'test/serve/e2e-browser.test.ts',
  'test/serve/restart.test.ts',
  'test/serve/readme-ci.test.ts',
  'test/hardening/serve-secret-leak.test.ts',
  'test/cli/init.test.ts',
  'test/hardening/tls.test.ts',
  'test/cli/doctor.test.ts',
  'test/serve/rerun.test.ts',
  'test/hardening/serve-cookie-replay.test.ts',
  'test/serve/console-share.test.ts',
  'test/cli/waivers-run.test.ts',
  'test/hardening/secret-leak.test.ts',
  'test/serve/roles-audit.test.ts',
];

/** Elsewhere: the timed group and the self-test. */
const runElsewhere = (file) => file.startsWith('test/selftest/') || file.startsWith('test/load/') || path.basename(file) === 'interrupt.test.ts';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.posix.join(dir, name);
    if (statSync(file).isDirectory()) return testFiles(file);
    return name.endsWith('.test.ts') ? [file] : [];
  });
}

const all = testFiles('test').filter((file) => !runElsewhere(file)).sort();
const first = LONGEST_FIRST.filter((file) => all.includes(file));
process.stdout.write([...first, ...all.filter((file) => !first.includes(file))].join('\n') + '\n');
