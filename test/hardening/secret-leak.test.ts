// No secret in any artifact or terminal output of a full run (conformance,
// webhooks and load): the client secret and every token the reference issued
// (it logs them to a file when PTAS_REFERENCE_TOKEN_LOG is set) are searched
// for in every file the run wrote and in its stdout and stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifactText } from '../support/artifact-text.ts';
import { runPtas } from '../support/cli.ts';

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesBelow(full) : [full];
  });
}

test('a full run leaks neither the client secret nor any issued token', { timeout: 300_000 }, async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'ptas-leak-'));
  const secretLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'ptas-leak-log-')), 'issued.txt');
  const clientSecret = `leak-test-${randomBytes(16).toString('hex')}`;
  // Full on purpose (every exchange, load stage included); two workers rather than four only spares worker starts.
  const run = await runPtas(['run', '--workers', '2', '--out', out], {
    env: { PTAS_REFERENCE_CLIENT_SECRET: clientSecret, PTAS_REFERENCE_TOKEN_LOG: secretLog },
  });
  assert.equal(run.code, 0, run.stdout.slice(-3000) + run.stderr);
  const issued = readFileSync(secretLog, 'utf8').split('\n').filter(Boolean);
  assert.ok(issued.length >= 20, `only ${issued.length} secrets were logged`);
  const secrets = [clientSecret, ...issued];
  const outputs = [
    ...filesBelow(out).map((file) => ({ where: file, text: artifactText(file, 'latin1') })),
    { where: 'stdout', text: run.stdout },
    { where: 'stderr', text: run.stderr },
  ];
  assert.ok(outputs.length >= 5);
  for (const { where, text } of outputs) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `a secret (${secret.slice(0, 6)}…) leaked into ${where}`);
  }
});
