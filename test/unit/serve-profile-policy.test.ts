// The operator's policy over stored profiles (app/serve/profile-policy.ts):
// env: references only where a secret goes and only for allowed names, the
// hosts a run may call, the files a profile may name; and the one rule of
// where a secret goes that the manifest, Save and the resolution share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envReferences, resolveEnvAtSecrets, EnvReferenceOutsideSecret, EnvReferenceWithoutValue } from '../../src/config/env-references.ts';
import { stringPlaces } from '../../src/config/secret-places.ts';
import { profileWithHashedSecrets } from '../../src/certify/profile-secrets.ts';
import { SecretEnvPolicy } from '../../app/serve/secret-env.ts';
import { TargetPolicy, profileUrls } from '../../app/serve/target-policy.ts';
import { ProfileFilesPolicy } from '../../app/serve/profile-files.ts';
import { profilePolicy } from '../../app/serve/profile-policy.ts';
import { checkStorableProfile, runProfile } from '../../app/serve/profile-text.ts';
import { renderStarterProfile } from '../../app/init/starter-profile.ts';
import { refuseSecretsInComments, refuseSecretsInQueries } from '../../app/serve/stray-secrets.ts';
import { parseJsonc } from '../../src/config/jsonc.ts';
import { ServeError } from '../../app/serve/errors.ts';
import type { Profile } from '../../src/config/profile.ts';

const kindOf = (error: unknown) => (error instanceof ServeError ? error.kind : String(error));

test('a secret goes where its key or header says so, or in the value of a {header, value} pair; the manifest hashes exactly those places', async () => {
  const profile = {
    name: 'Acme',
    credentials: { clientId: 'partner', clientSecret: 'env:A' },
    auth: { jwksAccess: { header: 'x-jwks-key', value: 'env:B' } },
    trading: { createOffer: { method: 'POST', path: '/offers', headers: { 'x-api-key': 'env:C', 'x-note': 'hello' } } },
    webhooks: { additionalUsers: ['u1', 'u2'], signature: { scheme: 'hmac', secret: 'env:D', secretEncoding: 'base64' } },
  };
  const secret = stringPlaces(profile).filter((p) => p.secret).map((p) => p.keyPath);
  assert.deepEqual(secret, ['credentials.clientSecret', 'auth.jwksAccess.value', 'trading.createOffer.headers.x-api-key', 'webhooks.signature.secret'], 'secretEncoding says how a secret is written: no secret');
  assert.deepEqual((await profileWithHashedSecrets(profile, [], 'salt')).hashedSecrets, secret);
  assert.deepEqual(
    envReferences(profile).map((r) => [r.name, r.pointer, r.secret]),
    [
      ['A', '/credentials/clientSecret', true],
      ['B', '/auth/jwksAccess/value', true],
      ['C', '/trading/createOffer/headers/x-api-key', true],
      ['D', '/webhooks/signature/secret', true],
    ],
  );
});

test('env: references resolve only where a secret goes; elsewhere they are refused before any value is looked up', () => {
  const looked: string[] = [];
  const valueOf = (name: string) => (looked.push(name), { A: 'secret-a' }[name]);
  const { profile, values } = resolveEnvAtSecrets({ credentials: { clientId: 'x', clientSecret: 'env:A' } }, valueOf);
  assert.equal(profile.credentials.clientSecret, 'secret-a');
  assert.deepEqual(values, ['secret-a']);
  looked.length = 0;
  assert.throws(() => resolveEnvAtSecrets({ name: 'env:A', credentials: { clientSecret: 'env:A' } }, valueOf), EnvReferenceOutsideSecret);
  assert.deepEqual(looked, [], 'nothing looked up for a profile that reads the environment outside a secret');
  assert.throws(() => resolveEnvAtSecrets({ credentials: { clientSecret: 'env:UNSET' } }, valueOf), EnvReferenceWithoutValue);
});

test('--secret-env: names and prefixes; values given with the run need no allowance; an entry that is no name is refused', () => {
  const policy = new SecretEnvPolicy(['PTAS_CLIENT_SECRET', 'ACME_*']);
  const env = { PTAS_CLIENT_SECRET: 'a', ACME_KEY: 'b', AWS_SECRET_ACCESS_KEY: 'c' };
  assert.equal(policy.valueOf('PTAS_CLIENT_SECRET', env), 'a');
  assert.equal(policy.valueOf('ACME_KEY', env), 'b');
  assert.equal(policy.valueOf('AWS_SECRET_ACCESS_KEY', env), undefined);
  assert.equal(policy.valueOf('AWS_SECRET_ACCESS_KEY', env, { AWS_SECRET_ACCESS_KEY: 'given' }), 'given');
  assert.equal(new SecretEnvPolicy().valueOf('PTAS_CLIENT_SECRET', env), undefined, 'nothing allowed by default');
  assert.doesNotMatch(policy.describe(env), /\ba\b|\bb\b/, 'the banner names, it never shows a value');
  assert.throws(() => new SecretEnvPolicy(['A-B']), /--secret-env A-B/);
  assert.throws(() => new SecretEnvPolicy(['*']), /--secret-env \*/);
});

test('a run of a profile whose reference has no allowed value is refused in the same words whether the variable is set or not', () => {
  const text = (name: string) => JSON.stringify({ baseUrl: 'http://127.0.0.1:9', credentials: { clientId: 'x', clientSecret: `env:${name}` } });
  const policy = profilePolicy({ env: { CANARY_SET: 'value-of-the-canary' } });
  const refusal = (name: string) => {
    try {
      runProfile(text(name), policy);
    } catch (error) {
      assert.equal(kindOf(error), 'missing-secret');
      return (error as Error).message.replaceAll(name, 'NAME');
    }
    assert.fail('not refused');
  };
  assert.equal(refusal('CANARY_SET'), refusal('CANARY_UNSET'));
  assert.doesNotMatch(refusal('CANARY_SET'), /value-of-the-canary/);
  const given = runProfile(text('CANARY_SET'), policy, { env: { CANARY_SET: 'one-run' } });
  assert.equal(given.profile.credentials!.clientSecret, 'one-run');
  assert.ok(given.secrets.includes('one-run'), 'a value from the run joins the redaction');
  const allowed = runProfile(text('CANARY_SET'), profilePolicy({ env: { CANARY_SET: 'value-of-the-canary' }, secretEnv: ['CANARY_*'] }));
  assert.equal(allowed.profile.credentials!.clientSecret, 'value-of-the-canary');
  assert.ok(allowed.secrets.includes('value-of-the-canary'), 'a value from the environment joins the redaction');
});

test('Save refuses what no run could use: an env: reference outside a secret, credentials, a query or fragment in the base URL, a {placeholder} in a host', () => {
  const files = { files: new ProfileFilesPolicy() };
  const store = (profile: object) => {
    try {
      checkStorableProfile(JSON.stringify(profile), files);
      return 'stored';
    } catch (error) {
      return `${kindOf(error)} ${(error as ServeError).details && JSON.stringify((error as ServeError).details)}`;
    }
  };
  assert.equal(store({ baseUrl: 'https://a.example', credentials: { clientId: 'x', clientSecret: 'env:S' } }), 'stored');
  assert.match(store({ name: 'env:HOME' }), /^env-reference-refused .*"\/name"/);
  assert.match(store({ trading: { createOffer: { method: 'POST', path: '/o', headers: { 'x-note': 'env:HOME' } } } }), /^env-reference-refused .*x-note/);
  assert.match(store({ baseUrl: 'https://user:pw@a.example' }), /^invalid-profile .*"\/baseUrl"/);
  assert.match(store({ baseUrl: 'https://a.example/?api_key=k' }), /^invalid-profile .*"\/baseUrl"/);
  assert.match(store({ baseUrl: 'https://a.example/#/latest/meta-data' }), /^invalid-profile .*"\/baseUrl"/);
  assert.match(store({ trading: { offerStatus: { method: 'GET', path: 'http://{host}/x' } } }), /^target-refused .*offerStatus/);
  assert.match(store({ auth: { jwksFile: '/etc/passwd' } }), /^file-refused .*jwksFile/);
});

function policyOn(host: string, port: number, allow: string[] = [], names: Record<string, string[]> = {}): TargetPolicy {
  const policy = new TargetPolicy(allow, async (name) => {
    if (names[name]) return names[name]!;
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  });
  policy.listeningOn({ host, port });
  return policy;
}

async function refusal(policy: TargetPolicy, url: string): Promise<string | undefined> {
  try {
    await policy.check({ baseUrl: url } as Profile);
    return undefined;
  } catch (error) {
    return `${kindOf(error)}: ${(error as Error).message}`;
  }
}

test('targets: link-local, metadata, unspecified and the server itself refused by default, also behind a name; loopback only when the server is on loopback', async () => {
  const onLoopback = policyOn('127.0.0.1', 7300, [], { 'metadata.google.internal': ['169.254.169.254'], localhost: ['127.0.0.1'], 'sandbox.acme.example': ['203.0.113.7'] });
  assert.match((await refusal(onLoopback, 'http://169.254.169.254/latest/meta-data/'))!, /^target-refused: baseUrl: .*link-local/);
  assert.match((await refusal(onLoopback, 'http://[::ffff:169.254.169.254]/'))!, /^target-refused/);
  assert.match((await refusal(onLoopback, 'http://2852039166/'))!, /^target-refused/, 'a number is an address too');
  assert.match((await refusal(onLoopback, 'http://metadata.google.internal/'))!, /^target-refused: .*169\.254\.169\.254/);
  assert.match((await refusal(onLoopback, 'http://0.0.0.0:8080/'))!, /unspecified/);
  assert.match((await refusal(onLoopback, 'http://[fd00:ec2::254]/'))!, /metadata/);
  assert.match((await refusal(onLoopback, 'http://127.0.0.1:7300/'))!, /where this server listens/);
  assert.match((await refusal(onLoopback, 'http://localhost:7300/api'))!, /where this server listens/);
  assert.match((await refusal(onLoopback, 'http://[::ffff:127.0.0.1]:7300/'))!, /where this server listens/, 'an IPv4-mapped address is the IPv4 address');
  assert.equal(await refusal(onLoopback, 'http://127.0.0.1:8080/'), undefined, 'loopback: the server is on loopback');
  assert.equal(await refusal(onLoopback, 'https://sandbox.acme.example/'), undefined);
  assert.match((await refusal(onLoopback, 'https://nowhere.example/'))!, /^unreachable: .*ENOTFOUND/);

  const exposed = policyOn('10.0.0.5', 7300);
  assert.match((await refusal(exposed, 'http://127.0.0.1:8080/'))!, /loopback address, and this server does not listen on loopback/);
  assert.match((await refusal(exposed, 'http://10.0.0.5:7300/'))!, /where this server listens/);
  const everywhere = policyOn('0.0.0.0', 7300);
  assert.match((await refusal(everywhere, 'http://127.0.0.1:7300/'))!, /where this server listens/);
});

test('--allow-target: only what it names; a name never opens an address the defaults refuse, an address or CIDR does', async () => {
  const policy = policyOn('127.0.0.1', 7300, ['sandbox.acme.example', '*.partners.example', '10.1.0.0/16', '169.254.10.10'], {
    'sandbox.acme.example': ['203.0.113.7'],
    'x.partners.example': ['169.254.169.254'],
    'other.example': ['203.0.113.8'],
  });
  assert.equal(await refusal(policy, 'https://sandbox.acme.example/'), undefined);
  assert.equal(await refusal(policy, 'http://10.1.2.3:8080/'), undefined);
  assert.equal(await refusal(policy, 'http://169.254.10.10/'), undefined, 'an address entry opens what the defaults refuse');
  assert.match((await refusal(policy, 'https://other.example/'))!, /not among the targets this server allows/);
  assert.match((await refusal(policy, 'https://x.partners.example/'))!, /link-local/);
  assert.match((await refusal(policy, 'http://127.0.0.1:8080/'))!, /not among the targets/);
  assert.throws(() => new TargetPolicy(['10.0.0.0/33']), /prefix length/);
});

test('every URL a run would call is checked: the base URL, the JWK Sets, operations written as absolute URLs', async () => {
  const profile = {
    baseUrl: 'https://sandbox.acme.example',
    auth: { jwksUrl: 'http://169.254.169.254/keys' },
    webhooks: { signature: { scheme: 'rfc9421', jwksUrl: '/relative/jwks.json' }, register: { method: 'PUT', path: 'http://127.0.0.1:7300/api/runs' } },
  } as unknown as Profile;
  assert.deepEqual(
    profileUrls(profile).map((u) => u.keyPath),
    ['baseUrl', 'auth.jwksUrl', 'webhooks.register.path'],
  );
  const policy = policyOn('127.0.0.1', 7300, [], { 'sandbox.acme.example': ['203.0.113.7'] });
  await assert.rejects(policy.check(profile), /auth\.jwksUrl: .*link-local/);
  delete (profile.auth as { jwksUrl?: string }).jwksUrl;
  await assert.rejects(policy.check(profile), /webhooks\.register\.path: .*where this server listens/);
});

test('--profile-files: no file without it; with it, relative paths that stay inside the folder, symbolic links included', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ptas-profile-files-'));
  const dir = path.join(root, 'files');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'jwks.json'), '{"keys": []}');
  writeFileSync(path.join(root, 'outside.json'), '{"keys": []}');
  symlinkSync(path.join(root, 'outside.json'), path.join(dir, 'escape.json'));
  const profile = (file: string) => ({ auth: { jwksFile: file } }) as Profile;
  assert.throws(() => new ProfileFilesPolicy().checkStorable(profile('jwks.json')), (e: unknown) => kindOf(e) === 'file-refused' && /--profile-files/.test((e as Error).message));
  const files = new ProfileFilesPolicy(dir);
  assert.equal(files.resolve(profile('jwks.json')).auth!.jwksFile, path.join(files.dir!, 'jwks.json'));
  for (const bad of ['/etc/passwd', '../outside.json', 'escape.json', 'missing.json']) {
    assert.throws(() => files.resolve(profile(bad)), (e: unknown) => kindOf(e) === 'file-refused', bad);
  }
  assert.throws(() => new ProfileFilesPolicy(path.join(root, 'none')), /--profile-files/);
});

test('Save refuses a secret pasted where no secret goes — in a comment or a URL\'s query — naming the line or key, never the value; the starter stores', () => {
  const files = { files: new ProfileFilesPolicy() };
  const store = (text: string) => {
    try {
      checkStorableProfile(text, files);
      return 'stored';
    } catch (error) {
      const refused = error as ServeError;
      assert.ok(!refused.message.includes('s3cr3t-v4lue') && !JSON.stringify(refused.details).includes('s3cr3t-v4lue'), 'the answer never repeats the secret');
      return `${kindOf(error)} ${refused.message.split(':')[0]} ${JSON.stringify(refused.details)}`;
    }
  };
  const body = '{\n  "baseUrl": "https://a.example",\n  "credentials": {"clientId": "x", "clientSecret": "env:PTAS_CLIENT_SECRET"}\n}';
  const commented = (comment: string) => body.replace('{\n', `{\n  ${comment}\n`);
  assert.equal(store(body), 'stored');
  assert.match(store(commented('// old: "clientSecret": "s3cr3t-v4lue"')), /^literal-secret line 2, column 11 \{"line":2,"column":11\}/);
  assert.match(store(commented('/* password=s3cr3t-v4lue */')), /^literal-secret line 2/);
  assert.match(store(commented('// curl -H "Authorization: Bearer s3cr3t-v4lue.0123456789"')), /^literal-secret line 2/);
  assert.match(store(commented('// eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJl')), /^literal-secret line 2/);
  assert.match(store(commented('// https://me:s3cr3t-v4lue@a.example/')), /^literal-secret line 2/);
  assert.match(store(commented('// -----BEGIN PRIVATE KEY-----')), /^literal-secret line 2/);
  // Words that only name a credential, references and placeholders are no secret.
  for (const harmless of ['// the token endpoint issues a token: obtained by client_credentials', '// "clientSecret": "env:PTAS_CLIENT_SECRET"', '// password: <yours>', '// api_key={apiKey}', '// token=obtained']) {
    assert.equal(store(commented(harmless)), 'stored', harmless);
  }
  const withPath = (path: string) => JSON.stringify({ baseUrl: 'https://a.example', auth: { jwksUrl: path } });
  assert.match(store(withPath('https://keys.example/jwks.json?api_key=s3cr3t-v4lue')), /^literal-secret auth.jwksUrl \{"keyPath":"\/auth\/jwksUrl"\}/);
  assert.equal(store(withPath('https://keys.example/jwks.json?version=2')), 'stored');
  assert.equal(store(withPath('https://keys.example/jwks.json?token={token}')), 'stored');
  const starter = (uncommentAll: boolean) => renderStarterProfile({ name: 'starter', baseUrl: 'https://a.example', clientId: 'your-client-id' }, { schemaRef: 'ptas-profile.schema.json', uncommentAll });
  assert.equal(store(starter(false)), 'stored', 'the starter profile ptas init and the console write');
  // Every example live (files too, which only --profile-files admits): no comment or query of it looks like a secret.
  assert.doesNotThrow(() => refuseSecretsInComments(starter(true)));
  assert.doesNotThrow(() => refuseSecretsInQueries(parseJsonc(starter(true)) as Profile));
});
