// The console's start-run form offers a one-run secret field for each env:
// reference among the saved profile's values, and for the client secret when
// the profile sets none (issue 30: a comment's words once became fields).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envReferences, setsClientSecret } from '../../console/profile-secrets.ts';

const profile = `{
  // Give each secret as env:NAME, e.g. env:NAME or env:PTAS_USERS_OWN_LICENCE_CLIENT_SECRET (a comment, not a value).
  "baseUrl": "http://127.0.0.1:8080",
  /* "clientSecret": "commented out" */
  "credentials": { "clientId": "partner", "clientSecret": "env:PTAS_CLIENT_SECRET" },
  "webhooks": { "signature": { "hmacSecret": "env:PTAS_WEBHOOK_SECRET" } },
  "http": { "headers": [{ "header": "X-Api-Key", "value": "env:PTAS_CLIENT_SECRET" }] }
}`;

test('fields for the env: references among the values only, each once; none from comments', () => {
  assert.deepEqual(envReferences(profile), ['PTAS_CLIENT_SECRET', 'PTAS_WEBHOOK_SECRET']);
});

test('the client secret is set by a value, not by a comment that names the key', () => {
  assert.equal(setsClientSecret(profile), true);
  assert.equal(setsClientSecret('{ /* "clientSecret": "x" */ "credentials": { "clientId": "p" } }'), false);
  assert.equal(setsClientSecret('{ "credentials": { "clientId": "p" }, // "clientSecret": "x"\n }'), false);
});

test('a text that does not parse offers no field (the server refused to save it)', () => {
  assert.deepEqual(envReferences('{ "credentials": { "clientSecret": "env:X" '), []);
});
