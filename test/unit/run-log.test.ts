// The console's log of a run is the run's log events, not the terminal's text
// cut into lines afterwards: the check runner reads the Playwright process's
// stdout and stderr each on its own, line by line (runner/run-checks.ts
// relayLog), and `ptas serve`'s live view publishes each log event as one log
// line (app/serve/live-view.ts). When the two streams took turns mid-line, or
// a chunk ended inside a character, the text written to one stream and cut
// afterwards read "caf\uFFFDa warning" and "\uFFFD — 12 ms".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { relayLog } from '../../runner/run-checks.ts';
import { checkEventReader, writeChannelEvent } from '../../runner/check-events.ts';
import { liveView } from '../../app/serve/live-view.ts';
import type { RunEvent as ServedEvent } from '../../app/serve/contract.ts';
import type { RunEvent } from '../../src/run-events/events.ts';
import { Redactor } from '../../src/http/redact.ts';

test("the child's lines reach the console whole: a line cut between chunks, inside a character, while the other stream wrote", async () => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const published: ServedEvent[] = [];
  const live = liveView({ redactor: new Redactor([['s3cr3t-value', 'secret']]), emit: (e) => published.push(e), startedAt: 0, load: false });
  const relayed = relayLog({ stdout, stderr } as never, live.events);
  const line = Buffer.from('[1/2] PASS   users.café  Details (12 ms)\n');
  const inside = line.indexOf('é') + 1;
  stdout.write(line.subarray(0, inside));
  stderr.write('a warning naming s3cr3t-value\n');
  stdout.write(line.subarray(inside));
  stdout.end('a last line without its newline');
  stderr.end();
  await relayed;
  assert.deepEqual(published, [
    { type: 'log', line: `a warning naming ${new Redactor([['s3cr3t-value', 'secret']]).redactString('s3cr3t-value')}` },
    { type: 'log', line: '[1/2] PASS   users.café  Details (12 ms)' },
    { type: 'log', line: 'a last line without its newline' },
  ]);
});

test('a check on the runner\'s event channel cut inside a character keeps its title', () => {
  const heard: RunEvent[] = [];
  const read = checkEventReader((e) => heard.push(e));
  const bytes = Buffer.from(`${JSON.stringify({ kind: 'check', check: { id: 'users.x', title: 'Détails — 5 ± 1 s', target: 't', verdict: 'PASS', durationMs: 3 } })}\n`);
  const inside = bytes.indexOf(Buffer.from('—')) + 1;
  read(bytes.subarray(0, inside));
  read(bytes.subarray(inside));
  assert.deepEqual(heard.map((e) => e.kind === 'check' && e.check.title), ['Détails — 5 ± 1 s']);
});

test('a channel that is not open says so, so the collector hands the event over at the end instead of losing it', () => {
  // A descriptor nobody opened: Playwright started by other means than runner/run-checks.ts.
  assert.equal(writeChannelEvent({ kind: 'problem', message: 'a worker crashed' }, 987), false);
});
