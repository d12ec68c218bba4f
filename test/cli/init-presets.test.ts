// `ptas init --preset`: a profile with nothing left to fill in. For each
// preset, a real `ptas reference` started as the preset says (with
// --deployed-api or without), the profile `ptas init --preset` writes for its
// address, then `ptas doctor` with only PTAS_CLIENT_SECRET set: every
// operation OK, and certification needs no further key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fromRoot } from '../../src/paths.ts';
import { PRESETS } from '../../app/init/preset-names.ts';
import { runPtas } from '../support/cli.ts';

const SECRET = 'preset-test-secret';

async function startReference(flags: string[]): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'reference', '--port', '0', ...flags], {
    env: { ...process.env, PTAS_REF_CLIENT_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no start banner within 30 s')), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`ptas reference exited ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

for (const preset of PRESETS) {
  test(`ptas init --preset ${preset}: ptas doctor passes against the reference it names, and certification needs nothing more`, { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-preset-'));
    const reference = await startReference(preset === 'deployed-api' ? ['--deployed-api'] : []);
    try {
      const file = path.join(dir, 'profile.jsonc');
      const init = await runPtas(['init', '--preset', preset, '--base-url', reference.url, '--yes', '-o', file]);
      assert.equal(init.code, 0, init.stderr);
      assert.match(init.stdout, new RegExp(`the ${preset} preset for ${reference.url.replaceAll('.', '\\.')}, complete`));
      const text = readFileSync(file, 'utf8');
      assert.ok(!text.includes(SECRET) && !text.includes('reference-demo-secret'), 'no secret in the clear');
      assert.match(text, /"clientSecret": "env:PTAS_CLIENT_SECRET"/);

      const doctor = await runPtas(['doctor', '-c', file], { env: { PTAS_CLIENT_SECRET: SECRET } });
      assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
      assert.match(doctor.stdout, /every configured operation works: \d+ OK, 0 PROBLEM, 0 SKIPPED/);
      assert.match(doctor.stdout, /certification: the profile sets every key the required checks need/);
      if (preset === 'deployed-api') assert.match(doctor.stdout, /verifies: RFC 9421 signature .* keys from/, 'the deployed API\'s signatures are declared and verified');
    } finally {
      reference.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('ptas init --preset refuses a name it does not know, and lists the presets', async () => {
  const result = await runPtas(['init', '--preset', 'nope', '--yes', '-o', path.join(os.tmpdir(), 'never-written.jsonc')]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Choices: "reference", "deployed-api"/);
});
