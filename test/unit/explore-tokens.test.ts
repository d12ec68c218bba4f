// The explored token lifecycle (explore/areas/tokens*.ts): the model's
// standing of each token after each kind of step — what a refresh with it
// must get, and when the spec leaves that open (a reuse that may revoke the
// family, a race, a refused presentation, a later pair, a twin token) — and
// the judgments that record what the spec does not decide, which never
// find anything whatever they are given. The cases are plain JSON, at most
// six steps, and use only what the profile declares.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decideOutcome } from '../../src/check/outcome.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { contextWith, toItsEnd } from '../support/check-context.ts';
import { TokenLifecycle, mayHaveRunOut, refreshExpectation, type Issued } from '../../explore/areas/tokens-state.ts';
import { recordedAccessToken, unsettledRefresh, type RecordedAccessToken } from '../../explore/areas/tokens-judgments.ts';
import { MAX_STEPS, Pacer, RULES, caseArbitrary, describeCase, kindOfCase, tokensModel, type TokensCase } from '../../explore/areas/tokens.ts';
import type { AreaExplorer } from '../../explore/model.ts';

const T0 = 1_750_000_000_000;

function pair(model: TokenLifecycle, access: string, refresh: string) {
  return model.issued({ grant: 'client_credentials', accessToken: access, refreshToken: refresh, expiresIn: 300, askedAt: T0, receivedAt: T0 + 5, granted: true });
}

function renewal(model: TokenLifecycle, parentValue: string, access: string, refresh: string | undefined, extra: Partial<Issued> = {}) {
  const parent = model.refreshTokens.findLast((t) => t.value === parentValue)!;
  const wasUsed = parent.standing === 'used';
  model.used(parent);
  return model.issued({ grant: 'refresh', accessToken: access, ...(refresh ? { refreshToken: refresh } : {}), expiresIn: 300, askedAt: T0, receivedAt: T0 + 10, parent, granted: !wasUsed, ...extra });
}

test('a pair: its refresh token must renew, its access token is trusted', () => {
  const model = new TokenLifecycle();
  const { access, refresh } = pair(model, 'A0', 'R0');
  assert.equal(refreshExpectation(refresh!), 'renews');
  assert.equal(access.trusted, true);
  assert.equal(refresh!.companion, access.id);
  assert.equal(model.newestRefresh(), refresh);
  assert.equal(model.newestAccess(), access);
});

test('a refresh: the used token must be refused, its successor must work once', () => {
  const model = new TokenLifecycle();
  const first = pair(model, 'A0', 'R0');
  const { access, refresh } = renewal(model, 'R0', 'A1', 'R1');
  assert.equal(refreshExpectation(first.refresh!), 'refused');
  assert.equal(refreshExpectation(refresh!), 'first-use-of-successor');
  assert.equal(refresh!.family, first.refresh!.family);
  assert.equal(refresh!.parent, first.refresh!.id);
  assert.equal(access.trusted, true);
  assert.equal(model.usedRefresh(0), first.refresh);
  assert.equal(model.usedRefresh(5), first.refresh, 'pick wraps over the used tokens');
  assert.equal(model.olderAccess(3), first.access);
});

test('a refresh that hands out no refresh token (4.1 rule 2 names none): the newest refresh token is the used one, and must be refused', () => {
  const model = new TokenLifecycle();
  pair(model, 'A0', 'R0');
  renewal(model, 'R0', 'A1', undefined);
  assert.equal(model.newestRefresh()!.value, 'R0');
  assert.equal(refreshExpectation(model.newestRefresh()!), 'refused');
  assert.equal(model.newestAccess()!.trusted, true);
});

test('a refused reuse unsettles the family: reuse detection may revoke its refresh and access tokens (not shown); the used token stays used', () => {
  const model = new TokenLifecycle();
  const first = pair(model, 'A0', 'R0');
  const second = renewal(model, 'R0', 'A1', 'R1');
  model.presentationFailed(first.refresh!, 'a refresh with it was answered 422');
  assert.equal(refreshExpectation(first.refresh!), 'refused');
  assert.equal(refreshExpectation(second.refresh!), 'open');
  assert.match(second.refresh!.why!, /may revoke the tokens of its family/);
  assert.equal(first.access.trusted, false);
  assert.equal(second.access.trusted, false);
});

test('a refused or failed presentation of a fresh token unsettles it (and its family), never makes it fresh or used', () => {
  const model = new TokenLifecycle();
  const { refresh } = pair(model, 'A0', 'R0');
  model.presentationFailed(refresh!, 'a refresh without client_id was answered 422');
  assert.equal(refresh!.standing, 'unsettled');
  assert.equal(refreshExpectation(refresh!), 'open');
  assert.equal(refresh!.why, 'a refresh without client_id was answered 422');
  model.unsettle(refresh!, 'something else');
  assert.equal(refresh!.why, 'a refresh without client_id was answered 422', 'the first reason is kept');
});

test('an unsettled token a refresh accepts is used, and what that refresh issued is fresh and trusted', () => {
  const model = new TokenLifecycle();
  const { refresh } = pair(model, 'A0', 'R0');
  model.unsettle(refresh!, 'it was presented as a bearer credential');
  const next = renewal(model, 'R0', 'A1', 'R1');
  assert.equal(refresh!.standing, 'used');
  assert.equal(next.refresh!.standing, 'fresh');
  assert.equal(next.access.trusted, true);
});

test('a used token a refresh accepted again (a broken single use): what it issued is recorded only', () => {
  const model = new TokenLifecycle();
  pair(model, 'A0', 'R0');
  renewal(model, 'R0', 'A1', 'R1');
  const again = renewal(model, 'R0', 'A2', 'R2', { why: 'issued by a refresh with a used refresh token' });
  assert.equal(again.access.trusted, false);
  assert.equal(again.refresh!.standing, 'unsettled');
  assert.equal(again.refresh!.why, 'issued by a refresh with a used refresh token');
});

test('a later client_credentials pair unsettles the earlier families: whether it retires them is not shown', () => {
  const model = new TokenLifecycle();
  const first = pair(model, 'A0', 'R0');
  const second = pair(model, 'A1', 'R1');
  assert.notEqual(first.refresh!.family, second.refresh!.family);
  assert.equal(refreshExpectation(first.refresh!), 'open');
  assert.equal(first.access.trusted, false);
  assert.equal(refreshExpectation(second.refresh!), 'renews');
  assert.equal(second.access.trusted, true);
});

test('a refresh handing back the very token it used stays fresh (2.1 judges its first use); a twin of another token is unsettled', () => {
  const model = new TokenLifecycle();
  pair(model, 'A0', 'R0');
  const handedBack = renewal(model, 'R0', 'A1', 'R0');
  assert.equal(refreshExpectation(handedBack.refresh!), 'first-use-of-successor');
  const other = new TokenLifecycle();
  pair(other, 'A0', 'R0');
  renewal(other, 'R0', 'A1', 'R1');
  const twin = renewal(other, 'R1', 'A2', 'R0');
  assert.equal(refreshExpectation(twin.refresh!), 'open');
  assert.match(twin.refresh!.why!, /same token as refresh token 1/);
});

test('byte-identical access tokens (a deterministic signer): an older one is only one of another value', () => {
  const model = new TokenLifecycle();
  pair(model, 'A0', 'R0');
  renewal(model, 'R0', 'A0', 'R1');
  assert.equal(model.olderAccess(0), undefined);
  renewal(model, 'R1', 'A2', 'R2');
  assert.equal(model.olderAccess(0)!.value, 'A0');
});

test('an access token may have run out only on a 401 once its earliest expiry has passed', () => {
  assert.equal(mayHaveRunOut(401, 2_000, 2_000), true);
  assert.equal(mayHaveRunOut(401, 1_999, 2_000), false);
  assert.equal(mayHaveRunOut(403, 5_000, 2_000), false);
  assert.equal(mayHaveRunOut(401, 5_000, undefined), false);
});

/** The verdict a judgment's claims give, under a MUST requirement (the strictest). */
function verdictOf(judge: (check: ReturnType<typeof contextWith>) => void): string {
  const check = contextWith({ requirements: ['AUTH-ACCESS-TOKEN-ACCEPTED'], answers: { 1: 200 } });
  toItsEnd(() => judge(check));
  return decideOutcome({ severity: 'MUST', claims: check.claims }).verdict;
}

test('an older access token refused is for a human; one that may have run out or been ended, and any one let in, is noted', () => {
  const base: RecordedAccessToken = { how: 'an older access token', path: '/v2/users/u', status: 401, exchange: 1, standing: 'older' };
  assert.equal(verdictOf((c) => c.judge(recordedAccessToken, base)), 'REVIEW');
  assert.equal(verdictOf((c) => c.judge(recordedAccessToken, { ...base, standing: 'ran-out' })), 'PASS');
  assert.equal(verdictOf((c) => c.judge(recordedAccessToken, { ...base, standing: 'unsettled', why: 'a reuse' })), 'PASS');
  assert.equal(verdictOf((c) => c.judge(recordedAccessToken, { ...base, status: 200 })), 'PASS');
});

test('what the model records it never judges: no status or standing makes a FAIL, WARN or ERROR', () => {
  fc.assert(
    fc.property(fc.integer({ min: 100, max: 599 }), fc.constantFrom('older' as const, 'unsettled' as const, 'ran-out' as const), (status, standing) => {
      const verdict = verdictOf((c) => c.judge(recordedAccessToken, { how: 'a token', path: '/p', status, standing }));
      assert.ok(verdict === 'PASS' || verdict === 'REVIEW', `${status} ${standing}: ${verdict}`);
      assert.equal(verdictOf((c) => c.judge(unsettledRefresh, { what: 'a refresh', status, why: 'a race' })), 'PASS');
    }),
  );
});

const profile = (extra: Partial<ResolvedProfile> = {}): ResolvedProfile => ({ baseUrl: 'http://127.0.0.1:1', credentials: { clientId: 'c', clientSecret: 's' }, ...extra });

test('cases are plain JSON of at most six steps that a replay file keeps as they are, using only what the profile declares', () => {
  const bare = caseArbitrary({});
  const redactor = new Redactor([['s3cret-value', 'client_secret']]);
  fc.assert(
    fc.property(bare, (c: TokensCase) => {
      assert.ok(c.steps.length >= 1 && c.steps.length <= MAX_STEPS);
      assert.deepEqual(JSON.parse(JSON.stringify(c)), c);
      assert.deepEqual(redactor.redactJson(c), c, 'a replay file keeps the case as it is (no key the redactor hides)');
      assert.ok(!c.steps.some((s) => s.op === 'bearer' || s.op === 'jwks' || (s.op === 'refresh-client' && s.client === 'other')), describeCase(c));
      assert.equal(typeof kindOfCase(c), 'string');
    }),
  );
  const full = tokensModel.prepare(profile({ users: { existingUserId: 'u-1' }, auth: { otherClientId: 'other', jwksUrl: '/.well-known/jwks.json' } })) as AreaExplorer<TokensCase>;
  const ops = new Set(fc.sample(full.cases, { numRuns: 300, seed: 7 }).flatMap((c) => c.steps.map((s) => (s.op === 'refresh-client' ? `${s.op}:${s.client}` : s.op))));
  for (const op of ['obtain', 'refresh', 'race', 'invalid-refresh', 'refresh-client:other', 'bearer', 'bad-request', 'jwks']) assert.ok(ops.has(op), op);
});

test("the rules are the area's: one requirement each, ids explore.auth.<rule>", () => {
  assert.equal(tokensModel.area, 'auth');
  for (const rule of Object.values(RULES)) {
    assert.match(rule.id, /^explore\.auth\./);
    assert.equal(rule.area, 'auth');
    assert.equal(rule.requirements.length, 1);
  }
});

test('token requests keep to 80 % of the documented rate and burst, and to no pace without one', async () => {
  const unpaced = Pacer.forProfile(profile());
  let started = Date.now();
  for (let i = 0; i < 50; i++) await unpaced.take();
  assert.ok(Date.now() - started < 20);
  // 100/s and a burst of 5: 4 go at once, then one every 12.5 ms.
  const paced = Pacer.forProfile(profile({ load: { tokenRateLimit: { expectedRps: 100, burst: 5 } } }));
  started = Date.now();
  for (let i = 0; i < 4; i++) await paced.take();
  assert.ok(Date.now() - started < 10, 'the burst goes at once');
  for (let i = 0; i < 4; i++) await paced.take();
  assert.ok(Date.now() - started >= 4 * 12.5 - 5, 'then the sustained rate');
});
