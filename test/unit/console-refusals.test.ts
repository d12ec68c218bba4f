// What the console shows of a refusal (console/refusals.ts): the
// API for CI answers {error: CODE, message: SENTENCE}, the console's own
// endpoints {error: SENTENCE}; a page that calls either shows the sentence,
// never the bare code ("forbidden").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalMessage } from '../../console/refusals.ts';

test('a refusal shows the API\'s message, the console\'s error sentence, or the status', () => {
  assert.equal(refusalMessage(403, 'Forbidden', { error: 'forbidden', message: "this token's role is viewer; POST /api/runs needs certifier" }), "this token's role is viewer; POST /api/runs needs certifier");
  assert.equal(refusalMessage(400, 'Bad Request', { error: 'choose areas or a grep, not both' }), 'choose areas or a grep, not both');
  assert.equal(refusalMessage(502, 'Bad Gateway', undefined), '502 Bad Gateway');
  assert.equal(refusalMessage(500, 'Internal Server Error', { error: 42 }), '500 Internal Server Error');
});
