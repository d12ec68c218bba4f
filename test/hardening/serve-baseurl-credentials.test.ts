// Issue 28, low: a password in the base URL's userinfo
// (https://user:password@host) was stored and shown: in the implementation's
// record and summary, and from there in every answer that lists it. Here,
// against a real server, the API refuses, to a CI token and to the console's session alike, such a profile (422
// naming baseUrl), and the password is in no answer, log line or file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { caller, consoleSignIn, startConsoleTestServer } from '../serve/support.ts';

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesBelow(full) : [full];
  });
}

test('a base URL with credentials in it is refused, by the API and by the console, and its password is kept nowhere, not even in the refusal', async () => {
  const password = `pw-${Date.now().toString(36)}-in-the-url`;
  const lab = await startConsoleTestServer();
  const seen: string[] = [];
  const call = caller(lab.url, lab.token, seen);
  try {
    const profileText = JSON.stringify({ baseUrl: `https://partner:${password}@sandbox.acme.example/`, credentials: { clientId: 'x', clientSecret: 'env:ACME_SECRET' } });
    const stored = await call('PUT', '/api/implementations/userinfo', { body: { name: 'userinfo', profileText } });
    assert.equal(stored.status, 422, stored.text);
    assert.equal(stored.json.error, 'invalid-profile');
    assert.equal(stored.json.details.keyPath, '/baseUrl');
    assert.match(stored.json.message, /^baseUrl: holds credentials/);
    const browser = await consoleSignIn(lab.url, lab.token, seen);
    // The console's Save: POST /api/implementations with the console's session.
    const created = await browser.call('POST', '/api/implementations', { body: { name: 'userinfo', profileText } });
    assert.equal(created.status, 422, `the console's Save: ${created.text}`);
    assert.equal(created.json.error, 'invalid-profile');
    assert.match(created.json.message, /^baseUrl: holds credentials/);
    for (const route of ['/api/implementations', '/api/implementations/userinfo']) await call('GET', route);
    for (const route of ['/api/implementations', '/api/implementations/userinfo']) await browser.call('GET', route);
    for (const { where, text } of [
      ...seen.map((text, i) => ({ where: `answer ${i}`, text })),
      { where: 'the server log', text: lab.logs.join('\n') },
      ...filesBelow(lab.data).map((file) => ({ where: file, text: readFileSync(file, 'latin1') })),
    ]) {
      assert.ok(!text.includes(password), `the password in the base URL is in ${where}`);
    }
  } finally {
    await lab.close();
  }
});
