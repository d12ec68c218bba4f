// A race of simultaneous accepts is judged by what it did (suites/trading/race.ts):
// two trade ids are two executions (FAIL), a loser's 5xx is at most a WARN, a
// 429 or 503 is nothing, and refusals only — no accept at all — FAIL on the
// spec's sentence that the newest valid offer is accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckContext, CheckFailure } from '../../src/check/context.ts';
import { decideOutcome } from '../../src/check/outcome.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { HttpClient, HttpResponse } from '../../src/http/client.ts';
import { judgeExecutions, judgeNoneAccepted, warnBrokenLosers, type Race } from '../../suites/trading/race.ts';

let exchange = 0;
function answer(status: number, tradeId?: string): HttpResponse {
  const json = tradeId ? { data: { trade_id: tradeId } } : undefined;
  return { status, json, headers: {}, exchangeId: ++exchange, startedAt: new Date(), durationMs: 1 } as unknown as HttpResponse;
}

const offer = { offerId: 'offer-1', userId: 'user-1', response: answer(201) };
const raceOf = (results: HttpResponse[]): Race => ({ n: results.length, statuses: results.map((r) => r.status), when: 'at 10:00:00', offer });
/** The profile shows no trade id in the status: nothing is read from it. */
const section = {};
const http = {} as HttpClient;

async function judged(results: HttpResponse[]) {
  const check = new CheckContext(new Redactor(), { requirements: ['OFFER-SINGLE-EXECUTION-ATOMIC'] });
  const race = raceOf(results);
  const answered = results.filter((r) => r.status === 200 || r.status === 202);
  try {
    if (answered.length) {
      await judgeExecutions(check, http, section, 'token', answered, race);
      warnBrokenLosers(check, results, race);
    } else judgeNoneAccepted(check, results, race);
  } catch (error) {
    if (!(error instanceof CheckFailure)) throw error;
  }
  return decideOutcome({ severity: 'MUST', claims: check.claims });
}

test('one execution and transient losers (503, 429): PASS, nothing said about the losers', async () => {
  const outcome = await judged([answer(200, 't1'), answer(503), answer(409), answer(429), answer(409)]);
  assert.equal(outcome.verdict, 'PASS', outcome.reason);
});

test('one execution and a loser answered 500: at most a WARN, judged as a race loser', async () => {
  const outcome = await judged([answer(500), answer(200, 't1'), answer(409)]);
  assert.equal(outcome.verdict, 'WARN');
  assert.match(outcome.reason!, /lost the race with a server error 500/);
});

test('two trade ids are two executions: FAIL on 3.1, whatever the losers answered', async () => {
  const outcome = await judged([answer(200, 't1'), answer(200, 't2'), answer(500), answer(503)]);
  assert.equal(outcome.verdict, 'FAIL');
  assert.match(outcome.reason!, /executed 2 times/);
  assert.equal(outcome.basis?.clause, '3.1');
});

test('the same trade answered twice is an idempotent replay: PASS', async () => {
  const outcome = await judged([answer(200, 't1'), answer(200, 't1'), answer(409)]);
  assert.equal(outcome.verdict, 'PASS', outcome.reason);
});

test('refusals only (beside transient answers): the newest valid offer was not accepted, a FAIL on section 1', async () => {
  const outcome = await judged([answer(409), answer(503), answer(409)]);
  assert.equal(outcome.verdict, 'FAIL');
  assert.equal(outcome.basis?.clause, '1');
});

test('no accept but server errors among the answers: a WARN and a REVIEW, never a FAIL', async () => {
  const outcome = await judged([answer(500), answer(409), answer(409)]);
  assert.equal(outcome.verdict, 'WARN');
});
