// A run's one stream of events (src/run-events/events.ts) and the terminal's
// view of it (src/run-events/terminal.ts): every consumer hears every event,
// a consumer passes over a kind it does not know (a new kind is added in one
// place), a log keeps each activity's progress every few seconds, and a
// terminal redraws the live line of the activities in progress in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { fanOut, logText, progressAsLog, type RunEvent, type RunEventSink } from '../../src/run-events/events.ts';
import { terminalSink } from '../../src/run-events/terminal.ts';
import { liveView } from '../../app/serve/live-view.ts';
import type { RunEvent as ServedEvent } from '../../app/serve/contract.ts';
import { Redactor } from '../../src/http/redact.ts';

/** A stream that keeps what is written to it; a terminal when `tty`. */
function screen(tty: boolean): Writable & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk.toString()), done()) });
  if (tty) Object.assign(stream, { isTTY: true, columns: 200 });
  return Object.assign(stream, { text: () => chunks.join('') });
}

function recorder(): RunEventSink & { heard: RunEvent[] } {
  const heard: RunEvent[] = [];
  return Object.assign((event: RunEvent) => void heard.push(event), { heard });
}

const progress = (source: string, elapsedSec: number): RunEvent => ({ kind: 'progress', source, line: `${source} ${elapsedSec}s`, elapsedSec });

/** An event of a kind no consumer knows yet, as a kind added tomorrow reaches today's consumers. */
const unknownKind = { kind: 'webhook-delivery', check: 'webhooks.retried', attempt: 2 } as unknown as RunEvent;

test('fanOut hands every event to each consumer, in their order', () => {
  const order: string[] = [];
  const first = recorder();
  const second = recorder();
  const sink = fanOut(
    (e) => (first(e), order.push('first')),
    (e) => (second(e), order.push('second')),
  );
  const events: RunEvent[] = [{ kind: 'log', line: 'ptas: running' }, { kind: 'load-step', step: { probe: 'load.token-rate-limit', ratePerSecond: 20, sent: 40, refused: 0, climb: 1 } }, unknownKind];
  for (const event of events) sink(event);
  assert.deepEqual(first.heard, events);
  assert.deepEqual(second.heard, events);
  assert.deepEqual(order, ['first', 'second', 'first', 'second', 'first', 'second']);
});

test('a consumer passes over a kind it does not know: the terminal prints nothing, the live view publishes nothing, a log passes it on', () => {
  for (const tty of [false, true]) {
    const out = screen(tty);
    terminalSink(out)(unknownKind);
    assert.equal(out.text(), '', `tty: ${tty}`);
  }
  const published: ServedEvent[] = [];
  liveView({ redactor: new Redactor(), emit: (e) => published.push(e), startedAt: 0, load: false }).events(unknownKind);
  assert.deepEqual(published, []);
  const next = recorder();
  progressAsLog(next)(unknownKind);
  assert.deepEqual(next.heard, [unknownKind]);
});

test('logText makes one log event a line, without a newline in any', () => {
  const sink = recorder();
  logText(sink, '[over all] ERROR  errors.error-bodies-are-json  Error bodies (3 ms)\n                   the reason\n');
  assert.deepEqual(
    sink.heard.map((e) => e.kind === 'log' && e.line),
    ['[over all] ERROR  errors.error-bodies-are-json  Error bodies (3 ms)', '                   the reason'],
  );
});

test('a log keeps each activity\'s progress every 5 s of its own clock, and drops the end of its progress', () => {
  const sink = recorder();
  const log = progressAsLog(sink);
  for (const second of [0, 1, 4, 5, 6, 10]) log(progress('token', second));
  log(progress('accept', 2));
  log({ kind: 'progress-end', source: 'token' });
  log({ kind: 'log', line: 'done' });
  assert.deepEqual(
    sink.heard.map((e) => e.kind === 'log' && e.line),
    ['token 0s', 'token 5s', 'token 10s', 'accept 2s', 'done'],
  );
});

test('in a file or a pipe the terminal prints each log line, and each activity\'s progress every 5 s', () => {
  const out = screen(false);
  const terminal = terminalSink(out);
  terminal({ kind: 'log', line: 'ptas: load stage against http://127.0.0.1:8080' });
  for (const second of [0, 1, 5]) terminal(progress('ptas load: token 429', second));
  terminal({ kind: 'progress-end', source: 'ptas load: token 429' });
  terminal({ kind: 'check', check: { id: 'load.token-rate-limit', title: 't', area: 'load', severity: 'MUST', requirements: [], target: 'target', verdict: 'PASS', durationMs: 1, findings: [], evidence: [], timeline: [] } });
  terminal({ kind: 'log', line: 'ptas load: token 429: PASS limit 20 req/s' });
  assert.equal(out.text(), 'ptas: load stage against http://127.0.0.1:8080\nptas load: token 429 0s\nptas load: token 429 5s\nptas load: token 429: PASS limit 20 req/s\n');
});

test('on a terminal the activities in progress share one live line, which a log line clears first and the end of an activity takes it off', () => {
  const out = screen(true);
  const terminal = terminalSink(out);
  terminal(progress('token', 1));
  terminal(progress('accept', 1));
  terminal({ kind: 'log', line: 'token: backing off 1 s' });
  terminal(progress('token', 2));
  terminal({ kind: 'progress-end', source: 'accept' });
  terminal({ kind: 'progress-end', source: 'accept' });
  const clear = '\r\x1b[2K';
  assert.equal(out.text(), `${clear}token 1s${clear}token 1s  |  accept 1s${clear}token: backing off 1 s\n${clear}token 2s  |  accept 1s${clear}`);
  // Two sinks of one terminal share its live line: a line printed through another is printed on a clean line.
  terminal(progress('token', 3));
  terminalSink(out)({ kind: 'log', line: 'elsewhere' });
  assert.ok(out.text().endsWith(`${clear}token 3s${clear}elsewhere\n`));
});

test("the live view counts a check told again once: its final judgment replaces its first verdict in the counts", () => {
  const published: ServedEvent[] = [];
  const live = liveView({ redactor: new Redactor(), emit: (e) => published.push(e), startedAt: 0, load: true });
  const told = (id: string, verdict: 'PASS' | 'WARN') => live.events({ kind: 'check', check: { id, title: id, area: 'errors', severity: 'SHOULD', requirements: [], target: 'target', verdict, durationMs: 1, findings: [], evidence: [], timeline: [] } });
  told('users.details-schema', 'PASS');
  told('errors.error-bodies-are-json', 'PASS');
  told('errors.error-bodies-are-json', 'WARN');
  assert.deepEqual(live.counts, { PASS: 1, WARN: 1 });
  const last = published.at(-1);
  assert.ok(last?.type === 'check');
  assert.deepEqual(last.counts, { PASS: 1, WARN: 1 });
});
