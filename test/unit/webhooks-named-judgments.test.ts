// The webhook checks' named judgments (suites/webhooks/*-judgments.ts): what
// a check observed of deliveries — their field lines and what their bytes
// hash to, the keys of their attempts, when the event came again and how it
// was answered — is its record, and the judgment made of it live is the one
// `ptas rejudge` makes of the stored record, after a JSON round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { NamedJudgment } from '../../src/check/judgments.ts';
import { judgeRecord } from '../../src/check/record.ts';
import { contentDigestMatches, everyDeliveryVerifiable, headerDeclarations, signatureVerifies } from '../../suites/webhooks/delivery-judgments.ts';
import { acknowledgementEndsDelivery, redeliveryRecorded, type AcknowledgementObservation } from '../../suites/webhooks/redelivery-judgments.ts';
import { distinctEventsDistinctKeys, eventActions, redeliveryKeepsKey } from '../../suites/webhooks/event-judgments.ts';
import { observeUnsigned } from '../../suites/webhooks/judgements.ts';
import { VERIFICATION_SUCCEEDED } from '../../suites/webhooks/events.ts';
import type { WebhookSettings } from '../../suites/webhooks/settings.ts';
import { syntheticDelivery } from '../support/deliveries.ts';
import { contextWith, toItsEnd } from '../support/check-context.ts';

/** Applied live through a context, then judged again from the record after a JSON round trip: both outcomes. */
function liveAndAgain<I>(judgment: NamedJudgment<I>, input: I, requirements: string[]) {
  const check = contextWith({ requirements });
  toItsEnd(() => check.judge(judgment, input));
  const meta = { severity: 'MUST' as const, requirements };
  const live = judgeRecord(meta, { claims: check.entries });
  const again = judgeRecord(meta, JSON.parse(JSON.stringify({ claims: check.entries })));
  assert.deepEqual(again, live, 'the stored record judges as the live one');
  return live;
}

const BODY = JSON.stringify({ params: { action: 'verification', success: true, user_pid: 'u', timestamp: 1 } });
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
const settings = { digestAlgorithms: ['sha-256'], dateSkewSeconds: 300, dateSkewDeclared: false } as unknown as WebhookSettings;

function delivery(seq: number, digestOver: string) {
  const d = syntheticDelivery(seq, BODY, `key-${seq}`);
  d.fieldLines.push(['content-digest', `sha-256=:${sha256(digestOver)}:`], ['date', d.receivedAt.toUTCString()], ['signature', 'sig'], ['signature-input', 'sig=()']);
  return observeUnsigned(d);
}

test('Content-Digest: over the delivered bytes it passes; over other bytes it FAILs on RFC 9530 section 2, live and judged again', () => {
  const ok = liveAndAgain(contentDigestMatches, { delivery: delivery(1, BODY), declared: headerDeclarations(settings) }, ['WEBHOOK-CONTENT-DIGEST']);
  assert.equal(ok.verdict, 'PASS');
  const wrong = liveAndAgain(contentDigestMatches, { delivery: delivery(1, `${BODY} `), declared: headerDeclarations(settings) }, ['WEBHOOK-CONTENT-DIGEST']);
  assert.equal(wrong.verdict, 'FAIL');
  assert.equal(wrong.basis?.kind, 'standard');
});

test('every delivery: one redelivery over other bytes decides, named by its role; without a scheme the signatures are for review', () => {
  const judged = liveAndAgain(
    everyDeliveryVerifiable,
    { deliveries: [{ delivery: delivery(1, BODY), role: 'first attempt of the verification event' }, { delivery: delivery(2, 'other bytes'), role: 'redelivery of #1' }], declared: headerDeclarations(settings) },
    ['WEBHOOK-EVERY-DELIVERY'],
  );
  assert.equal(judged.verdict, 'FAIL');
  assert.match(judged.reason!, /^delivery #2: Content-Digest sha-256 is not the digest .* \(redelivery of #1\) \(and 1 more finding\)$/);
});

const ack = (over: Partial<AcknowledgementObservation>): AcknowledgementObservation => ({
  code: 204,
  key: 'k1',
  first: { seq: 1, written: true, answeredAfterMs: 3 },
  windowMs: 2_000,
  secondWindowMs: 2_000,
  answeredAfterArrivalMs: 3,
  sameContentOtherKey: [],
  attempts: [],
  ...over,
});

test('an acknowledgement: the event again after two written confirmations FAILs on 6.1; once more only WARNs; unconfirmed is for review', () => {
  const requirements = ['WEBHOOK-ACK-CODES'];
  assert.equal(liveAndAgain(acknowledgementEndsDelivery, ack({}), requirements).verdict, 'PASS');
  assert.equal(liveAndAgain(acknowledgementEndsDelivery, ack({ again: { seq: 2, at: '+1.0 s', written: true } }), requirements).verdict, 'WARN');
  const twice = liveAndAgain(acknowledgementEndsDelivery, ack({ again: { seq: 2, at: '+1.0 s', written: true }, third: { seq: 3, at: '+2.1 s' } }), requirements);
  assert.equal(twice.verdict, 'FAIL');
  assert.equal(twice.basis?.clause.startsWith('6.1'), true, twice.basis?.clause);
  assert.equal(liveAndAgain(acknowledgementEndsDelivery, ack({ first: { seq: 1, written: false, hungUpAfterMs: 900 } }), requirements).verdict, 'REVIEW');
});

test('retries: none within the window contradicts a declared schedule (profile-declared), else WARNs; a redelivery is for review', () => {
  const requirements = ['WEBHOOK-RETRY-POLICY'];
  const base = { provocation: 'answering 500', observationWindowMs: 1_500, late: true, timeline: [] };
  const declared = liveAndAgain(redeliveryRecorded, { ...base, retryDelaysMs: [1_000] }, requirements);
  assert.equal(declared.basis?.kind, 'profile-declared');
  assert.deepEqual([declared.basis?.profileKey, declared.basis?.declaredValue], ['webhooks.retryDelaysMs', [1_000]]);
  assert.match(declared.reason!, /no redelivery within 3000 ms/);
  assert.equal(liveAndAgain(redeliveryRecorded, base, requirements).verdict, 'WARN');
  assert.equal(liveAndAgain(redeliveryRecorded, { ...base, again: { seq: 2, at: '+1.2 s', sameKey: true } }, requirements).verdict, 'REVIEW');
});

test('keys: a redelivery under another key FAILs, the same key passes; two events under one key FAIL; a missing key is not observed', () => {
  const first = { seq: 1, at: '+0 ms', key: 'k1' };
  assert.equal(liveAndAgain(redeliveryKeepsKey, { first, again: { seq: 2, at: '+1 s', key: 'k1' }, observationWindowMs: 1 }, ['WEBHOOK-IDEMPOTENCY-STABLE']).verdict, 'PASS');
  assert.equal(liveAndAgain(redeliveryKeepsKey, { first, again: { seq: 2, at: '+1 s', key: 'k2' }, observationWindowMs: 1 }, ['WEBHOOK-IDEMPOTENCY-STABLE']).verdict, 'FAIL');
  const distinct = (a: string | null, b: string | null) => liveAndAgain(distinctEventsDistinctKeys, { first: { seq: 1, key: a }, second: { seq: 2, key: b } }, ['WEBHOOK-IDEMPOTENCY-DISTINCT']).verdict;
  assert.deepEqual([distinct('a', 'b'), distinct('a', 'a'), distinct('a', null)], ['PASS', 'FAIL', 'ERROR']);
});

test('actions: a verification delivered with the wrong success WARNs; all as caused is for review', () => {
  const requirements = ['WEBHOOK-ACTIONS'];
  const delivered = (success: boolean) => [{ event: VERIFICATION_SUCCEEDED, seq: 1, members: { action: 'verification', success } }];
  assert.equal(liveAndAgain(eventActions, { delivered: delivered(false), allArrived: true, riskEvaluationCaused: false, observed: [] }, requirements).verdict, 'WARN');
  assert.equal(liveAndAgain(eventActions, { delivered: delivered(true), allArrived: true, riskEvaluationCaused: false, observed: [] }, requirements).verdict, 'REVIEW');
});

test("an observation keeps no Signature value, only its length, as evidence redacts it; the judgement reads the length", () => {
  const d = syntheticDelivery(4, BODY, 'key-4');
  d.fieldLines.push(['signature', 'sig1=:c2VjcmV0LWRlcml2ZWQ=:'], ['signature-input', 'sig1=("content-digest")']);
  const observed = observeUnsigned(d);
  assert.doesNotMatch(JSON.stringify(observed), /c2VjcmV0LWRlcml2ZWQ/);
  assert.deepEqual(observed.fieldLines.find(([name]) => name === 'signature'), ['signature', '(withheld)']);
  const judged = liveAndAgain(signatureVerifies, { delivery: observed, declared: headerDeclarations(settings) }, ['WEBHOOK-SIGNATURE']);
  assert.equal(judged.verdict, 'REVIEW');
  assert.match(judged.reason!, /Signature of 27 characters, Signature-Input sig1=\("content-digest"\)/);
});
