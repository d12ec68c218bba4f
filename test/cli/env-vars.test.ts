// Every environment variable the READMEs document works where they say:
// the PTAS_* profile variables of run, load and doctor (src/config/load.ts),
// PTAS_K6 of `ptas load --engine k6`, the -e variables of the k6 scripts
// (load/k6/lib/config.ts), and PTAS_REF_<OPTION> and the secrets of
// `ptas reference` (bin/reference-env.ts). The last test reads README.md and
// load/README.md: a variable documented there without a case here fails.
// In-process parsing where it can; real processes only for two end-to-end cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import yargs from 'yargs';
import { fromRoot } from '../../src/paths.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { ENVIRONMENT_VARIABLES } from '../../src/config/load.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { connectionOptions, profileFrom } from '../../bin/connection.ts';
import { parseReferenceArgs, referenceOptionsBuilder, referenceOptionsFrom, REFERENCE_CLI_OPTIONS } from '../../bin/reference-command.ts';
import { REFERENCE_SECRET_VARIABLES, referenceEnvVariable } from '../../bin/reference-env.ts';
import { findK6 } from '../../load/k6-runner/run-k6.ts';
import { runPtas } from '../support/cli.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-env-'));
const at = (value: unknown, keyPath: string): unknown => keyPath.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);
const camel = (option: string) => option.replace(/-(.)/g, (_, c: string) => c.toUpperCase());

// ---- run, load, doctor: the profile's PTAS_* variables -------------------------------------------------

/** Per variable: a value, the profile key it must set, and the flag that must win over it (none for PTAS_JWKS_URL). */
const PROFILE_SAMPLES: Record<string, { raw: string; key: string; value: unknown; flag?: string[]; flagValue?: unknown }> = {
  PTAS_BASE_URL: { raw: 'https://sandbox.example.com', key: 'baseUrl', value: 'https://sandbox.example.com', flag: ['--base-url', 'https://flag.example.com'], flagValue: 'https://flag.example.com' },
  PTAS_CLIENT_ID: { raw: 'partner-a', key: 'credentials.clientId', value: 'partner-a', flag: ['--client-id', 'partner-b'], flagValue: 'partner-b' },
  PTAS_CLIENT_SECRET: { raw: 'env-secret', key: 'credentials.clientSecret', value: 'env-secret', flag: ['--client-secret', 'flag-secret'], flagValue: 'flag-secret' },
  PTAS_TIMEOUT_MS: { raw: '2500', key: 'http.timeoutMs', value: 2500, flag: ['--timeout-ms', '4000'], flagValue: 4000 },
  PTAS_CA: { raw: '/etc/ptas/ca.pem', key: 'http.ca', value: '/etc/ptas/ca.pem', flag: ['--ca', '/flag/ca.pem'], flagValue: '/flag/ca.pem' },
  PTAS_CERT: { raw: '/etc/ptas/client.pem', key: 'http.cert', value: '/etc/ptas/client.pem', flag: ['--cert', '/flag/client.pem'], flagValue: '/flag/client.pem' },
  PTAS_KEY: { raw: '/etc/ptas/client.key', key: 'http.key', value: '/etc/ptas/client.key', flag: ['--key', '/flag/client.key'], flagValue: '/flag/client.key' },
  PTAS_INSECURE: { raw: '1', key: 'http.insecure', value: true, flag: ['--no-insecure'], flagValue: false },
  PTAS_JWKS_URL: { raw: '/.well-known/jwks.json', key: 'auth.jwksUrl', value: '/.well-known/jwks.json' },
};

/** profileFrom() reads process.env, as the commands do: set exactly these PTAS_* variables for the call. */
function withProfileEnv<T>(vars: Record<string, string>, fn: () => T): T {
  const names = ENVIRONMENT_VARIABLES.map((v) => v.name);
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  for (const name of names) delete process.env[name];
  Object.assign(process.env, vars);
  try {
    return fn();
  } finally {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}

const profileWith = (argv: string[], vars: Record<string, string>) =>
  withProfileEnv(vars, () => profileFrom(connectionOptions(yargs(argv)).strict().parseSync()));

test('run, load, doctor: each PTAS_* profile variable sets its profile key, and its flag wins over it', () => {
  assert.deepEqual(Object.keys(PROFILE_SAMPLES).sort(), ENVIRONMENT_VARIABLES.map((v) => v.name).sort(), 'one case per variable src/config/load.ts reads');
  for (const [name, sample] of Object.entries(PROFILE_SAMPLES)) {
    assert.deepEqual(at(profileWith([], { [name]: sample.raw }), sample.key), sample.value, name);
    if (sample.flag) assert.deepEqual(at(profileWith(sample.flag, { [name]: sample.raw }), sample.key), sample.flagValue, `${sample.flag[0]} beats ${name}`);
  }
  assert.throws(() => profileWith([], { PTAS_TIMEOUT_MS: 'soon' }), (e: unknown) => e instanceof ConfigError && /PTAS_TIMEOUT_MS=soon: expected an integer/.test(e.message));
  // Verification off is never read from a typo: "yes" is refused, not taken as false.
  assert.throws(() => profileWith([], { PTAS_INSECURE: 'yes' }), (e: unknown) => e instanceof ConfigError && /PTAS_INSECURE=yes: expected 1 or true, 0 or false/.test(e.message));
  assert.equal(at(profileWith([], { PTAS_INSECURE: 'FALSE' }), 'http.insecure'), false);
});

test('run, load and doctor each read them: a bad PTAS_TIMEOUT_MS is a usage error naming it (exit 2)', async () => {
  const commands = [['run', '--no-load'], ['load', '-s', 'token-smoke'], ['doctor']];
  const runs = await Promise.all(commands.map((args) => runPtas(args, { env: { PTAS_TIMEOUT_MS: '5' }, timeoutMs: 60_000 })));
  runs.forEach((run, i) => {
    assert.equal(run.code, 2, `ptas ${commands[i]!.join(' ')}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /PTAS_TIMEOUT_MS=5: expected an integer number of milliseconds >= 100/);
  });
});

// ---- load: PTAS_K6 and the k6 scripts' -e variables --------------------------------------------------

test('ptas load --engine k6: PTAS_K6 names the binary, and a missing one is not replaced by PATH', () => {
  const dir = tmp();
  const binary = path.join(dir, 'my-k6');
  writeFileSync(binary, '#!/bin/sh\n');
  chmodSync(binary, 0o755);
  const pathK6 = path.join(dir, 'k6');
  writeFileSync(pathK6, '#!/bin/sh\n');
  chmodSync(pathK6, 0o755);
  assert.equal(findK6({ PTAS_K6: binary, PATH: dir }), binary);
  assert.equal(findK6({ PATH: dir }), pathK6);
  assert.equal(findK6({ PTAS_K6: path.join(dir, 'absent'), PATH: dir }), undefined);
});

/** Per -e variable of the k6 scripts: a value and the key of readConfig()'s result it must set. */
const K6_SCRIPT_SAMPLES: Record<string, { raw: string; key: string; value: unknown; with?: Record<string, string> }> = {
  PTAS_SCENARIO: { raw: 'user-details-stress', key: 'scenarioName', value: 'user-details-stress' },
  PTAS_BASE_URL: { raw: 'https://sandbox.example.com/', key: 'baseUrl', value: 'https://sandbox.example.com' },
  PTAS_CLIENT_ID: { raw: 'k6-client', key: 'profile.credentials.clientId', value: 'k6-client', with: { PTAS_CLIENT_SECRET: 'k6-secret' } },
  PTAS_CLIENT_SECRET: { raw: 'k6-secret', key: 'profile.credentials.clientSecret', value: 'k6-secret', with: { PTAS_CLIENT_ID: 'k6-client' } },
  PTAS_PROFILE: { raw: '', key: 'profile.load.caps.rps', value: 7 },
  PTAS_MAX_RPS: { raw: '400', key: 'overrides.capRps', value: 400 },
  PTAS_MAX_DURATION: { raw: '30', key: 'overrides.maxDurationSec', value: 30 },
  PTAS_RESULT: { raw: 'result.json', key: 'resultPath', value: 'result.json' },
  PTAS_RATE: { raw: '12', key: 'overrides.targetRps', value: 12 },
  PTAS_EXPECTED_RPS: { raw: '90', key: 'overrides.expectedRps', value: 90 },
  PTAS_BURST: { raw: '15', key: 'overrides.burst', value: 15 },
  PTAS_MAX_IN_FLIGHT: { raw: '64', key: 'maxInFlight', value: 64 },
  PTAS_TIMEOUT: { raw: '3s', key: 'timeout', value: '3s' },
  PTAS_INSECURE: { raw: '1', key: 'insecure', value: true },
  PTAS_NONCE: { raw: 'nonce-42', key: 'runHeaders', value: { 'ptas-nonce': 'nonce-42' } },
};

test('the k6 scripts: each -e PTAS_* variable sets what load/k6/lib/config.ts reads', async () => {
  const profileFile = path.join(tmp(), 'profile.json');
  writeFileSync(profileFile, JSON.stringify({ load: { caps: { rps: 7 } } }));
  K6_SCRIPT_SAMPLES.PTAS_PROFILE!.raw = profileFile;
  // k6's globals, as the scripts see them; the module is outside the Node type-check (tsconfig.json excludes load/k6).
  const k6 = globalThis as unknown as { __ENV: Record<string, string>; open: (file: string) => string };
  k6.open = (file) => readFileSync(file, 'utf8');
  const { readConfig } = (await import(pathToFileURL(fromRoot('load', 'k6', 'lib', 'config.ts')).href)) as { readConfig: () => unknown };
  for (const [name, sample] of Object.entries(K6_SCRIPT_SAMPLES)) {
    k6.__ENV = { PTAS_BASE_URL: 'http://127.0.0.1:9', ...sample.with, [name]: sample.raw };
    assert.deepEqual(at(readConfig(), sample.key), sample.value, name);
  }
});

// ---- reference: PTAS_REF_<OPTION> and the secrets ------------------------------------------------------

const DEPLOYED = ['webhook-signature-ecdsa-p256', 'webhook-signature-more-components', 'jwks-requires-bearer', 'offer-slow-by-body-value'];

/** Per `ptas reference` option: a PTAS_REF_<OPTION> value, the argument it parses to and what the reference is then started with. */
const REFERENCE_SAMPLES: Record<string, { raw: string; arg: unknown; options?: Partial<ReferenceOptions> }> = {
  port: { raw: '8181', arg: 8181, options: { port: 8181 } },
  host: { raw: '0.0.0.0', arg: '0.0.0.0', options: { host: '0.0.0.0' } },
  fault: { raw: 'refresh-token-reusable, opaque-tokens', arg: ['refresh-token-reusable', 'opaque-tokens'], options: { faults: ['refresh-token-reusable', 'opaque-tokens'] } },
  'list-faults': { raw: '1', arg: true },
  variant: { raw: 'duplicate-address-refused,accept-replay-idempotent', arg: ['duplicate-address-refused', 'accept-replay-idempotent'], options: { variants: ['duplicate-address-refused', 'accept-replay-idempotent'] } },
  'list-variants': { raw: 'true', arg: true },
  condition: { raw: 'latency, transient-503', arg: ['latency', 'transient-503'], options: { conditions: ['latency', 'transient-503'] } },
  'list-conditions': { raw: '1', arg: true },
  signature: { raw: 'hmac', arg: 'hmac', options: { variants: ['webhook-signature-hmac'] } },
  'signature-components': { raw: 'deployed', arg: 'deployed', options: { variants: ['webhook-signature-more-components'] } },
  'jwks-auth': { raw: 'bearer', arg: 'bearer', options: { variants: ['jwks-requires-bearer'] } },
  'slow-offers': { raw: 'body-value', arg: 'body-value', options: { variants: ['offer-slow-by-body-value'] } },
  'user-id-header': { raw: 'X-Partner-User-Id', arg: 'X-Partner-User-Id', options: { userIdHeader: 'x-partner-user-id', variants: ['user-id-header-renamed'] } },
  'deployed-api': { raw: '1', arg: true, options: { variants: DEPLOYED } },
  'client-id': { raw: 'partner-a', arg: 'partner-a', options: { clientId: 'partner-a' } },
  'own-licence-client-id': { raw: 'partner-own', arg: 'partner-own', options: { ownLicenceClientId: 'partner-own' } },
  seed: { raw: '7', arg: 7, options: { seed: 7 } },
  'token-rate': { raw: '300', arg: 300, options: { tokenRatePerSecond: 300 } },
  'token-burst': { raw: '60', arg: 60, options: { tokenBurst: 60 } },
  'accept-rate': { raw: '40', arg: 40, options: { acceptRatePerSecond: 40 } },
  'accept-burst': { raw: '9', arg: 9, options: { acceptBurst: 9 } },
  'token-body-limit': { raw: '4096', arg: 4096, options: { tokenBodyLimitBytes: 4096 } },
  'access-token-ttl': { raw: '90', arg: 90, options: { accessTokenTtlSeconds: 90 } },
  'offer-validity': { raw: '45', arg: 45, options: { offerValiditySeconds: 45 } },
  'accept-predefined-time': { raw: '250', arg: 250, options: { acceptPredefinedTimeMs: 250 } },
  'offer-processing': { raw: '35', arg: 35, options: { offerProcessingMs: 35 } },
  'webhook-max-attempts': { raw: '2', arg: 2, options: { webhookMaxAttempts: 2 } },
  'webhook-retry-base': { raw: '150', arg: 150, options: { webhookRetryBaseMs: 150 } },
  'webhook-timeout': { raw: '800', arg: 800, options: { webhookTimeoutMs: 800 } },
};

const visibleReferenceOptions = Object.entries(REFERENCE_CLI_OPTIONS).filter(([, o]) => !('hidden' in o && o.hidden)).map(([name]) => name);

test('ptas reference takes every option from its PTAS_REF_<OPTION> variable', () => {
  assert.deepEqual(Object.keys(REFERENCE_SAMPLES).sort(), [...visibleReferenceOptions].sort(), 'one case per option');
  for (const [option, sample] of Object.entries(REFERENCE_SAMPLES)) {
    const env = { [referenceEnvVariable(option)]: sample.raw };
    const args = parseReferenceArgs([], env);
    assert.deepEqual((args as unknown as Record<string, unknown>)[camel(option)], sample.arg, referenceEnvVariable(option));
    const options = referenceOptionsFrom(args, env);
    for (const [key, value] of Object.entries(sample.options ?? {})) assert.deepEqual(options[key as keyof ReferenceOptions], value, `${referenceEnvVariable(option)} → ${key}`);
  }
});

test('ptas reference: a flag given wins over PTAS_REF_<OPTION>, which wins over the default', () => {
  assert.equal(parseReferenceArgs([], {}).tokenRate, 200);
  assert.equal(parseReferenceArgs(['--token-rate', '5'], { PTAS_REF_TOKEN_RATE: '300' }).tokenRate, 5);
  assert.equal(parseReferenceArgs(['--no-deployed-api'], { PTAS_REF_DEPLOYED_API: 'true' }).deployedApi, false);
  assert.equal(parseReferenceArgs([], { PTAS_REF_DEPLOYED_API: '0' }).deployedApi, false);
  assert.deepEqual(parseReferenceArgs(['--fault', 'opaque-tokens'], { PTAS_REF_FAULT: 'refresh-token-reusable' }).fault, ['opaque-tokens']);
  assert.equal(parseReferenceArgs(['--signature', 'ed25519'], { PTAS_REF_SIGNATURE: 'hmac' }).signature, 'ed25519');
});

const refused = (argv: string[], env: NodeJS.ProcessEnv, pattern: RegExp) =>
  assert.throws(() => parseReferenceArgs(argv, env), (e: unknown) => e instanceof ConfigError && pattern.test(e.message), `${argv.join(' ')} ${JSON.stringify(env)}`);

test('ptas reference: the secrets come from PTAS_REF_CLIENT_SECRET and PTAS_REF_WEBHOOK_SHARED_SECRET only, never echoed', () => {
  const clientEnv = { [REFERENCE_SECRET_VARIABLES.clientSecret]: 'env-only-secret' };
  assert.equal(referenceOptionsFrom(parseReferenceArgs([], clientEnv), clientEnv).clientSecret, 'env-only-secret');
  assert.equal(referenceOptionsFrom(parseReferenceArgs([], {}), {}).clientSecret, undefined, 'unset: the demo default of reference/options.ts');
  const key = Buffer.alloc(32, 7).toString('base64');
  const webhookEnv = { [REFERENCE_SECRET_VARIABLES.webhookSharedSecret]: key };
  assert.equal(referenceOptionsFrom(parseReferenceArgs([], webhookEnv), webhookEnv).webhookSharedSecret, key);
  const shortEnv = { [REFERENCE_SECRET_VARIABLES.webhookSharedSecret]: 'c2hvcnQ=' };
  assert.throws(() => referenceOptionsFrom(parseReferenceArgs([], shortEnv), shortEnv), /PTAS_REF_WEBHOOK_SHARED_SECRET must be base64 of at least 16 bytes/);
  for (const [flag, variable] of [['--client-secret', 'PTAS_REF_CLIENT_SECRET'], ['--webhook-shared-secret', 'PTAS_REF_WEBHOOK_SHARED_SECRET']] as const) {
    assert.throws(
      () => parseReferenceArgs([flag, 'on-the-command-line'], {}),
      (e: unknown) => e instanceof ConfigError && e.message.includes(`${flag} is not taken on the command line`) && e.message.includes(variable) && !e.message.includes('on-the-command-line'),
      flag,
    );
  }
});

test('ptas reference: an unknown or mistyped PTAS_REF_ variable is a configuration error naming it; PTAS_REFERENCE_* are not its', () => {
  refused([], { PTAS_REF_TOKN_RATE: '300' }, /^PTAS_REF_TOKN_RATE is not a ptas reference setting/);
  refused([], { PTAS_REF_TOKEN_RATE: 'fast' }, /^PTAS_REF_TOKEN_RATE=fast: expected a number \(example: PTAS_REF_TOKEN_RATE=200\)$/);
  refused([], { PTAS_REF_DEPLOYED_API: 'yes' }, /^PTAS_REF_DEPLOYED_API=yes: expected 1 or true, 0 or false$/);
  refused(['--token-rate', 'fast'], {}, /^--token-rate: expected a number/);
  assert.equal(parseReferenceArgs([], { PTAS_REFERENCE_CLIENT_SECRET: 'x', PTAS_REFERENCE_TOKEN_LOG: '/tmp/x', PTAS_REF_TOKEN_RATE: '' }).tokenRate, 200, 'other prefixes and empty values are ignored');
});

test('ptas reference --help names the PTAS_REF_ prefix and both secret variables, and hides the refused secret flags', async () => {
  const help = await referenceOptionsBuilder(yargs([]).scriptName('ptas reference'), {}).getHelp();
  assert.match(help, /Every option can also be set as PTAS_REF_<OPTION>/);
  for (const variable of Object.values(REFERENCE_SECRET_VARIABLES)) assert.ok(help.includes(variable), variable);
  assert.doesNotMatch(help, /--client-secret|--webhook-shared-secret/);
});

/** Starts `ptas reference --port 0` and resolves with its output once it is listening; it is stopped by its own pid. */
function startReferenceProcess(env: NodeJS.ProcessEnv): Promise<{ url: string; stdout: () => string; stderr: () => string; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'reference', '--port', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const stop = async () => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      await exited;
    };
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && /test it:/.test(out)) resolve({ url, stdout: () => out, stderr: () => err, stop });
    });
    child.once('error', reject);
    void exited.then(() => reject(new Error(`ptas reference exited before listening: ${out}${err}`)));
  });
}

test('PTAS_REF_CLIENT_SECRET=… ptas reference: it starts, the token endpoint takes that secret, and the secret is never printed', async () => {
  const secret = `env-secret-${process.pid}-${Date.now()}`;
  const reference = await startReferenceProcess({ PTAS_REF_CLIENT_SECRET: secret, PTAS_REF_TOKEN_RATE: '300' });
  try {
    const token = (clientSecret: string) =>
      fetch(`${reference.url}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'ptas-reference-client', client_secret: clientSecret }),
      }).then((r) => r.status);
    assert.equal(await token(secret), 200, 'the secret from the environment is the one the reference checks');
    assert.notEqual(await token('reference-demo-secret-change-me'), 200, 'the demo default no longer works');
    assert.match(reference.stdout(), /client_secret from PTAS_REF_CLIENT_SECRET/);
  } finally {
    await reference.stop();
  }
  for (const text of [reference.stdout(), reference.stderr()]) assert.ok(!text.includes(secret), 'the secret was printed');
});

// ---- the documents: every variable they name has a case above ------------------------------------------

/** The PTAS_* names a document mentions; names ending in _ are prefixes (PTAS_*, PTAS_REF_<OPTION>). */
function documentedVariables(file: string): { names: Set<string>; prefixes: Set<string> } {
  const found = readFileSync(fromRoot(file), 'utf8').match(/\bPTAS_[A-Z0-9_]*/g) ?? [];
  return { names: new Set(found.filter((n) => !n.endsWith('_'))), prefixes: new Set(found.filter((n) => n.endsWith('_'))) };
}

const SELFTEST_VARIABLES = ['PTAS_SELFTEST_ONLY', 'PTAS_SELFTEST_WORKERS', 'PTAS_SELFTEST_VERDICTS', 'PTAS_SELFTEST_BASIS'];

/** The benches' knobs the README documents, each with the bench that reads it (for npm run bench, not for a command). */
const BENCH_VARIABLES: Record<string, string> = {
  PTAS_BENCH_SEEDS: 'bench/explore-specificity.bench.ts',
  PTAS_BENCH_CASES: 'bench/explore-specificity.bench.ts',
  PTAS_BENCH_AREAS: 'bench/explore-specificity.bench.ts',
  PTAS_BENCH_AT_ONCE: 'bench/explore-specificity.bench.ts',
  PTAS_BENCH_SHARD: 'bench/explore-specificity.bench.ts',
};

test('every environment variable README.md and load/README.md document has a case in this file', () => {
  const covered = new Set([
    ...Object.keys(PROFILE_SAMPLES),
    ...Object.keys(K6_SCRIPT_SAMPLES),
    'PTAS_K6',
    ...Object.keys(REFERENCE_SAMPLES).map(referenceEnvVariable),
    ...Object.values(REFERENCE_SECRET_VARIABLES),
    // The self-test's own knobs (test/selftest/selftest.test.ts reads them), for npm test, not for a command.
    ...SELFTEST_VARIABLES.filter((name) => readFileSync(fromRoot('test/selftest/selftest.test.ts'), 'utf8').includes(`process.env.${name}`)),
    ...Object.entries(BENCH_VARIABLES).flatMap(([name, bench]) => (readFileSync(fromRoot(bench), 'utf8').includes(`process.env.${name}`) ? [name] : [])),
  ]);
  const readme = documentedVariables('README.md');
  const loadReadme = documentedVariables('load/README.md');
  for (const name of [...readme.names, ...loadReadme.names]) assert.ok(covered.has(name), `${name} is documented but no test here shows it works`);
  for (const prefix of [...readme.prefixes, ...loadReadme.prefixes]) assert.ok(['PTAS_', 'PTAS_REF_'].includes(prefix), `${prefix}…: a documented family of variables this file does not cover`);
  // The other way: what the commands read is documented.
  for (const { name } of ENVIRONMENT_VARIABLES) assert.ok(readme.names.has(name), `${name} (src/config/load.ts) is not in README.md`);
  for (const name of Object.values(REFERENCE_SECRET_VARIABLES)) assert.ok(readme.names.has(name), `${name} is not in README.md`);
  assert.match(readFileSync(fromRoot('README.md'), 'utf8'), /PTAS_REF_<OPTION>/, 'README.md says every reference option has a PTAS_REF_ variable');
});
