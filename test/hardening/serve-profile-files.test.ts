// Issue 28, medium: profile keys that take file paths (auth.jwksFile,
// webhooks.signature.jwksFile, http.ca/cert/key) made `ptas serve` read its
// own files: a system file's existence and first characters came back in an
// error message. Here, against a real server: a stored profile names no file
// (Save and runs refuse it, Check says nothing of the file); with the
// operator's folder (--profile-files DIR) a profile names files inside it
// only — not by an absolute path, "..", nor a symbolic link out of it — and
// a key set inside it is read by Check as a JWK Set should be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { consoleSignIn, startConsoleTestServer } from '../serve/support.ts';

/** A file of the server's that a profile must not get at, with a marker its first characters would show. */
function serverFile(): { file: string; marker: string; root: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ptas-server-files-'));
  const marker = `server-private-${Date.now()}`;
  const file = path.join(root, 'private.txt');
  writeFileSync(file, `${marker}:x:0:0:root:/root:/bin/bash\n`);
  return { file, marker, root };
}

test('a stored profile names no file of the server; with --profile-files, only files inside that folder', { timeout: 120_000 }, async () => {
  const { file, marker, root } = serverFile();
  const reference = await spawnReference();
  const secret = referenceProfile(reference.url, reference.options).credentials!.clientSecret!;
  const env = { ...process.env, LAB_SECRET: secret };
  const profileNaming = (keys: Record<string, unknown>) => {
    const profile = referenceProfile(reference.url, reference.options) as Record<string, any>;
    profile.credentials.clientSecret = 'env:LAB_SECRET';
    profile.users.ownLicence.clientSecret = 'env:LAB_SECRET';
    delete profile.auth.jwksUrl;
    return { ...profile, auth: { ...profile.auth, ...(keys.auth as object) }, ...(keys.http ? { http: keys.http } : {}) };
  };

  const lab = await startConsoleTestServer({ env, secretEnv: ['LAB_SECRET'] });
  try {
    const browser = await consoleSignIn(lab.url, lab.token);
    for (const keys of [{ auth: { jwksFile: file } }, { http: { ca: file } }, { http: { cert: file, key: file } }]) {
      const text = JSON.stringify(profileNaming(keys));
      const stored = await lab.call('PUT', '/api/implementations/files', { body: { name: 'files', profileText: text } });
      assert.equal(stored.status, 422, `${JSON.stringify(keys)}: ${stored.text}`);
      assert.equal(stored.json.error, 'file-refused');
      assert.match(stored.json.message, /--profile-files/);
      const checked = await browser.call('POST', '/api/doctor', { body: { profileText: text } });
      assert.equal(checked.status, 422, checked.text);
      assert.match(checked.text, /names no file of the server's/, `Check of ${JSON.stringify(keys)}: ${checked.text}`);
      for (const answer of [stored.text, checked.text]) assert.ok(!answer.includes(marker), `the file's content came back: ${answer}`);
    }
  } finally {
    await lab.close();
  }

  const folder = path.join(root, 'profile-files');
  mkdirSync(folder);
  const jwks = await (await fetch(`${reference.url}/.well-known/jwks.json`)).text();
  writeFileSync(path.join(folder, 'token-keys.json'), jwks);
  symlinkSync(file, path.join(folder, 'escape.json'));
  const withFolder = await startConsoleTestServer({ env, secretEnv: ['LAB_SECRET'], profileFiles: folder });
  try {
    const browser = await consoleSignIn(withFolder.url, withFolder.token);
    for (const name of [file, '../private.txt', 'escape.json']) {
      const text = JSON.stringify(profileNaming({ auth: { jwksFile: name } }));
      const stored = await withFolder.call('PUT', '/api/implementations/files', { body: { name: 'files', profileText: text } });
      const checked = await browser.call('POST', '/api/doctor', { body: { profileText: text } });
      if (stored.status === 422) assert.equal(stored.json.error, 'file-refused', stored.text);
      else assert.ok(stored.status < 300 && name === 'escape.json', `${name}: stored only if its path is inside the folder (where it leads is the run's to find): ${stored.status} ${stored.text}`);
      assert.equal(checked.status, 422, checked.text);
      assert.match(checked.text, /not a file inside the lab's profile files folder|relative to the lab's profile files folder/, `Check of ${name}: ${checked.text}`);
      for (const answer of [stored.text, checked.text]) assert.ok(!answer.includes(marker), `the file's content came back for ${name}: ${answer}`);
    }
    const inside = JSON.stringify(profileNaming({ auth: { jwksFile: 'token-keys.json' } }));
    assert.ok((await withFolder.call('PUT', '/api/implementations/files', { body: { name: 'files', profileText: inside } })).status < 300);
    const checked = await browser.call('POST', '/api/doctor', { body: { profileText: inside } });
    const rows = checked.json.rows as Array<{ operation: string; outcome: string }>;
    assert.ok(rows.some((row) => row.operation === 'token JWKS' && row.outcome === 'OK'), `the key set inside the folder is read: ${checked.text}`);
  } finally {
    await withFolder.close();
    await reference.stop();
  }
});
