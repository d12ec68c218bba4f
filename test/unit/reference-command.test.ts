// `ptas reference`'s deployment flags: the pure mapping from flags to
// variants and options (reference/modes.ts), the banner lines that say what a
// profile for the running configuration declares (reference/profile-hints.ts),
// and the real command line: unknown values exit 2, PTAS_REF_* sets a flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fromRoot } from '../../src/paths.ts';
import { runPtas } from '../support/cli.ts';
import { ModeError, referenceModes } from '../../reference/modes.ts';
import { profileHints } from '../../reference/profile-hints.ts';
import { DEMO_WEBHOOK_SHARED_SECRET, REFERENCE_DEFAULTS, type ReferenceOptions } from '../../reference/options.ts';
import { VariantSet } from '../../reference/variants/index.ts';
import { seedDirectory } from '../../reference/crypto-transfers/directory.ts';
import { referenceProfile } from '../../reference/profile.ts';

const DEPLOYED = ['webhook-signature-ecdsa-p256', 'webhook-signature-more-components', 'jwks-requires-bearer', 'offer-slow-by-body-value'];

test('each flag value adds its variant; the default values add none', () => {
  assert.deepEqual(referenceModes({}), { variants: [], options: {} });
  assert.deepEqual(referenceModes({ signature: 'ed25519', signatureComponents: 'default', jwksAuth: 'none', slowOffers: 'processing-ms', userIdHeader: 'svc-user-id' }).variants, []);
  assert.deepEqual(referenceModes({ signature: 'ecdsa-p256' }).variants, ['webhook-signature-ecdsa-p256']);
  assert.deepEqual(referenceModes({ signature: 'hmac' }).variants, ['webhook-signature-hmac']);
  assert.deepEqual(referenceModes({ signatureComponents: 'deployed' }).variants, ['webhook-signature-more-components']);
  assert.deepEqual(referenceModes({ jwksAuth: 'bearer' }).variants, ['jwks-requires-bearer']);
  assert.deepEqual(referenceModes({ slowOffers: 'body-value' }).variants, ['offer-slow-by-body-value']);
  assert.deepEqual(referenceModes({ userIdHeader: 'X-Partner-User-Id' }), { variants: ['user-id-header-renamed'], options: { userIdHeader: 'x-partner-user-id' } });
});

test('--deployed-api is the four deployed answers; a flag given beside it wins, --variant adds, nothing twice', () => {
  assert.deepEqual(referenceModes({ deployedApi: true }).variants, DEPLOYED);
  assert.deepEqual(
    referenceModes({ deployedApi: true, signature: 'hmac', jwksAuth: 'none' }).variants,
    ['webhook-signature-hmac', 'webhook-signature-more-components', 'offer-slow-by-body-value'],
  );
  const withVariants = referenceModes({ deployedApi: true, variant: ['webhook-signature-ecdsa-p256', 'accept-refusals-as-deployed'] }).variants;
  assert.deepEqual(withVariants, ['webhook-signature-ecdsa-p256', 'accept-refusals-as-deployed', ...DEPLOYED.slice(1)]);
  assert.doesNotThrow(() => new VariantSet([...withVariants, 'user-id-header-renamed']), 'the deployed configuration is one the reference can run');
});

test('unknown values and contradictions are refused with the flag, the value and the choices', () => {
  const refused = (args: Parameters<typeof referenceModes>[0], pattern: RegExp) =>
    assert.throws(() => referenceModes(args), (error: unknown) => error instanceof ModeError && pattern.test(error.message));
  refused({ signature: 'rsa' }, /^--signature must be one of ed25519, ecdsa-p256, hmac \(got "rsa"\)$/);
  refused({ signatureComponents: 'all' }, /--signature-components must be one of default, deployed/);
  refused({ jwksAuth: 'basic' }, /--jwks-auth must be one of none, bearer/);
  refused({ slowOffers: 'flag' }, /--slow-offers must be one of processing-ms, body-value/);
  refused({ userIdHeader: 'user id' }, /--user-id-header must be an HTTP header name/);
  refused({ signature: 'ed25519', variant: ['webhook-signature-hmac'] }, /--signature ed25519 contradicts --variant webhook-signature-hmac/);
  refused({ deployedApi: true, variant: ['webhook-signature-hmac'] }, /--signature ecdsa-p256 contradicts --variant webhook-signature-hmac/);
});

const optionsWith = (variants: string[], more: Partial<ReferenceOptions> = {}): ReferenceOptions => ({ ...REFERENCE_DEFAULTS, variants, ...more });

test('the banner says what a profile must declare for the configuration', () => {
  const deployed = profileHints(optionsWith([...DEPLOYED, 'user-id-header-renamed']), 'http://127.0.0.1:8080').join('\n');
  assert.match(deployed, /ecdsa-p256-sha256 \(64-byte r‖s\), key in the JWK Set at http:\/\/127\.0\.0\.1:8080\/reference\/v1\/webhooks\/jwks\.json/);
  assert.match(deployed, /host date content-digest content-type content-length x-bts-idempotency-key, with created and expires/);
  assert.match(deployed, /answer 401 without the partner's bearer access token\n\s+"auth": \{"jwksUrl": "\/\.well-known\/jwks\.json", "jwksAccess": "bearer"\}/);
  assert.match(deployed, /\{"amount": "<5000 or more>", "currency": "EUR"\} \(accept answers 202\)/);
  assert.match(deployed, /"slow": \{"body": \{"amount": "9999\.00", "currency": "EUR"\}, "acceptAnswers": 202\}/);
  assert.match(deployed, /"userIdHeader": "x-partner-user-id"/);

  const plain = profileHints(optionsWith([]), 'http://h').join('\n');
  assert.match(plain, /RFC 9421 ed25519/);
  assert.match(plain, /fetched without credentials/);
  assert.match(plain, /"processingMs": 1200\}, "acceptAnswers": 202/);
  assert.match(plain, /user-id header: svc-user-id \(the spec's\)/);

  assert.match(profileHints(optionsWith(['webhook-signature-hmac']), 'http://h').join('\n'), new RegExp(`hmac-sha256 with the shared secret "${DEMO_WEBHOOK_SHARED_SECRET.replace(/[+/]/g, '\\$&')}" \\(demo default\\)`));
  const ownSecret = profileHints(optionsWith(['webhook-signature-hmac'], { webhookSharedSecret: Buffer.alloc(32, 3).toString('base64') }), 'http://h').join('\n');
  assert.match(ownSecret, /from PTAS_REF_WEBHOOK_SHARED_SECRET/);
  assert.doesNotMatch(ownSecret, /AwMD/, 'a secret of the operator\'s own is not printed');
  assert.match(profileHints(optionsWith([], { userIdHeader: 'x-edition-user' }), 'http://h').join('\n'), /"userIdHeader": "x-edition-user"/);
});

test('ptas reference refuses an unknown value with exit 2 and the choices', async () => {
  const run = await runPtas(['reference', '--port', '0', '--signature', 'rsa']);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /--signature must be one of ed25519, ecdsa-p256, hmac \(got "rsa"\)/);
  const badSecret = await runPtas(['reference', '--port', '0', '--signature', 'hmac'], { env: { PTAS_REF_WEBHOOK_SHARED_SECRET: 'short' } });
  assert.equal(badSecret.code, 2);
  assert.match(badSecret.stderr, /PTAS_REF_WEBHOOK_SHARED_SECRET must be base64 of at least 16 bytes/);
  const help = await runPtas(['reference', '--help']);
  for (const flag of ['--signature', '--signature-components', '--jwks-auth', '--slow-offers', '--user-id-header', '--deployed-api']) assert.match(help.stdout, new RegExp(`${flag}\\s`), flag);
});

/** Starts `ptas reference` and resolves with its banner once it is listening; the process is stopped by its own pid. */
function referenceBanner(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'reference', '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (/test it:/.test(out)) child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

test('PTAS_REF_<OPTION> sets the deployment flags as the flags do', async () => {
  const banner = await referenceBanner([], { PTAS_REF_DEPLOYED_API: 'true', PTAS_REF_USER_ID_HEADER: 'x-partner-user-id', PTAS_REF_SIGNATURE: 'hmac' });
  assert.match(banner, /variants: webhook-signature-hmac, webhook-signature-more-components, jwks-requires-bearer, offer-slow-by-body-value, user-id-header-renamed/);
  assert.match(banner, /hmac-sha256 with the shared secret .* \(demo default\)/);
  assert.match(banner, /"userIdHeader": "x-partner-user-id"/);
});

test('the banner lists the coin networks and VASPs the reference knows, and the withdrawal-address entry it accepts', () => {
  const options = optionsWith([]);
  const hints = profileHints(options, 'http://h').join('\n');
  const directory = seedDirectory(options.seed);
  for (const network of directory.coinNetworks.values()) assert.ok(hints.includes(network.id), `coin network ${network.id}`);
  for (const vasp of directory.vasps.values()) assert.ok(hints.includes(`${vasp.id} "${vasp.shortName}"`), `VASP ${vasp.shortName}`);
  const entry = /"cryptoTransfers": \{"withdrawalAddress": (\{.*\})\}/.exec(hints);
  assert.ok(entry, hints);
  assert.deepEqual(JSON.parse(entry[1]!), referenceProfile('http://h', options).cryptoTransfers?.withdrawalAddress, 'the entry the reference\'s own profile uses');
});
