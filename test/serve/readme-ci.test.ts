// The README's "From CI" sequence, run as written: its shell block is taken
// from README.md and run by bash, with curl and jq, against a real `ptas
// serve` (its store in the job's folder, where `ptas serve token create`
// finds it) and the bundled reference, whose full profile is the job's
// ptas-profile.jsonc with its client secret written "env:PTAS_CLIENT_SECRET"
// wherever it goes, as CI holds it. Only the lab's address is the test's; `npx ptas` is this
// checkout's bin/ptas.js. The sequence must end with a bundle `ptas verify`
// accepts and a share link: a README that drifts from the product fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { startServeProcess } from './support.ts';

/** The first ```sh block after the "From CI:" line of the README. */
function fromCiBlock(readme: string): string {
  const start = readme.indexOf('\nFrom CI');
  assert.ok(start >= 0, 'README.md has a "From CI:" section');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  assert.ok(block, 'the "From CI:" section has a ```sh block');
  return block[1]!;
}

const missingTool = ['bash', 'curl', 'jq', 'tar'].find((tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
});

function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk));
    const timer = setTimeout(() => {
      out += `\n(the sequence did not end within ${timeoutMs} ms: stopped)`;
      process.kill(-child.pid!, 'SIGKILL');
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

test("the README's From CI sequence, as written: profile stored, certifiable run with its secret, events to the end, verdict, bundle that ptas verify accepts, share link", { timeout: 8 * 60_000 }, async (t) => {
  if (missingTool) {
    t.skip(`SKIPPED: ${missingTool} is not on PATH, and the README's sequence uses it`);
    return;
  }
  const job = mkdtempSync(path.join(os.tmpdir(), 'ptas-readme-ci-'));
  const reference = await spawnReference();
  let serve: Awaited<ReturnType<typeof startServeProcess>> | undefined;
  try {
    const { clientSecret } = reference.options;
    // Every place holding the reference's client secret (its own licence's client shares it) reads it from CI's secret.
    const profileText = JSON.stringify(referenceProfile(reference.url, reference.options), null, 2).replaceAll(JSON.stringify(clientSecret), '"env:PTAS_CLIENT_SECRET"');
    writeFileSync(path.join(job, 'ptas-profile.jsonc'), profileText);
    serve = await startServeProcess(path.join(job, 'ptas-data'));
    // `npx ptas` as in a checkout of this project, without npm's lookup.
    const bin = path.join(job, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'npx'), `#!/bin/sh\n[ "$1" = ptas ] || { echo "npx $1: only ptas here" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${fromRoot('bin', 'ptas.js')}" "$@"\n`);
    chmodSync(path.join(bin, 'npx'), 0o755);

    const sequence = fromCiBlock(readFileSync(fromRoot('README.md'), 'utf8'));
    assert.match(sequence, /^LAB=http:\/\/127\.0\.0\.1:7300 /m, "the sequence names the lab's address first");
    const script = `set -euo pipefail\n${sequence.replace(/^LAB=http:\/\/127\.0\.0\.1:7300 /m, `LAB=${serve.url} `)}`;
    const { code, out } = await runBash(script, job, { ...process.env, PATH: `${bin}:${process.env.PATH}`, PTAS_CLIENT_SECRET: clientSecret }, 6 * 60_000);

    assert.equal(code, 0, `the sequence failed (exit ${code}):\n${out}`);
    assert.match(out, /^event: end$/m, 'the event stream ran to its end');
    assert.match(out, /^CONFORMANT$/m, 'the verdict printed by jq');
    assert.match(out, /^✔ required checks\s+all \d+ of the catalogue's list have exactly one final verdict, none SKIP or ERROR$/m, 'a certifiable run');
    assert.match(out, /^ptas verify: \S+ptas-run-\S+ holds$/m, 'ptas verify accepts the bundle');
    assert.match(out, /"url":\s*"\/share\/[A-Za-z0-9_-]+"/, 'the share link');
    assert.ok(!out.includes(clientSecret), 'the client secret never shows in what the sequence printed');
  } finally {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
    await reference.stop();
    rmSync(job, { recursive: true, force: true });
  }
});
