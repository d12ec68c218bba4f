// The explored trading area's model state (explore/areas/offers-judgments.ts)
// and its cases (explore/areas/offers.ts): what the spec allows an accept,
// from the offers a case made, with no target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { expectationOf, expiredFrom, mayBeNotFound, OfferModel, validityAt, type ModelOffer, type ModelTiming } from '../../explore/areas/offers-judgments.ts';
import { caseArbitrary, describeCase, offersModel, recipeNames, RULES, type OffersCase } from '../../explore/areas/offers.ts';
import { expiryWaitMs } from '../../suites/trading/clock.ts';

const T0 = 1_700_000_000_000;
const timing: ModelTiming = { marginMs: 750, validitySeconds: 30 };

function offer(model: OfferModel, user: 'A' | 'B', extra: Partial<ModelOffer> = {}): ModelOffer {
  return model.add({ id: `${user}-${model.offers.length}`, user, recipe: 'fast', sentAt: T0, answeredAt: T0 + 20, granularityMs: 1, ...extra });
}

const valid = { as: 'owner', bearer: 'valid', body: false } as const;

test('the newest offer is per user: another user\'s newer offer supersedes none', () => {
  const model = new OfferModel();
  const a1 = offer(model, 'A');
  const b1 = offer(model, 'B');
  assert.equal(model.newestOf('A'), a1);
  assert.equal(model.isNewest(a1), true);
  assert.equal(model.newerOfOtherUser(a1), b1);
  assert.equal(model.olderOf('A'), undefined);
  const a2 = offer(model, 'A');
  assert.equal(model.newestOf('A'), a2);
  assert.equal(model.olderOf('A'), a1);
  assert.deepEqual(expectationOf({ ...valid, offer: a1 }, model, 'valid'), { kind: 'refused', defects: ['older'] });
  assert.deepEqual(expectationOf({ ...valid, offer: a2 }, model, 'valid'), { kind: 'accepted' });
});

test('validity: expired only once the expiry wait has passed; before that, and near a lasting offer\'s end, nothing is sure', () => {
  const model = new OfferModel();
  const expiring = offer(model, 'A', { expiresAfterSeconds: 1, granularityMs: 1_000 });
  const from = expiredFrom(expiring, timing);
  assert.equal(from, expiring.answeredAt + expiryWaitMs(1, 750, 1_000));
  assert.equal(validityAt(expiring, from - 1, from + 50, timing), 'edge');
  assert.equal(validityAt(expiring, from, from + 50, timing), 'expired');
  // An expiring offer accepted at once is never judged valid: a retry may come after its validity.
  assert.equal(validityAt(expiring, T0 + 30, T0 + 60, timing), 'edge');
  const lasting = offer(model, 'A');
  assert.equal(validityAt(lasting, T0 + 1_000, T0 + 1_100, timing), 'valid');
  assert.equal(validityAt(lasting, T0 + 29_000, T0 + 29_400, timing), 'edge');
  assert.equal(validityAt(lasting, T0 + 29_000, T0 + 29_400, { marginMs: 750 }), 'valid');
  assert.equal(model.expiryWaitFrom(from - 500, timing), 500);
  assert.equal(model.expiryWaitFrom(from + 1, timing), 0);
});

test('an expired newest offer must be refused; at the edge, nothing is judged', () => {
  const model = new OfferModel();
  const o = offer(model, 'A', { expiresAfterSeconds: 1 });
  assert.deepEqual(expectationOf({ ...valid, offer: o }, model, 'expired'), { kind: 'refused', defects: ['expired'] });
  assert.equal(expectationOf({ ...valid, offer: o }, model, 'edge').kind, 'unknown');
  // A request wrong in other ways must be refused whatever the validity.
  assert.deepEqual(expectationOf({ as: 'owner', bearer: 'absent', body: false, offer: o }, model, 'edge'), { kind: 'refused', defects: ['no-bearer'] });
});

test('the defects of an accept, the first one\'s rule judging it', () => {
  const model = new OfferModel();
  const a1 = offer(model, 'A');
  offer(model, 'A');
  assert.deepEqual(expectationOf({ as: 'none', bearer: 'forged', body: false, offer: a1 }, model, 'expired'), {
    kind: 'refused',
    defects: ['forged-bearer', 'no-user-header', 'expired', 'older'],
  });
  assert.deepEqual(expectationOf({ as: 'other', bearer: 'valid', body: true, offer: a1 }, model, 'valid'), { kind: 'refused', defects: ['other-user', 'older'] });
  assert.deepEqual(expectationOf({ ...valid, offer: undefined }, model, undefined), { kind: 'refused', defects: ['unknown-offer'] });
  assert.equal(mayBeNotFound(['unknown-offer']), true);
  assert.equal(mayBeNotFound(['other-user', 'older']), true);
  assert.equal(mayBeNotFound(['older']), false);
  assert.equal(mayBeNotFound(['no-user-header']), false);
});

test('an accepted offer asked again by its owner is judged by what it executed, never as older or expired (a replay may answer it)', () => {
  const model = new OfferModel();
  const a1 = offer(model, 'A', { expiresAfterSeconds: 1 });
  a1.state = 'accepted';
  offer(model, 'A');
  assert.deepEqual(expectationOf({ ...valid, offer: a1 }, model, 'expired'), { kind: 'again' });
  assert.equal(model.lastAccepted(), a1);
  // Another user's svc-user-id or no bearer: refused, whatever a replay would answer the owner.
  assert.deepEqual(expectationOf({ as: 'other', bearer: 'valid', body: false, offer: a1 }, model, 'expired'), { kind: 'refused', defects: ['other-user'] });
  a1.firstStatus = 202;
  assert.equal(model.unsettled(), a1);
  a1.settled = true;
  assert.equal(model.unsettled(), undefined);
});

test('an offer an earlier answer left unclear is never judged again, except for refusals due whatever its state', () => {
  const model = new OfferModel();
  const o = offer(model, 'A');
  o.state = 'unclear';
  assert.equal(expectationOf({ ...valid, offer: o }, model, 'valid').kind, 'unknown');
  assert.deepEqual(expectationOf({ ...valid, as: 'none', offer: o }, model, 'valid'), { kind: 'refused', defects: ['no-user-header'] });
});

test('cases are plain JSON of at most five steps, and the first choice of each is the valid accept', () => {
  const names = { lasting: ['fast', 'slow'], slow: ['slow'], expiring: ['expiring'], canPoll: true };
  const arb = caseArbitrary(names);
  for (const c of fc.sample(arb, { numRuns: 200, seed: 42 })) {
    assert.ok(c.steps.length >= 1 && c.steps.length <= 5, describeCase(c));
    assert.deepEqual(JSON.parse(JSON.stringify(c)), c);
  }
  // Shrinking any case that fails whatever it is walks back to the plainest: create an offer, accept it as its owner.
  const out = fc.check(fc.property(arb, (_c: OffersCase) => false), { seed: 3 });
  assert.ok(out.failed);
  const [shrunk] = out.counterexample!;
  assert.equal(describeCase(shrunk), "create fast offer for A; accept A's newest offer");
});

test('without an expiring recipe of a few seconds, or a way to poll, no case waits or polls', () => {
  const arb = caseArbitrary({ lasting: ['fast'], slow: [], expiring: [], canPoll: false });
  for (const c of fc.sample(arb, { numRuns: 200, seed: 7 })) {
    assert.ok(c.steps.every((s) => s.op !== 'wait' && s.op !== 'poll'), describeCase(c));
  }
});

test('the recipes the model takes: expiring ones of a few seconds only', () => {
  const section = {
    createOffer: { method: 'POST', path: '/o', extract: { offerId: '/id' } },
    offerRecipes: {
      fast: { acceptAnswers: 200 },
      slow: { acceptAnswers: 202 },
      expiring: { expiresAfterSeconds: 1 },
      longExpiring: { expiresAfterSeconds: 60 },
    },
  } as never;
  const found = recipeNames(section)!;
  assert.deepEqual(found.names.lasting, ['fast', 'slow']);
  assert.deepEqual(found.names.slow, ['slow']);
  assert.deepEqual(found.names.expiring, ['expiring']);
  assert.equal(found.names.canPoll, false);
});

test('unexplorable without a way to create offers or a user to receive them', () => {
  assert.ok('unexplorable' in offersModel.prepare({ trading: {} } as never));
  assert.ok('unexplorable' in offersModel.prepare({ trading: { createOffer: { method: 'POST', path: '/o', extract: { offerId: '/id' } } } } as never));
});

test('each rule rests on one requirement of the trading area', () => {
  for (const rule of Object.values(RULES)) {
    assert.match(rule.id, /^explore\.trading\./);
    assert.equal(rule.requirements.length, 1);
  }
});
