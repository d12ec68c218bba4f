// `ptas init` as a newcomer meets it: the file it writes loads and validates
// with the loader `ptas run` uses, points its "$schema" at the bundle, names
// the checks each key unlocks, is refused over an existing file, asks at a
// terminal and nowhere else, and a run against the bundled reference accepts
// it as written and, filled in, gets every auth check to run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runPtas } from '../support/cli.ts';
import { parseJsonc } from '../../src/config/jsonc.ts';
import { readProfileFile } from '../../src/config/load.ts';
import { PROFILE_SCHEMA_BUNDLE } from '../../app/init/schema-bundle.ts';
import { readUnlocks } from '../../app/init/unlocks.ts';
import { askStarterAnswers } from '../../app/init/questions.ts';
import { spawnReference } from '../../app/run/reference-process.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';
import type { RunResults } from '../../src/results/model.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-init-'));
const SECTIONS = ['http', 'auth', 'users', 'cryptoTransfers', 'trading', 'webhooks', 'load'];

/** The comment lines directly above the line where `key` is written (live or commented out). */
function commentsAbove(text: string, key: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => new RegExp(`^\\s*(// )?"${key}":`).test(line));
  assert.ok(at > 0, `"${key}" is not in the file`);
  const above: string[] = [];
  for (let i = at - 1; i >= 0 && /^\s*\/\/ (?!")/.test(lines[i]!); i--) above.unshift(lines[i]!.replace(/^\s*\/\/ /, ''));
  return above.join(' ');
}

test('init --yes writes a starter profile that loads, validates, points at the schema bundle and names what each key unlocks', async () => {
  const dir = tmp();
  const file = path.join(dir, 'nested', 'profile.jsonc');
  const run = await runPtas(['init', '--yes', '--base-url', 'http://127.0.0.1:9', '--out', file]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const text = readFileSync(file, 'utf8');

  const profile = readProfileFile(file) as Record<string, unknown>;
  assert.equal(profile.baseUrl, 'http://127.0.0.1:9');
  assert.deepEqual(profile.credentials, { clientId: 'env:PTAS_CLIENT_ID', clientSecret: 'env:PTAS_CLIENT_SECRET' });
  for (const section of SECTIONS) assert.ok(section in profile, `section ${section} is missing`);

  const schemaRef = (parseJsonc(text) as { $schema: string }).$schema;
  assert.ok(!path.isAbsolute(schemaRef), `"$schema" is relative to the file: ${schemaRef}`);
  assert.equal(path.resolve(path.dirname(file), schemaRef), PROFILE_SCHEMA_BUNDLE);
  assert.ok(existsSync(path.resolve(path.dirname(file), schemaRef)));

  const createOffer = commentsAbove(text, 'createOffer');
  assert.match(createOffer, /Creates a trade offer/, 'the schema description is there');
  const unlocked = readUnlocks()['trading.createOffer'] ?? [];
  assert.ok(unlocked.length > 5, 'the committed map knows what trading.createOffer unlocks');
  for (const id of unlocked) assert.ok(createOffer.includes(id), `the comment above createOffer does not name ${id}`);
  assert.match(commentsAbove(text, 'existingUserId'), /Unlocks \d+ checks: .*users\.details-schema/);

  assert.match(run.stdout, /export PTAS_CLIENT_SECRET=/);
  assert.ok(run.stdout.includes(`ptas doctor -c ${file}`), run.stdout);
  assert.ok(run.stdout.includes(`ptas run -c ${file}`), run.stdout);
});

test('init refuses to overwrite a file without --force (exit 2) and overwrites it with --force', async () => {
  const file = path.join(tmp(), 'ptas-profile.jsonc');
  writeFileSync(file, '{"name": "mine"}');
  const refused = await runPtas(['init', '--yes', '--out', file]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /already exists; pass --force/);
  assert.equal(readFileSync(file, 'utf8'), '{"name": "mine"}', 'the file is untouched');

  const forced = await runPtas(['init', '--yes', '--force', '--out', file]);
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.match(readFileSync(file, 'utf8'), /"\$schema"/);
});

test('without a terminal init asks nothing and takes every answer from the flags; a bad --base-url exits 2', async () => {
  const dir = tmp();
  const file = path.join(dir, 'ci.jsonc');
  const flags = ['--base-url', 'https://sandbox.example.com', '--client-id', 'partner-a', '--name', 'Acme sandbox'];
  const jwks = ['--jwks-url', '/.well-known/jwks.json', '--jwks-bearer', '--webhook-jwks-url', '/webhooks/jwks.json'];
  const run = await runPtas(['init', ...flags, ...jwks, '-o', file], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.doesNotMatch(run.stdout, /\?|\[y\/N\]|Describe the implementation/, 'no question was asked');
  const profile = readProfileFile(file);
  assert.equal(profile.name, 'Acme sandbox');
  assert.equal(profile.credentials?.clientId, 'partner-a');
  assert.equal(profile.auth?.jwksUrl, '/.well-known/jwks.json');
  assert.equal(profile.auth?.jwksAccess, 'bearer');
  assert.deepEqual(profile.webhooks?.signature, { scheme: 'rfc9421', jwksUrl: '/webhooks/jwks.json' });

  const bad = await runPtas(['init', '--yes', '--base-url', 'sandbox.example.com', '-o', path.join(dir, 'bad.jsonc')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--base-url sandbox\.example\.com: expected an http:\/\/ or https:\/\/ URL/);
  assert.ok(!existsSync(path.join(dir, 'bad.jsonc')), 'nothing is written');
});

test('at a terminal the questions default to the flags, re-ask a bad base URL, and end on Ctrl-D', async () => {
  const answers = ['not a url', 'https://sandbox.acme.example', '', 'partner-a', '/jwks', '', 'y'];
  const input = new PassThrough();
  const prompts: string[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString();
      if (text.endsWith(': ')) {
        prompts.push(text);
        const next = answers.shift();
        if (next !== undefined) setImmediate(() => input.write(`${next}\n`));
      }
      done();
    },
  });
  const result = await askStarterAnswers({ name: '', baseUrl: 'http://127.0.0.1:8080' }, input, output);
  assert.deepEqual(result, {
    name: 'sandbox.acme.example',
    baseUrl: 'https://sandbox.acme.example',
    clientId: 'partner-a',
    jwksUrl: '/jwks',
    webhookJwksUrl: undefined,
    jwksNeedsBearer: true,
  });
  assert.match(prompts[0]!, /Base URL .*\[http:\/\/127\.0\.0\.1:8080\]: $/);
  assert.match(prompts[1]!, /expected an http:\/\/ or https:\/\/ URL[\s\S]*Base URL/, 'the bad URL is named and the question repeated');
  assert.match(prompts[2]!, /Name .*\[sandbox\.acme\.example\]: $/, "the name defaults to the base URL's host");

  const ended = new PassThrough();
  const sink = new Writable({ write: (_chunk, _encoding, done) => (ended.end(), done()) });
  await assert.rejects(askStarterAnswers({ name: '', baseUrl: 'http://127.0.0.1:8080' }, ended, sink), /cancelled/);
});

test('against the bundled reference a run accepts the written profile as is, and the filled-in profile runs every auth check', async () => {
  const reference = await spawnReference();
  try {
    const dir = tmp();
    const file = path.join(dir, 'ptas-profile.jsonc');
    const init = await runPtas(['init', '--yes', '--base-url', reference.url, '--out', file]);
    assert.equal(init.code, 0, init.stdout + init.stderr);
    const env = { PTAS_CLIENT_ID: REFERENCE_DEFAULTS.clientId, PTAS_CLIENT_SECRET: reference.options.clientSecret };

    // The auth checks on two workers (not the default four): fewer worker starts, the same verdicts.
    const asWritten = await runPtas(['run', '-c', file, '--base-url', reference.url, '--grep', '@area:auth', '--no-load', '--workers', '2', '--out', path.join(dir, 'as-written')], { env });
    assert.ok(asWritten.code === 0 || asWritten.code === 5, `exit ${asWritten.code}: ${asWritten.stdout}${asWritten.stderr}`);
    const skipped = (JSON.parse(readFileSync(path.join(dir, 'as-written', 'results.json'), 'utf8')) as RunResults).checks.filter((c) => c.verdict === 'SKIP');
    assert.ok(skipped.length > 0 && skipped.every((c) => c.configKey), 'what the starter leaves commented out SKIPs, naming its key');

    // Filled in: every section with the reference's own values, the written top level kept.
    const filled = { ...(parseJsonc(readFileSync(file, 'utf8')) as object), ...sectionsOf(referenceProfile(reference.url, reference.options) as unknown as Record<string, unknown>) };
    const filledFile = path.join(dir, 'filled.jsonc');
    writeFileSync(filledFile, JSON.stringify(filled, null, 2));
    const run = await runPtas(['run', '-c', filledFile, '--grep', '@area:auth', '--no-load', '--workers', '2', '--out', path.join(dir, 'filled')], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const results = JSON.parse(readFileSync(path.join(dir, 'filled', 'results.json'), 'utf8')) as RunResults;
    assert.equal(results.verdict, 'CONFORMANT');
    assert.equal(results.counts.SKIP, 0, 'filled in, no auth check is skipped');
  } finally {
    await reference.stop();
  }
});

function sectionsOf(profile: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SECTIONS.filter((s) => profile[s] !== undefined).map((s) => [s, profile[s]]));
}
