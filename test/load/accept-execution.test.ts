// How the load stage tells an executed offer (load/stage/not-executed-judgment.ts):
// by the trade id the offer status shows, else by the status a control offer
// reached when it was accepted — never by "some terminal status", and not at
// all (REVIEW) when an accepted offer looks like one nobody accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executed, executionSign, type Control } from '../../load/stage/not-executed-judgment.ts';

const control = (over: Partial<Control>): Control => ({ reached: true, createdStatus: 'offered', bystanderStatus: 'superseded', status: 'accepted', ...over });

test('a trade id shows execution where the profile extracts one and the control shows it', () => {
  const sign = executionSign(control({ tradeId: 't-1' }), true);
  assert.deepEqual(sign, { kind: 'trade-id' });
  assert.equal(executed({ offerId: 'a', status: 'failed', tradeId: 'trade-9' }, sign), true);
  assert.equal(executed({ offerId: 'b', status: 'accepted', tradeId: null }, sign), false, 'no trade id: not executed, whatever the status');
  assert.equal(executed({ offerId: 'c', error: 'status 404' }, sign), undefined);
  // The profile declares the trade id; with no control to confirm it, the declaration stands.
  assert.deepEqual(executionSign({ reached: false, problem: 'the control accept answered 429' }, true), { kind: 'trade-id' });
  // A control accepted and terminal without a trade id: the trade id shows nothing, the status does.
  assert.deepEqual(executionSign(control({ tradeId: null }), true), { kind: 'status', status: 'accepted' });
});

test('without a trade id, the control\'s terminal status shows execution: a refused offer that ends "failed" was not executed', () => {
  const sign = executionSign(control({}), false);
  assert.deepEqual(sign, { kind: 'status', status: 'accepted' });
  assert.equal(executed({ offerId: 'a', status: 'accepted' }, sign), true);
  for (const status of ['failed', 'expired', 'superseded', 'offered']) assert.equal(executed({ offerId: 'a', status }, sign), false, status);
});

test('execution cannot be told apart when an accepted offer looks like an unaccepted one, or the control did not finish', () => {
  assert.equal(executionSign(control({ status: 'offered' }), false).kind, 'none', 'the status before any accept');
  assert.equal(executionSign(control({ status: 'closed', bystanderStatus: 'closed' }), false).kind, 'none', 'the status of an offer nobody accepted');
  const unfinished = executionSign(control({ reached: false, status: 'processing' }), false);
  assert.equal(unfinished.kind, 'none');
  assert.equal(executed({ offerId: 'a', status: 'accepted' }, unfinished), undefined);
});
