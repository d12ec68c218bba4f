import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../src/config/errors.ts';
import { applyOverrides, overridesFromEnv, readProfileFile, resolveEnvReferences } from '../../src/config/load.ts';
import { validateProfile } from '../../src/config/validate.ts';
import { referenceProfile } from '../../reference/profile.ts';

function writeProfile(content: unknown): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-config-'));
  const file = path.join(dir, 'profile.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ConfigError');
}

test("the reference's own profile validates against config.schema.json", () => {
  validateProfile(referenceProfile('http://127.0.0.1:8080'), 'reference profile');
});

test('a wrong type names the key path, the expected shape and an example', () => {
  const error = configError(() => readProfileFile(writeProfile({ http: { timeoutMs: 'soon' } })));
  assert.match(error.message, /\/http\/timeoutMs/);
  assert.match(error.message, /expected integer/);
  assert.match(error.message, /example: 100/);
});

test('an unknown key is named with the keys allowed there', () => {
  const error = configError(() => readProfileFile(writeProfile({ credentials: { clientId: 'a', clientSecret: 'b', secret: 'c' } })));
  assert.match(error.message, /unknown key "secret" at \/credentials/);
  assert.match(error.message, /allowed here: clientId, clientSecret/);
});

test('invalid JSON and a missing file are clear errors', () => {
  assert.match(configError(() => readProfileFile(writeProfile('{ nope'))).message, /is not valid JSON/);
  assert.match(configError(() => readProfileFile('/nonexistent/profile.json')).message, /cannot read config file/);
});

test('flags override the environment, which overrides the file', () => {
  const file = readProfileFile(writeProfile({ baseUrl: 'http://file.invalid', credentials: { clientId: 'file-id', clientSecret: 'file-secret' } }));
  const env = applyOverrides(file, overridesFromEnv({ PTAS_BASE_URL: 'http://env.invalid', PTAS_CLIENT_ID: 'env-id' }), 'env');
  const flags = applyOverrides(env, { baseUrl: 'http://flag.invalid' }, 'flags');
  assert.equal(flags.baseUrl, 'http://flag.invalid');
  assert.equal(flags.credentials?.clientId, 'env-id');
  assert.equal(flags.credentials?.clientSecret, 'file-secret');
});

test('a bad environment value names the variable', () => {
  assert.match(configError(() => overridesFromEnv({ PTAS_TIMEOUT_MS: 'abc' })).message, /PTAS_TIMEOUT_MS=abc/);
  assert.match(configError(() => applyOverrides({}, overridesFromEnv({ PTAS_BASE_URL: 'ftp://x' }), 'environment')).message, /\/baseUrl/);
});

test('env:NAME references are resolved, and a missing variable names the key and the variable', () => {
  const profile = { credentials: { clientId: 'id', clientSecret: 'env:MY_SECRET' } };
  assert.equal(resolveEnvReferences(profile, { MY_SECRET: 'from-env' }).credentials.clientSecret, 'from-env');
  const error = configError(() => resolveEnvReferences(profile, {}));
  assert.match(error.message, /\/credentials\/clientSecret: refers to environment variable MY_SECRET, which is not set/);
});

test('paths in a profile are relative to the profile file', () => {
  const file = writeProfile({ http: { ca: 'certs/ca.pem' } });
  assert.equal(readProfileFile(file).http?.ca, path.join(path.dirname(file), 'certs/ca.pem'));
});
