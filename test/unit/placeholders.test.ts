// Generated placeholders (src/placeholders.ts): fresh values per fill, so no
// two requests described by one profile template carry the same data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshValues, variesPerRequest, withFreshValues } from '../../src/placeholders.ts';

test('each fill gives new values of the documented shapes', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2_000; i++) {
    const v = freshValues();
    assert.match(String(v.uuid), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(String(v.unique), /^[0-9a-z]{16}$/);
    assert.match(String(v.uniqueDigits), /^\d{10}$/);
    assert.ok(Number(v.uniqueDigits) < 2 ** 32);
    assert.ok(!Number.isNaN(Date.parse(String(v.now))) && String(v.now).endsWith('Z'));
    assert.ok(Number.isInteger(v.nowUnix));
    seen.add(String(v.unique));
  }
  assert.equal(seen.size, 2_000, '{unique} never repeats');
});

test('one fill uses one value wherever a template names it; other placeholders stay', () => {
  const body = withFreshValues({ address: 'r{unique}', memo: 'ref {unique}', tag: '{uniqueDigits}', user: '{userId}', n: 3 });
  assert.equal(body.address.slice(1), body.memo.slice(4));
  assert.equal(body.user, '{userId}', 'a placeholder the fill does not know is left for the caller');
  assert.equal(body.n, 3);
  assert.notEqual(withFreshValues({ a: '{unique}' }).a, withFreshValues({ a: '{unique}' }).a);
  assert.equal(variesPerRequest(body), false, 'a filled body no longer varies');
  assert.equal(variesPerRequest({ address: 'r{unique}' }), true);
});
