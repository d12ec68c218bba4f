// The embedded open-model engine: it holds its arrival rate, bounds what is
// in flight and counts what it drops, reports when it could not keep up,
// and evaluates k6 thresholds on what it recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runEngine } from '../../load/engine/engine.ts';
import type { LoadScenario } from '../../load/scenarios/types.ts';
import { startToyServer } from './support/toy-server.ts';

const get = { name: 'get', method: 'GET' as const, path: '/thing' };

function scenario(scenarios: LoadScenario['scenarios'], thresholds: LoadScenario['thresholds'] = {}) {
  return { name: 'engine-test', iteration: [get], scenarios, thresholds };
}

test('holds a constant arrival rate with evenly spaced arrivals', async () => {
  const server = await startToyServer();
  try {
    const run = await runEngine({
      baseUrl: server.url,
      variables: {},
      scenario: scenario({ main: { executor: 'constant-arrival-rate', rate: 200, duration: '2s', preAllocatedVUs: 5, maxVUs: 100 } }),
    });
    const p = run.phases[0]!;
    assert.equal(p.sent + p.dropped, 400);
    assert.ok(p.dropped <= 4, `dropped ${p.dropped}`);
    assert.ok(Math.abs(p.achievedRps - 200) <= 10, `achieved ${p.achievedRps}`);
    assert.equal(p.answers['2xx'], p.sent);
    assert.ok(p.latency['2xx'] && p.latency['2xx'].p95Ms > 0);
    const busiest = Math.max(...run.timeSeries.map((b) => b.status2xx));
    assert.ok(busiest <= 220, `one second held ${busiest} answers: arrivals were bunched`);
  } finally {
    await server.stop();
  }
});

test('a full in-flight bound drops arrivals (k6 dropped_iterations) and says the generator did not hold the plan', async () => {
  const server = await startToyServer({ kind: 'slow', delayMs: 400 });
  try {
    const run = await runEngine({
      baseUrl: server.url,
      variables: {},
      scenario: scenario(
        { main: { executor: 'constant-arrival-rate', rate: 100, duration: '1s', preAllocatedVUs: 5, maxVUs: 10 } },
        { dropped_iterations: ['count==0'], 'ptas_latency{outcome:2xx}': ['p(95)<100'] },
      ),
    });
    const p = run.phases[0]!;
    assert.ok(p.sent >= 10 && p.sent <= 30, `sent ${p.sent}`);
    assert.equal(p.sent + p.dropped, 100);
    assert.equal(run.generator.saturated, true);
    assert.match(run.generator.reason!, /in-flight bound reached/);
    assert.deepEqual(run.thresholds.map((t) => `${t.metric} ${t.expression} ${t.ok}`), ['dropped_iterations count==0 false', 'ptas_latency{outcome:2xx} p(95)<100 false']);
  } finally {
    await server.stop();
  }
});

test('arrivals the engine cannot start on time are dropped as late, not fired in a burst', async () => {
  const server = await startToyServer();
  try {
    // Block this event loop for 300 ms in the middle of the run, as a starved machine would.
    const block = setTimeout(() => {
      const until = performance.now() + 300;
      while (performance.now() < until);
    }, 300);
    const run = await runEngine({
      baseUrl: server.url,
      variables: {},
      scenario: scenario({ main: { executor: 'constant-arrival-rate', rate: 200, duration: '1s', preAllocatedVUs: 5, maxVUs: 200 } }),
    });
    clearTimeout(block);
    const p = run.phases[0]!;
    assert.ok((p.late ?? 0) >= 40, `late ${p.late}`);
    assert.match(run.generator.reason ?? '', /could not be started on time/);
  } finally {
    await server.stop();
  }
});

test('transport failures are their own outcome, with the error code', async () => {
  const server = await startToyServer({ kind: 'reset' });
  try {
    const run = await runEngine({
      baseUrl: server.url,
      variables: {},
      scenario: scenario({ main: { executor: 'constant-arrival-rate', rate: 20, duration: '500ms', preAllocatedVUs: 2, maxVUs: 20 } }),
    });
    const p = run.phases[0]!;
    assert.equal(p.answers.transport, p.sent);
    assert.ok(Object.keys(p.errors ?? {}).length > 0, 'error codes are kept');
    assert.equal(p.statusCounts['0'], p.sent);
  } finally {
    await server.stop();
  }
});

test('a phase-end decision can stop the run or replace the rest of the plan', async () => {
  const server = await startToyServer();
  try {
    const run = await runEngine({
      baseUrl: server.url,
      variables: {},
      scenario: scenario({
        a: { executor: 'constant-arrival-rate', rate: 50, duration: '300ms', preAllocatedVUs: 2, maxVUs: 20 },
        b: { executor: 'constant-arrival-rate', rate: 50, duration: '300ms', startTime: '300ms', preAllocatedVUs: 2, maxVUs: 20 },
      }),
      onPhaseEnd: (phase) => (phase.name === 'a' ? { replaceRest: { c: { executor: 'constant-arrival-rate', rate: 100, duration: '200ms', preAllocatedVUs: 2, maxVUs: 20 } } } : 'stop'),
    });
    assert.deepEqual(run.phases.map((p) => `${p.name}:${p.sent + p.dropped}`), ['a:15', 'c:20']);
    assert.ok(Math.abs(run.phases[1]!.startSec - 0.3) < 1e-9, 'the replacement starts where the ended phase stopped');
  } finally {
    await server.stop();
  }
});

test('an abort (SIGINT) stops arrivals and cuts what is in flight', async () => {
  const server = await startToyServer({ kind: 'slow', delayMs: 3_000 });
  try {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const started = performance.now();
    const run = await runEngine({
      baseUrl: server.url,
      variables: {},
      signal: abort.signal,
      scenario: scenario({ main: { executor: 'constant-arrival-rate', rate: 50, duration: '5s', preAllocatedVUs: 5, maxVUs: 100 } }),
    });
    const took = performance.now() - started;
    assert.ok(took < 1_500, `returned after ${Math.round(took)} ms`);
    assert.ok(run.phases[0]!.sent <= 20, `sent ${run.phases[0]!.sent}`);
  } finally {
    await server.stop();
  }
});

test('a plan with no finite number of arrivals is refused before anything is sent', async () => {
  await assert.rejects(
    runEngine({ baseUrl: 'http://127.0.0.1:9', variables: {}, scenario: scenario({ main: { executor: 'constant-arrival-rate', rate: Infinity, duration: '1s', preAllocatedVUs: 1 } }) }),
    /no finite number of arrivals/,
  );
});

for (const transport of ['auto', 'undici'] as const) {
  test(`keeps one sample exchange of each kind of error answer, body and all (${transport} transport)`, async () => {
    const server = await startToyServer({ kind: 'errors' });
    try {
      const run = await runEngine({
        baseUrl: server.url,
        variables: {},
        transport,
        rateLimitExpected: true,
        scenario: scenario({ main: { executor: 'constant-arrival-rate', rate: 100, duration: '1s', preAllocatedVUs: 5, maxVUs: 50 } }),
      });
      const samples = (run.errorSamples ?? []).map((s) => `${s.status} ${s.headers['content-type']} ${s.body} ${s.request.method} ${s.request.pathAndQuery}`).sort();
      assert.deepEqual(samples, ['429 application/json {"error":"slow down"} GET /thing', '429 text/html <html><body>Too Many Requests</body></html> GET /thing']);
      assert.ok(run.phases[0]!.answers['429'] >= 60, 'many 429s, two samples');
    } finally {
      await server.stop();
    }
  });
}

test('an iteration whose set-up is refused is counted as such, and a 401 to the suite\'s token renews it once, not once per refusal', async () => {
  // The offer an accept needs is created with the run's token; the server takes only the renewed one.
  const server = http.createServer((req, res) => {
    req.resume();
    const authorized = req.headers.authorization === 'Bearer renewed';
    const [status, body] = req.url === '/offers' ? (authorized ? [201, '{"id":"o1"}'] : [401, '{"error":"expired"}']) : [200, '{"ok":true}'];
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const renewals: string[] = [];
  let token = 'expired';
  const accessToken = { current: async () => token, renewed: async (rejected: string) => (renewals.push(rejected), (token = 'renewed')) };
  try {
    const { port } = server.address() as AddressInfo;
    const run = await runEngine({
      baseUrl: `http://127.0.0.1:${port}`,
      variables: {},
      accessToken,
      scenario: {
        name: 'engine-test',
        iteration: [
          { name: 'create', method: 'POST', path: '/offers', bearer: true, setup: true, extract: { offerId: '/id' } },
          { name: 'accept', method: 'PATCH', path: '/offers/{offerId}/accept', bearer: true },
        ],
        scenarios: { main: { executor: 'constant-arrival-rate', rate: 100, duration: '1s', preAllocatedVUs: 5, maxVUs: 50 } },
        thresholds: {},
      },
    });
    const p = run.phases[0]!;
    assert.deepEqual(renewals, ['expired'], 'one renewal, however many set-ups were refused');
    assert.ok((p.setupFailed?.['401'] ?? 0) >= 5, `set-ups refused before the renewal: ${JSON.stringify(p.setupFailed)}`);
    assert.ok(p.answers['2xx'] >= 50, `accepts measured after it: ${p.answers['2xx']}`);
    assert.equal(p.sent, p.answers['2xx'] + p.setupFailed!['401']!, 'every iteration either measured its accept or ended in its set-up');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
