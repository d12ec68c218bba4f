// The limit probes on slow endpoints (issue 29): under the reference's
// slow-processing condition an admitted accept answers 1.2 s late and an
// admitted token request 0.3 s late, while a 429 leaves at once. Counted by
// when the answers came, the token estimate read 217 req/s for a limit of 200
// (+8.5 %: the answers of the burst admitted before the drain landed among
// the 429s), and the accept staircase dropped a third of its 75 req/s step
// for want of requests in flight. Counted by arrival, with steps and the
// in-flight bound sized by a pilot's answer time, both estimates are within ±5 %.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeLoadStageUnder } from './support/condition-stage.ts';

test('slow-processing: every load check passes and both limits are estimated within ±5 %, with no arrival dropped for want of room', { timeout: 120_000 }, async (t) => {
  await judgeLoadStageUnder('slow-processing', t, (checkId, probe, steps) => {
    // Arrivals may be dropped late on a starved machine (generatorNote says so), never for want of requests in flight.
    const lateOnly = probe.steps.every((s) => s.dropped === 0) || /could not be started on time/.test(probe.generatorNote ?? '');
    assert.ok(lateOnly, `${checkId}: arrivals dropped: ${probe.generatorNote}; ${steps}`);
  });
});
