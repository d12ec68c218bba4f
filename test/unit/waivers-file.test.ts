// The waiver file (schemas/waivers.schema.json, read by
// src/results/waivers-file.ts): a good file loads with the SHA-256 of its
// bytes; a bad one is refused before anything runs, naming the file, the JSON
// Pointer of the field and what to write there, with the usage exit code.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exitCodeOf } from '../../src/errors.ts';
import { EXIT } from '../../src/exit-codes.ts';
import { assertKnownChecks, loadWaivers, WaiversFileError } from '../../src/results/waivers-file.ts';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-waivers-file-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const good = {
  check: 'auth.refresh-token-single-use',
  reason: 'single-use refresh tokens ship in release 4.2',
  owner: 'payments-api team <payments-api@example.com>',
  tracking: 'https://tracker.example.com/PAY-1234',
  expires: '2026-12-31',
  expect: { verdict: 'FAIL', reason: 'was accepted' },
};

let counter = 0;
function write(content: string | object): string {
  const file = path.join(scratch, `waivers-${counter++}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** The error loading this file throws. */
function refusal(content: string | object): { error: WaiversFileError; file: string } {
  const file = write(content);
  try {
    loadWaivers(file);
  } catch (error) {
    assert.ok(error instanceof WaiversFileError, `a WaiversFileError, got ${String(error)}`);
    assert.equal(exitCodeOf(error), EXIT.USAGE);
    return { error, file };
  }
  assert.fail(`${JSON.stringify(content)} was accepted`);
}

test('a good file loads, normalised, with the SHA-256 of its bytes; one byte more changes the hash', () => {
  const text = `{\n  "$schema": "./schemas/waivers.schema.json",\n  // comments are allowed, as in the profile\n  "waivers": [${JSON.stringify(good)}, ${JSON.stringify({ ...good, check: undefined, requirement: 'TOKEN-REFRESH-RENEWS', expect: { verdict: 'ERROR' } })}]\n}\n`;
  const file = write(text);
  const loaded = loadWaivers(file);
  assert.equal(loaded.file, file);
  assert.equal(loaded.sha256, createHash('sha256').update(readFileSync(file)).digest('hex'));
  assert.deepEqual(loaded.waivers[0], {
    pointer: '/waivers/0',
    selector: { kind: 'check', id: 'auth.refresh-token-single-use' },
    reason: good.reason,
    owner: good.owner,
    tracking: good.tracking,
    expires: '2026-12-31',
    expect: { verdict: 'FAIL', reason: 'was accepted' },
  });
  assert.deepEqual(loaded.waivers[1]!.selector, { kind: 'requirement', id: 'TOKEN-REFRESH-RENEWS' });
  assert.deepEqual(loaded.waivers[1]!.expect, { verdict: 'ERROR' });
  writeFileSync(file, text + ' ');
  assert.notEqual(loadWaivers(file).sha256, loaded.sha256);
});

test('a malformed waiver is refused naming the file, the field and the fix', () => {
  const without = (key: keyof typeof good) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== key));
  const cases: Array<{ waiver: object; says: RegExp[] }> = [
    { waiver: without('owner'), says: [/\/waivers\/0: missing "owner"\. Fix: Who answers for the waiver/] },
    { waiver: without('expect'), says: [/\/waivers\/0: missing "expect"/] },
    { waiver: without('check'), says: [/\/waivers\/0: give exactly one selector: "check" .* or "requirement"/] },
    { waiver: { ...good, requirement: 'TOKEN-REFRESH-RENEWS' }, says: [/\/waivers\/0: give exactly one selector/] },
    { waiver: { ...good, expires: '2026-02-30' }, says: [/\/waivers\/0\/expires: must match format "date"\. Fix: The last day the waiver applies \(YYYY-MM-DD/, /example: "2026-12-31"/] },
    { waiver: { ...good, expires: '31/12/2026' }, says: [/\/waivers\/0\/expires: must match format "date"/] },
    { waiver: { ...good, tracking: 'PAY-1234' }, says: [/\/waivers\/0\/tracking: .*Fix: The http\(s\) address of the ticket/] },
    { waiver: { ...good, tracking: 'javascript:alert(1)' }, says: [/\/waivers\/0\/tracking: must match pattern "\^https\?:\/\/"/] },
    { waiver: { ...good, reason: '   ' }, says: [/\/waivers\/0\/reason: must not be blank\. Fix: Why the failure is accepted/] },
    { waiver: { ...good, owner: '' }, says: [/\/waivers\/0\/owner: must not be blank\. Fix: Who answers/] },
    { waiver: { ...good, expect: { verdict: 'PASS' } }, says: [/\/waivers\/0\/expect\/verdict: "PASS" is not allowed\. Fix: one of "FAIL", "ERROR", "WARN"/] },
    { waiver: { ...good, expect: { verdict: 'FAIL', reason: '' } }, says: [/\/waivers\/0\/expect\/reason: /] },
    { waiver: { ...good, expiry: '2026-12-31' }, says: [/\/waivers\/0: unknown key "expiry"\. Fix: remove it or correct its spelling \(allowed here: check, requirement, reason, owner, tracking, expires, expect\)/] },
    { waiver: { ...good, check: 'Auth Refresh' }, says: [/\/waivers\/0\/check: must match pattern/, /example: "auth.refresh-token-single-use"/] },
  ];
  for (const { waiver, says } of cases) {
    const { error, file } = refusal({ waivers: [good, waiver].slice(1) });
    assert.ok(error.message.startsWith(`${file} is not a valid waiver file (schemas/waivers.schema.json):\n`), error.message);
    for (const pattern of says) assert.match(error.message, pattern, JSON.stringify(waiver));
    assert.ok(error.pointer?.startsWith('/waivers/0'), `${error.pointer} for ${JSON.stringify(waiver)}`);
  }
});

test('the problem is pointed at in the waiver it is in, and every problem of the file is named', () => {
  const { error } = refusal({ waivers: [good, { ...good, owner: undefined }, { ...good, expires: 'soon' }] });
  assert.match(error.message, /\/waivers\/1: missing "owner"/);
  assert.match(error.message, /\/waivers\/2\/expires: must match format "date"/);
  assert.doesNotMatch(error.message, /\/waivers\/0/);
});

test('the file itself: not JSON, not an object of waivers, missing, an unknown requirement', () => {
  assert.match(refusal('{ "waivers": [ }').error.message, /is not JSON: line 1, column \d+: .*Fix: the file is one object, \{"waivers": \[ … \]\}/);
  assert.match(refusal([good]).error.message, /\(root\): must be object/);
  assert.match(refusal({ waiver: [good] }).error.message, /\(root\): missing "waivers"/);
  const unknown = refusal({ waivers: [{ ...good, check: undefined, requirement: 'TOKEN-REFRESH-TYPO' }] });
  assert.match(unknown.error.message, /: \/waivers\/0\/requirement: "TOKEN-REFRESH-TYPO" is not a requirement of schemas\/requirements.json\. Fix: use one of its ids/);
  assert.equal(unknown.error.pointer, '/waivers/0/requirement');
  const missing = path.join(scratch, 'nowhere.json');
  assert.throws(() => loadWaivers(missing), (error: unknown) => error instanceof WaiversFileError && error.message === `no waiver file at ${missing}. Fix: check the path given to --waivers`);
});

test('an empty list of waivers is a valid file', () => {
  assert.deepEqual(loadWaivers(write({ waivers: [] })).waivers, []);
});

test('assertKnownChecks refuses a check id ptas does not have, naming the waiver and the checks of its area', () => {
  const loaded = loadWaivers(write({ waivers: [good, { ...good, check: 'auth.refresh-token-singleuse' }] }));
  const known = ['auth.refresh-token-single-use', 'auth.refresh-token-single-use-race', 'users.accept-language-accepted'];
  assert.throws(
    () => assertKnownChecks(loaded, known),
    (error: unknown) =>
      error instanceof WaiversFileError &&
      error.pointer === '/waivers/1/check' &&
      error.message.includes('/waivers/1/check: no check "auth.refresh-token-singleuse"') &&
      error.message.includes('(checks of auth: auth.refresh-token-single-use, auth.refresh-token-single-use-race)'),
  );
  assert.doesNotThrow(() => assertKnownChecks({ ...loaded, waivers: loaded.waivers.slice(0, 1) }, known));
});
