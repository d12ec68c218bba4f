// Found while hardening ptas serve (issue 28): a client that stopped reading
// a run's bundle mid-download ended the whole server ("StreamError: Writable
// stream closed" from the archive's packing, which nothing heard): any
// token holder could stop the lab. Here, on a real `ptas serve` process, a
// download is dropped after its first bytes, again and again, and the server
// still answers, its next download whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { caller, startServeProcess, waitForRun } from '../serve/support.ts';

/** GETs the URL and drops the connection as soon as the first bytes of the body arrive. */
function dropAfterFirstBytes(url: string, token: string): Promise<void> {
  return new Promise((resolve) => {
    const req = get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => res.once('data', () => (req.destroy(), resolve())));
    req.on('error', () => resolve());
  });
}

test('a bundle download the client drops midway does not stop ptas serve', { timeout: 120_000 }, async () => {
  const data = mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-abort-'));
  const serve = await startServeProcess(data);
  try {
    const call = caller(serve.url, serve.token!);
    const asked = await call('POST', '/api/runs', { body: { implementation: 'reference', options: { grep: '@check:auth.access-token-opens-api' } } });
    assert.equal(asked.status, 202, asked.text);
    await waitForRun(call, asked.json.id, ['finished']);
    // A bundle large enough that the archive is still being packed when the client goes away.
    writeFileSync(path.join(data, 'runs', asked.json.id, 'bundle', 'large-evidence.bin'), randomBytes(24 * 1024 * 1024));
    for (let i = 0; i < 5; i++) await dropAfterFirstBytes(`${serve.url}/api/runs/${asked.json.id}/bundle`, serve.token!);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(serve.child.exitCode, null, `ptas serve ended:\n${serve.stderr()}`);
    const whole = await fetch(`${serve.url}/api/runs/${asked.json.id}/bundle`, { headers: { authorization: `Bearer ${serve.token}` } });
    assert.equal(whole.status, 200);
    assert.ok((await whole.arrayBuffer()).byteLength > 24 * 1024 * 1024, 'the next download is whole');
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
});
