// One error hierarchy (src/errors.ts): every error that ends a command or a
// check as someone else's problem is a PtasError with a code; the code decides
// the exit code (bin/connection.ts fail()) and the check runtime lets the error
// word its ERROR reason (runner/fixtures.ts outcomeOf). What the CLI prints
// and the reasons checks report are the same as before the hierarchy.
import { MergeRefused } from '../../app/merge/shards.ts';
import { RejudgeRefused } from '../../app/rejudge/rejudge.ts';
import { SigningKeyError } from '../../src/certify/signing.ts';
import { LoadMergeRefused } from '../../load/distributed/refused.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import { ERROR_CODES, exitCodeOf, PtasError } from '../../src/errors.ts';
import { EXIT } from '../../src/exit-codes.ts';
import { fromRoot } from '../../src/paths.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { TemplateError } from '../../src/operations.ts';
import { TokenSetupError } from '../../src/auth/tokens.ts';
import { JwksUnavailable } from '../../src/auth/jwks.ts';
import { TransportError } from '../../src/http/client.ts';
import { TransientAnswerError } from '../../src/http/transient.ts';
import { Redactor } from '../../src/http/redact.ts';
import { CheckContext } from '../../src/check/context.ts';
import { outcomeOf } from '../../runner/fixtures.ts';
import { UnreachableError } from '../../app/run/preflight.ts';
import { InitRefused } from '../../app/init/init.ts';
import { QuestionsCancelled } from '../../app/init/questions.ts';
import { ResultsFileError } from '../../reports/read-results.ts';
import { WaiversFileError } from '../../src/results/waivers-file.ts';
import { ModeError } from '../../reference/modes.ts';
import { SetupError } from '../../suites/trading/support.ts';
import { failureText } from '../../bin/connection.ts';
import { ServeError } from '../../app/serve/errors.ts';
import { EnvReferenceOutsideSecret, EnvReferenceWithoutValue } from '../../src/config/env-references.ts';
import { PathOutsideTarget } from '../../src/http/outgoing.ts';

/** One of each, with the exit code the CLI gave it before the hierarchy. */
const EXAMPLES: Array<{ error: PtasError; exit: number }> = [
  { error: new ConfigError('http.timeoutMs must be a number\n  e.g. 10000', 'http.timeoutMs'), exit: EXIT.USAGE },
  { error: new ModeError('--signature must be one of ed25519, ecdsa-p256, hmac (got "rsa")'), exit: EXIT.USAGE },
  { error: new UnreachableError('target http://127.0.0.1:9 is unreachable: CONNECTION_REFUSED (nothing is listening there)'), exit: EXIT.UNREACHABLE },
  { error: new InitRefused('ptas-profile.jsonc already exists; pass --force to overwrite it, or --out to write another file'), exit: EXIT.USAGE },
  { error: new QuestionsCancelled(), exit: EXIT.INTERRUPTED },
  { error: new ResultsFileError('no results file at /tmp/none/results.json'), exit: EXIT.USAGE },
  { error: new WaiversFileError('waivers.json: /waivers/0: missing "owner".', '/waivers/0'), exit: EXIT.USAGE },
  { error: new MergeRefused('shard 2/2 is missing (given: 1/2)'), exit: EXIT.USAGE },
  { error: new RejudgeRefused('bundle: not the bundle its manifest describes (results.json: its SHA-256 differs from the manifest\'s)'), exit: EXIT.USAGE },
  { error: new ServeError('conflict', 'a token named ci exists; revoke it first (ptas serve token revoke --name ci) or choose another name'), exit: EXIT.USAGE },
  { error: new LoadMergeRefused('ptas load merge refused:\n  - segment 1/2:1 is missing: no instance ran it'), exit: EXIT.USAGE },
  { error: new SigningKeyError('--sign-key: key.pem is a rsa key; an Ed25519 key is required (openssl genpkey -algorithm ed25519 -out key.pem)'), exit: EXIT.USAGE },
  { error: new EnvReferenceOutsideSecret({ name: 'HOME', keyPath: 'name', pointer: '/name', secret: false }), exit: EXIT.USAGE },
  { error: new EnvReferenceWithoutValue({ name: 'ACME_SECRET', keyPath: 'credentials.clientSecret', pointer: '/credentials/clientSecret', secret: true }), exit: EXIT.USAGE },
  { error: new PathOutsideTarget('the path "@evil.example/x" appended to https://sandbox.acme.example names https://evil.example, not the target'), exit: EXIT.INTERNAL },
  { error: new TemplateError('the template for "x" names {nope}, which this operation does not fill (it fills {userId})'), exit: EXIT.INTERNAL },
  { error: new SetupError('trading.createUser answered 500 without a userId to extract'), exit: EXIT.INTERNAL },
  { error: new TokenSetupError('token endpoint did not issue an access token (status 401)', 401), exit: EXIT.INTERNAL },
  { error: new JwksUnavailable('JWK Set at http://127.0.0.1:1/jwks answered 404 without a "keys" array'), exit: EXIT.INTERNAL },
  { error: new TransportError('TIMEOUT', 'no complete response within 50 ms', 3, 'http://127.0.0.1:1/v1/oauth/token'), exit: EXIT.INTERNAL },
  { error: new TransientAnswerError('GET /v2/users/x was answered 503 4 times (Retry-After honoured)', 7), exit: EXIT.INTERNAL },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** Class name → what it extends, for every class in the tree that extends an error class. */
function errorClasses(): Map<string, string> {
  const classes = new Map<string, string>();
  for (const floor of ['src', 'app', 'bin', 'suites', 'load', 'reports', 'reference']) {
    for (const file of sourceFiles(fromRoot(floor))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/class (\w+) extends (\w*Error)\b/g)) classes.set(m[1]!, m[2]!);
    }
  }
  return classes;
}

/** Errors that stay outside the hierarchy: a check's verdict (control flow), and errors caught where they arise. */
const NOT_PTAS_ERRORS = ['CheckFailure', 'CheckSkip', 'JsoncSyntaxError', 'SignatureBaseError'];

test('every error class is a PtasError, or one of the few that never leave where they are thrown', () => {
  const examples = new Set(EXAMPLES.map(({ error }) => error.constructor.name));
  for (const [name, parent] of errorClasses()) {
    if (name === 'PtasError') continue;
    if (parent === 'Error') assert.ok(NOT_PTAS_ERRORS.includes(name), `${name} extends Error: make it a PtasError (src/errors.ts) or say here why not`);
    else assert.ok(examples.has(name), `${name} (extends ${parent}) has no example in this test`);
  }
});

test('every PtasError has a code with a documented meaning, and the code decides the exit code as before', () => {
  const seen = new Set<string>();
  for (const { error, exit } of EXAMPLES) {
    const name = error.constructor.name;
    assert.ok(error instanceof PtasError && error instanceof Error, name);
    assert.ok(error.code in ERROR_CODES, `${name}: unknown code ${error.code}`);
    assert.equal(error.name, name, 'the name shows in a stack');
    assert.equal(exitCodeOf(error), exit, `${name} (${error.code})`);
    seen.add(error.code);
  }
  for (const [code, { meaning }] of Object.entries(ERROR_CODES)) {
    assert.ok(seen.has(code), `no class has the code ${code}`);
    assert.ok(meaning.length > 20, `${code} says what it means`);
  }
  assert.equal(exitCodeOf(new Error('a bug')), EXIT.INTERNAL);
  assert.equal(exitCodeOf('thrown text'), EXIT.INTERNAL);
});

test('what the CLI prints for each: config errors indented under a heading, the others as they are, bugs with their stack', () => {
  const [config] = EXAMPLES;
  assert.equal(failureText(config!.error, EXIT.USAGE), 'configuration error:\n  http.timeoutMs must be a number\n    e.g. 10000');
  assert.equal(failureText(EXAMPLES[1]!.error, EXIT.USAGE), 'configuration error:\n  --signature must be one of ed25519, ecdsa-p256, hmac (got "rsa")');
  for (const { error, exit } of EXAMPLES.slice(2)) {
    const expected = exit === EXIT.INTERNAL ? `internal error: ${error.stack}` : error.code === 'config' ? `configuration error:\n  ${error.message}` : error.message;
    assert.equal(failureText(error, exitCodeOf(error)), expected, error.name);
  }
  const bug = new TypeError('x is undefined');
  assert.equal(failureText(bug, exitCodeOf(bug)), `internal error: ${bug.stack}`);
  assert.equal(failureText('thrown text', EXIT.INTERNAL), 'internal error: thrown text');
});

test('fail() writes the text and exits with the code', () => {
  const cases = [
    { make: `new (await import('./src/config/errors.ts')).ConfigError('a\\nb')`, status: 2, stderr: 'ptas: configuration error:\n  a\n  b\n' },
    { make: `new (await import('./app/run/preflight.ts')).UnreachableError('target x is unreachable')`, status: 3, stderr: 'ptas: target x is unreachable\n' },
    { make: `new (await import('./src/operations.ts')).TemplateError('names {nope}')`, status: 4, stderr: /^ptas: internal error: TemplateError: names \{nope\}\n {4}at / },
  ];
  for (const { make, status, stderr } of cases) {
    const script = `const { fail } = await import('./bin/connection.ts'); fail(${make});`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: fromRoot(), encoding: 'utf8' });
    assert.equal(run.status, status, run.stderr);
    if (typeof stderr === 'string') assert.equal(run.stderr, stderr);
    else assert.match(run.stderr, stderr);
  }
});

/** The reason outcomeOf gives a check that threw error. */
function errorReason(error: unknown): string {
  const testInfo = { status: 'failed', annotations: [], timeout: 60_000 } as unknown as TestInfo;
  const outcome = outcomeOf(new CheckContext(new Redactor()), testInfo, { severity: 'MUST', requirements: [] }, error);
  assert.equal(outcome.verdict, 'ERROR');
  return outcome.reason!;
}

test('a check Playwright interrupted (Ctrl-C, a cancelled run) is ERROR, even after a FAIL it claimed', () => {
  const testInfo = { status: 'interrupted', annotations: [], timeout: 60_000 } as unknown as TestInfo;
  const check = new CheckContext(new Redactor(), { requirements: ['TOKEN-REFRESH-SINGLE-USE'], profile: {} });
  assert.throws(() => check.fail('no delivery came'));
  const outcome = outcomeOf(check, testInfo, { severity: 'MUST', requirements: ['TOKEN-REFRESH-SINGLE-USE'] }, undefined);
  assert.equal(outcome.verdict, 'ERROR');
  assert.match(outcome.reason!, /the run was stopped before the check finished/);
});

test('a check ended by one of them is ERROR with the reason it gave before', () => {
  const byName = Object.fromEntries(EXAMPLES.map(({ error }) => [error.name, error]));
  assert.equal(errorReason(byName.TransportError), 'no usable response from http://127.0.0.1:1/v1/oauth/token: TIMEOUT (no complete response within 50 ms)');
  assert.equal(errorReason(byName.TokenSetupError), 'set-up failed: token endpoint did not issue an access token (status 401)');
  assert.equal(errorReason(byName.SetupError), 'the check could not run: trading.createUser answered 500 without a userId to extract');
  assert.equal(errorReason(byName.TemplateError), 'the check could not run: the template for "x" names {nope}, which this operation does not fill (it fills {userId})');
  assert.equal(errorReason(byName.JwksUnavailable), 'the check could not run: JWK Set at http://127.0.0.1:1/jwks answered 404 without a "keys" array');
  assert.equal(errorReason(new Error('first line\nsecond line')), 'the check could not run: first line');
});
