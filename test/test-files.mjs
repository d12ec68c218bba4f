// The test files of a group of `npm test`, the longest first, then the rest
// in name order: `node test/test-files.mjs side-by-side` (three at a time),
// `timed` (test/load and the Ctrl-C test, two at a time) or `beside-selftest`. Node's runner
// starts files in the order given, so a long file started last would run
// alone at the end while the other slots stand idle (longest-first
// scheduling keeps them busy). The lists hold the files that took longest in
// a timed run of each group on the 2-core CI machine (2026-11-29); a file
// not named runs in name order after them, so a new long file costs time at
// the end until it is added. The self-test (test:selftest) runs beside the
// `beside-selftest` files alone: proofs against the reference that mostly
// wait (exploration's specificity, paced by rate limits, processing and
// webhook deliveries), so the self-test's 1.3 cores leave them room.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const BESIDE_SELFTEST = ['test/explore/specificity.test.ts'];

const SIDE_BY_SIDE_LONGEST = [
  'test/serve/api.test.ts',
  'test/explore/sensitivity.test.ts',
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

const TIMED_LONGEST = ['test/load/faults.test.ts', 'test/load/distributed.test.ts', 'test/load/rate-limit.test.ts', 'test/hardening/interrupt.test.ts', 'test/load/slow-processing.test.ts'];

/** What measures rates or time: run two at a time, apart from the rest. */
const isTimed = (file) => file.startsWith('test/load/') || path.basename(file) === 'interrupt.test.ts';

const GROUPS = {
  'side-by-side': { longest: SIDE_BY_SIDE_LONGEST, holds: (file) => !file.startsWith('test/selftest/') && !isTimed(file) && !BESIDE_SELFTEST.includes(file) },
  timed: { longest: TIMED_LONGEST, holds: isTimed },
  'beside-selftest': { longest: BESIDE_SELFTEST, holds: (file) => BESIDE_SELFTEST.includes(file) },
};

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.posix.join(dir, name);
    if (statSync(file).isDirectory()) return testFiles(file);
    return name.endsWith('.test.ts') ? [file] : [];
  });
}

const group = GROUPS[process.argv[2]];
if (!group) {
  process.stderr.write(`usage: node test/test-files.mjs ${Object.keys(GROUPS).join('|')}\n`);
  process.exit(2);
}
const all = testFiles('test').filter(group.holds).sort();
const first = group.longest.filter((file) => all.includes(file));
process.stdout.write([...first, ...all.filter((file) => !first.includes(file))].join('\n') + '\n');
