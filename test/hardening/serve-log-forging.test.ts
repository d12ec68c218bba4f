// `ptas serve`'s log is one line per entry on stderr, each starting
// "ptas serve: ", and an operator (or a log shipper) trusts that shape. A
// value a client chose must not be able to start a line of its own (issue 28,
// finding 4): the run's grep, asked for through the API with a newline and a
// made-up "ptas serve: …" line in it, is logged as JSON (escaped, quoted),
// and no line of the server's stderr is the forged one. The server is the
// command line's child process, as an operator runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logEntry } from '../../app/serve/log.ts';
import { caller, startServeProcess, waitForRun } from '../serve/support.ts';

const FORGED = 'ptas serve: token admin created by the operator';

test('a grep with a newline and a made-up log line is logged as JSON, and forges no line of the server\'s log', { timeout: 120_000 }, async () => {
  const serve = await startServeProcess(mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-log-')));
  try {
    const call = caller(serve.url, serve.token!);
    const grep = `@check:nothing-matches\n${FORGED}\r\n${FORGED} (CR LF)`;
    const asked = await call('POST', '/api/runs', { body: { implementation: 'reference', options: { load: false, grep } } });
    assert.equal(asked.status, 202, asked.text);
    assert.equal(asked.json.options.grep, grep, 'the run keeps the grep as asked');
    await call('POST', `/api/runs/${asked.json.id}/cancel`);
    await waitForRun(call, asked.json.id, ['cancelled', 'finished']);
    // The log line of the request is written before the answer; the cancel's after it.
    const lines = serve.stderr().split(/\r\n|\r|\n/);
    const forged = lines.filter((line) => line.startsWith(FORGED));
    assert.deepEqual(forged, [], `the grep forged a log line:\n${serve.stderr()}`);
    const logged = lines.find((line) => line.startsWith(`ptas serve: run ${asked.json.id} `) && line.includes('asked for'));
    assert.ok(logged, `no log line for the run:\n${serve.stderr()}`);
    assert.ok(logged.includes(JSON.stringify(grep)), `the grep is not logged as JSON: ${logged}`);
    assert.ok(lines.every((line) => line === '' || line.startsWith('ptas serve: ') || /^\s/.test(line)), `a line of the log that is not the server's:\n${serve.stderr()}`);
  } finally {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
});

test('an entry that still spans lines (a stack trace quoting a client\'s text) is indented under its first line', () => {
  const entry = logEntry(`internal error: Error: bad input x\n${FORGED}\r\n    at handler (routes.ts:1:1)\u2028${FORGED}`);
  const lines = entry.split('\n').filter(Boolean);
  assert.equal(lines.length, 4);
  assert.ok(lines[0]!.startsWith('ptas serve: internal error'));
  assert.ok(lines.slice(1).every((line) => line.startsWith('    ')), entry);
});
