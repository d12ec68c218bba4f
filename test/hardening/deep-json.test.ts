// JSON nested thousands of levels deep is a client's mistake or an attack,
// never a profile or a waiver file: it must be refused naming the limit, not
// end in a stack overflow answered 500 (issue 28, finding 3). Against a real
// `ptas serve` with its console: a request body of the API (from a CI
// token or the console's session) nested deeper than the limit is 400 invalid-request; a profile
// text (profileText, JSON with comments, parsed by src/config/jsonc.ts) is
// 422 invalid-profile naming the line and column. The legitimate path: a
// body and a profile just within the limit are read (what follows judges
// them as usual).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { consoleSignIn, startConsoleTestServer, type TestServer } from '../serve/support.ts';

/** The limit README states: far deeper than any profile or waiver file. */
const LIMIT = 64;
const DEEP = 10_000;
const arrays = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
/** A profile with `depth` levels in all: the free-form body of an operation template holds the rest. */
const profileOfDepth = (depth: number) =>
  `// nested on purpose\n{ "baseUrl": "https://sandbox.example.com", "trading": { "createOffer": { "method": "POST", "path": "/offers", "body": { "deep": ${arrays(depth - 4)} } } } }`;

/** The 1-based column of the opening bracket that goes one level beyond `limit` (the line has no bracket in a string). */
function openingBeyond(line: string, limit: number): number {
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '{' || line[i] === '[') depth++;
    else if (line[i] === '}' || line[i] === ']') depth--;
    if (depth > limit) return i + 1;
  }
  throw new Error('not that deep');
}

let lab: TestServer;
before(async () => {
  lab = await startConsoleTestServer();
});
after(async () => {
  await lab?.close();
});

test('an API body nested 10,000 deep is 400 invalid-request naming the limit; one within it is read', async () => {
  // options.waivers is free-form JSON in the route's schema: only the depth can refuse it before it is stored.
  const deep = await lab.call('POST', '/api/runs', { raw: `{"implementation": "reference", "options": {"waivers": {"waivers": ${arrays(DEEP)}}}}` });
  assert.equal(deep.status, 400, deep.text);
  assert.equal(deep.json.error, 'invalid-request');
  assert.match(deep.json.message, new RegExp(`nested deeper than ${LIMIT} levels`));
  const deepProfile = await lab.call('PUT', '/api/implementations/deep', { raw: `{"name": "Deep", "profileText": "{}", "extra": ${arrays(DEEP)}}` });
  assert.equal(deepProfile.status, 400, deepProfile.text);
  assert.match(deepProfile.json.message, new RegExp(`nested deeper than ${LIMIT} levels`));

  // Exactly at the limit (the body's object, options, waivers, the array and 60 more): read, then refused as a waiver file.
  const within = await lab.call('POST', '/api/runs', { raw: `{"implementation": "reference", "options": {"waivers": {"waivers": ${arrays(LIMIT - 3)}}}}` });
  assert.equal(within.status, 422, within.text);
  assert.equal(within.json.error, 'invalid-waivers');
  const beyond = await lab.call('POST', '/api/runs', { raw: `{"implementation": "reference", "options": {"waivers": {"waivers": ${arrays(LIMIT - 2)}}}}` });
  assert.equal(beyond.status, 400, beyond.text);
  // Brackets inside strings are text, not nesting.
  const inString = await lab.call('PUT', '/api/implementations/brackets', { body: { name: `[${'{'.repeat(150)}`, profileText: `{ "baseUrl": "https://sandbox.example.com" } // ${'['.repeat(5_000)}` } });
  assert.equal(inString.status, 201, inString.text);
  assert.deepEqual((await lab.call('GET', '/api/runs')).json, [], 'no refused request made a run');
});

test('a profile text nested 10,000 deep is 422 invalid-profile naming the limit and where; one within it is stored', async () => {
  const deep = await lab.call('PUT', '/api/implementations/deep-profile', { body: { name: 'Deep', profileText: profileOfDepth(DEEP) } });
  assert.equal(deep.status, 422, deep.text);
  assert.equal(deep.json.error, 'invalid-profile');
  assert.match(deep.json.message, new RegExp(`nested deeper than ${LIMIT} levels`));
  assert.deepEqual(deep.json.details, { line: 2, column: openingBeyond(profileOfDepth(DEEP).split('\n')[1]!, LIMIT) });
  const within = await lab.call('PUT', '/api/implementations/deep-profile', { body: { name: 'Deep', profileText: profileOfDepth(LIMIT) } });
  assert.equal(within.status, 201, within.text);
  assert.equal(within.json.profileText, profileOfDepth(LIMIT));
  assert.equal((await lab.call('PUT', '/api/implementations/deep-profile', { body: { name: 'Deep', profileText: profileOfDepth(LIMIT + 1) } })).status, 422);
});

test('the console\'s session: a body nested deep is 400 naming the limit, and a profile text it is given to save is 422 as for any API client', async () => {
  // The console's pages create an implementation with POST /api/implementations, with their session (cookie + secret as bearer).
  const session = await consoleSignIn(lab.url, lab.token);
  const body = await session.call('POST', '/api/implementations', { raw: `{"name": "Deep", "profileText": "{}", "extra": ${arrays(DEEP)}}` });
  assert.equal(body.status, 400, body.text);
  assert.equal(body.json.error, 'invalid-request');
  assert.match(body.json.message, new RegExp(`nested deeper than ${LIMIT} levels`));
  const profile = await session.call('POST', '/api/implementations', { body: { name: 'Deep', profileText: profileOfDepth(DEEP) } });
  assert.equal(profile.status, 422, profile.text);
  assert.equal(profile.json.error, 'invalid-profile');
  assert.match(profile.json.message, new RegExp(`nested deeper than ${LIMIT} levels`));
  const within = await session.call('POST', '/api/implementations', { body: { name: 'Within', profileText: profileOfDepth(LIMIT) } });
  assert.equal(within.status, 201, within.text);
  assert.deepEqual(lab.logs.filter((line) => /internal error/.test(line)), [], 'nothing reached the 500 path');
});
