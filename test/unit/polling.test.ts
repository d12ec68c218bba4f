// pollUntilTerminal against a real local server: it stops at the first
// terminal status, backs off with a bounded interval, judges the deadline on
// a poll sent at the deadline, and ends no later than the deadline and the
// answer's grace when a poll never answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { backoffMs, pollUntilTerminal, type PollObservation } from '../../src/polling.ts';
import { closeTransport, createTransport, HttpClient, type TransportSettings } from '../../src/http/client.ts';
import { Redactor } from '../../src/http/redact.ts';

let server: Server;
let transport: TransportSettings;
let http: HttpClient;
/** Poll times per job, as the server saw them. */
const hits = new Map<string, number[]>();

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const job = url.searchParams.get('job') ?? '';
    const times = hits.get(job) ?? [];
    times.push(performance.now());
    hits.set(job, times);
    if (job === 'hang') return; // never answers; the client's timeout or close ends it
    const doneAfter = Number(url.searchParams.get('doneAfter') ?? Infinity);
    const status = times.length >= doneAfter ? 'accepted' : 'in_progress';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { status } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  transport = createTransport({ timeoutMs: 5_000 });
  http = new HttpClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, transport, redactor: new Redactor() });
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await closeTransport(transport, 'destroy');
});

interface StatusObservation extends PollObservation {
  status?: string;
}

function statusPoll(query: Record<string, string>) {
  return async (): Promise<StatusObservation> => {
    const res = await http.get('/status', { query, label: 'poll' });
    const status = (res.json as { data?: { status?: string } } | undefined)?.data?.status;
    return { status, terminal: status === 'accepted', summary: `status ${status} (HTTP ${res.status})` };
  };
}

function recorder() {
  const events: Array<{ name: string; detail?: string }> = [];
  return { events, event: (name: string, detail?: string) => void events.push({ name, detail }) };
}

test('backoff doubles from the initial interval and stays at the maximum', () => {
  const settings = { deadlineMs: 10_000, initialIntervalMs: 50, maxIntervalMs: 300 };
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, settings)), [50, 100, 200, 300, 300, 300]);
});

test('stops at the first terminal status and records every poll', async () => {
  const sink = recorder();
  const outcome = await pollUntilTerminal(statusPoll({ job: 'three', doneAfter: '3' }), { deadlineMs: 5_000, initialIntervalMs: 20 }, sink);
  assert.equal(outcome.reached, true);
  assert.equal(outcome.polls, 3);
  assert.equal(outcome.last?.status, 'accepted');
  assert.equal(hits.get('three')?.length, 3);
  assert.deepEqual(sink.events.map((e) => e.name), ['poll 1', 'poll 2', 'poll 3']);
  assert.match(sink.events[2]!.detail!, /status accepted \(HTTP 200\).*terminal/);
  // 20 ms then 40 ms between polls, as the server saw them.
  const [t1, t2, t3] = hits.get('three')!;
  assert.ok(t2! - t1! >= 15 && t3! - t2! >= 35, `intervals ${t2! - t1!}, ${t3! - t2!}`);
});

test('a status that never becomes terminal ends at the deadline with a timeline, backing off within the bound', async () => {
  const sink = recorder();
  const deadlineMs = 1_200;
  const started = performance.now();
  const outcome = await pollUntilTerminal(statusPoll({ job: 'never' }), { deadlineMs, initialIntervalMs: 25, maxIntervalMs: 200 }, sink);
  const took = performance.now() - started;
  assert.equal(outcome.reached, false);
  assert.equal(outcome.answeredAtDeadline, true, 'the last answer came at the deadline');
  assert.equal(outcome.last?.status, 'in_progress');
  assert.ok(took <= deadlineMs + 50, `took ${took} ms for a ${deadlineMs} ms deadline`);
  assert.ok(took >= deadlineMs, `judged before the deadline, after ${took} ms`);
  const times = hits.get('never')!;
  assert.equal(times.length, outcome.polls);
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  assert.ok(gaps.every((g) => g <= 200 + 40), `a gap exceeded the 200 ms bound: ${gaps.map(Math.round).join(', ')}`);
  // The last poll went out at the deadline.
  assert.ok(times.at(-1)! - started >= deadlineMs, `the last poll went out ${Math.round(times.at(-1)! - started)} ms in, before the ${deadlineMs} ms deadline`);
  // The waits polling scheduled grow (the gaps the server saw carry the machine's jitter besides).
  const waits = sink.events.map((e) => /next poll in (\d+) ms/.exec(e.detail ?? '')?.[1]).filter((w) => w !== undefined).map(Number);
  assert.ok(waits[1]! > waits[0]!, `the interval grows: ${waits.join(', ')}`);
  assert.equal(sink.events.length, outcome.polls);
  assert.match(sink.events.at(-1)!.detail!, /still not terminal at the 1\.2 s deadline/);
});

test('a poll that never answers does not hold polling past the deadline and its grace, and leaves the deadline unjudged', async () => {
  const sink = recorder();
  const started = performance.now();
  // A timer of the same 600 ms beside it: how late this machine's timers fire now (a loaded one fires them late, polling's too).
  const timerTook = new Promise<number>((resolve) => setTimeout(() => resolve(performance.now() - started), 600));
  const outcome = await pollUntilTerminal(statusPoll({ job: 'hang' }), { deadlineMs: 400, answerGraceMs: 200 }, sink);
  const took = performance.now() - started;
  assert.equal(outcome.reached, false);
  assert.equal(outcome.answeredAtDeadline, false);
  assert.equal(outcome.last, undefined);
  const timer = await timerTook;
  assert.ok(took >= 600 && took < timer + 50, `took ${took} ms; a 600 ms timer beside it fired after ${timer} ms`);
  assert.deepEqual(sink.events.map((e) => e.name), ['poll 1 unanswered']);
});

test('a final observation ends polling at once, without a terminal status and before the deadline', async () => {
  const sink = recorder();
  let polls = 0;
  const outcome = await pollUntilTerminal(
    async () => (++polls === 2 ? { terminal: false, final: true, summary: 'HTTP 404, status not read' } : { terminal: false, summary: 'status in_progress (HTTP 200)' }),
    { deadlineMs: 5_000, initialIntervalMs: 10 },
    sink,
  );
  assert.equal(outcome.reached, false);
  assert.equal(outcome.stopped, true);
  assert.equal(outcome.polls, 2);
  assert.ok(outcome.elapsedMs < 1_000, `took ${outcome.elapsedMs} ms`);
  assert.match(sink.events.at(-1)!.detail!, /HTTP 404.*polling stops/);
});

test('a non-positive deadline is refused', async () => {
  await assert.rejects(pollUntilTerminal(statusPoll({ job: 'x' }), { deadlineMs: 0 }, recorder()), RangeError);
});

test('answered before the deadline, then silent at it: "not terminal at the deadline" is not concluded from the earlier answer', async () => {
  let polls = 0;
  const outcome = await pollUntilTerminal(
    () => (++polls === 1 ? Promise.resolve({ terminal: false, summary: 'status in_progress (HTTP 200)' }) : new Promise<PollObservation>(() => undefined)),
    { deadlineMs: 300, initialIntervalMs: 1_000, answerGraceMs: 100 },
    recorder(),
  );
  assert.equal(outcome.reached, false);
  assert.equal(outcome.answeredAtDeadline, false);
  assert.equal(outcome.last?.summary, 'status in_progress (HTTP 200)');
  assert.equal(polls, 2, 'the second poll went out at the deadline');
});
