// The cross-cutting checks judged again once the load stage has run
// (load/stage/crosscut.ts): the reporter's result is replaced by one over both
// stages' exchanges, so an error answer only load drew is held to spec 1's
// JSON rule; every other result stays as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckResult } from '../../src/check/model.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { crossCuttingResults } from '../../src/crosscut/index.ts';
import { withLoadEvidence } from '../../load/stage/crosscut.ts';

const BASE = 'http://127.0.0.1:9';

function exchange(id: number, status: number, contentType: string, body: string): RecordedExchange {
  return {
    id,
    startedAt: new Date().toISOString(),
    durationMs: 1,
    request: { method: 'POST', url: `${BASE}/v1/oauth/token`, headers: {}, bodyBytes: 0 },
    response: { status, headers: { 'content-type': contentType }, body, bodyBytes: body.length, truncated: false },
    curl: 'curl',
  };
}

function check(id: string, area: CheckResult['area'], evidence: RecordedExchange[]): CheckResult {
  return { id, title: id, area, requirements: [], severity: 'MUST', verdict: 'PASS', findings: [], evidence, timeline: [], target: 'target', durationMs: 1 };
}

test('the load stage\'s error answers are judged with the conformance checks\' ones, in place of the reporter\'s result', () => {
  const auth = check('auth.bad-grant', 'auth', [exchange(1, 422, 'application/json', '{"error":"bad"}')]);
  const before = [auth, ...crossCuttingResults('target', [auth], { baseUrl: BASE })];
  assert.equal(before.find((c) => c.id === 'errors.error-bodies-are-json')?.verdict, 'PASS');
  const load = [check('load.token-rate-limit', 'load', [exchange(800_000_000, 429, 'text/html', '<html>slow down</html>')])];
  const after = withLoadEvidence(before, load, { baseUrl: BASE });
  assert.deepEqual(after.map((c) => c.id), ['auth.bad-grant', 'errors.error-bodies-are-json'], 'one cross-cutting result, the other results kept');
  const judged = after[1]!;
  assert.equal(judged.verdict, 'FAIL');
  assert.match(judged.reason ?? '', /load\.token-rate-limit: POST \/v1\/oauth\/token → 429 \(text\/html, body not JSON\)/);
  assert.equal(after[0], auth);
  // No load stage: nothing changes.
  assert.deepEqual(withLoadEvidence(before, [], { baseUrl: BASE }), before);
});
