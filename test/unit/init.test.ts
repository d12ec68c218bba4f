// What `ptas init` is made of: the single-file profile schema editors use
// (never stale, self-contained, as strict as the split schema), the starter
// profile (every example in it valid), and the reading of a SKIP's config key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { packageRoot } from '../../src/paths.ts';
import { parseJsonc } from '../../src/config/jsonc.ts';
import { validateProfile } from '../../src/config/validate.ts';
import { validateAgainst } from '../../src/schemas/registry.ts';
import { BUNDLE_COMMAND, PROFILE_SCHEMA_BUNDLE, bundleText } from '../../app/init/schema-bundle.ts';
import { renderStarterProfile } from '../../app/init/starter-profile.ts';
import { checksUnlockedBy, keysNamedBy } from '../../app/init/unlocks.ts';
import { summary } from '../../app/init/key-docs.ts';
import { referenceProfile } from '../../reference/profile.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** The bundle alone in a fresh strict Ajv, as an editor sees it: nothing else to resolve references against. */
function bundleValidator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // VS Code's JSON service reads these two; they are not JSON Schema keywords.
  ajv.addKeyword('allowComments');
  ajv.addKeyword('allowTrailingCommas');
  return ajv.compile(JSON.parse(readFileSync(PROFILE_SCHEMA_BUNDLE, 'utf8')) as object);
}

test(`the committed profile schema bundle is what \`${BUNDLE_COMMAND}\` makes from schemas/ now`, () => {
  const committed = readFileSync(PROFILE_SCHEMA_BUNDLE, 'utf8');
  assert.ok(committed === bundleText(), `${path.relative(packageRoot, PROFILE_SCHEMA_BUNDLE)} is stale: run \`${BUNDLE_COMMAND}\` and commit the result`);
});

test('the bundle is self-contained: every $ref points inside it', () => {
  const refs = [...readFileSync(PROFILE_SCHEMA_BUNDLE, 'utf8').matchAll(/"\$ref": "([^"]*)"/g)].map((m) => m[1]!);
  assert.ok(refs.length > 10);
  for (const ref of refs) assert.match(ref, /^#\/\$defs\//, `external reference ${ref}`);
  assert.doesNotMatch(readFileSync(PROFILE_SCHEMA_BUNDLE, 'utf8'), /"\$id"/, 'no $id an editor would try to resolve against');
});

test("the bundle accepts the reference's own profile and rejects broken ones, as the split schema does", () => {
  const validate = bundleValidator();
  const good = referenceProfile('http://127.0.0.1:8080');
  assert.ok(validate(good), JSON.stringify(validate.errors));
  const broken: Array<[string, unknown]> = [
    ['a wrong type in a section', { ...good, http: { timeoutMs: 'soon' } }],
    ['an unknown key', { ...good, credentials: { clientId: 'a', clientSecret: 'b', secret: 'c' } }],
    ['an operation without a path (a $ref between files)', { ...good, trading: { ...good.trading, createOffer: { method: 'POST' } } }],
    ['a bad signature scheme (a $ref into another file\'s $defs)', { ...good, webhooks: { ...good.webhooks, signature: { scheme: 'rsa' } } }],
    ['a bad uuid in the withdrawal body (the payload schema)', { ...good, cryptoTransfers: { ...good.cryptoTransfers, withdrawalAddress: { host_id: 'nope' } } }],
    ['a bad rate limit ($defs inside a section)', { ...good, load: { tokenRateLimit: { expectedRps: -1 } } }],
  ];
  for (const [what, profile] of broken) {
    assert.equal(validate(profile), false, `the bundle accepts ${what}`);
    assert.notDeepEqual(validateAgainst('config.schema.json', profile), [], `the split schema accepts ${what}`);
  }
});

test('every example in the starter profile is valid: uncommented all at once, the file still validates', () => {
  const answers = { name: 'Acme', baseUrl: 'https://sandbox.acme.example' };
  const all = renderStarterProfile(answers, { schemaRef: './x.json', uncommentAll: true });
  const profile = parseJsonc(all) as Record<string, Record<string, unknown>>;
  validateProfile(profile, 'the starter profile with every example uncommented');
  assert.ok(profile.trading?.createOffer && profile.webhooks?.trigger && profile.users?.termsCases, 'the examples are there');
  assert.equal(profile.trading?.fastProcessingMs, undefined, 'the older offer-recipe keys are not offered');
  assert.match(JSON.stringify(profile.users?.ownLicence), /"clientSecret":"env:PTAS_USERS_OWN_LICENCE_CLIENT_SECRET"/, 'no example shows a secret');

  const asWritten = parseJsonc(renderStarterProfile(answers, { schemaRef: './x.json' })) as Record<string, unknown>;
  validateProfile(asWritten, 'the starter profile');
  assert.deepEqual(asWritten.trading, {}, 'nothing a user must fill is set to a made-up value');
});

test("a SKIP's config key names one key, or several around words", () => {
  const top = new Set(['auth', 'users', 'trading', 'webhooks']);
  assert.deepEqual(keysNamedBy('trading.createOffer', top), ['trading.createOffer']);
  assert.deepEqual(keysNamedBy('auth.jwksUrl (or auth.jwksFile)', top), ['auth.jwksUrl', 'auth.jwksFile']);
  assert.deepEqual(keysNamedBy('auth.protectedPath or users.existingUserId', top), ['auth.protectedPath', 'users.existingUserId']);
  assert.deepEqual(keysNamedBy('users.assetGroup / users.sourceAssetGroup', top), ['users.assetGroup', 'users.sourceAssetGroup']);
  assert.deepEqual(
    keysNamedBy('trading.offerRecipes (a recipe with acceptAnswers 200; or trading.fastProcessingMs)', top),
    ['trading.offerRecipes', 'trading.fastProcessingMs'],
  );
  assert.deepEqual(keysNamedBy('see spec 4.2 and e.g. the docs', top), []);
});

test('a key unlocks what the keys below it unlock', () => {
  const unlocks = { 'trading.createOffer': ['b', 'a'], 'trading.createOffer.extract.offerId': ['c'], 'trading.createOfferX': ['x'] };
  assert.deepEqual(checksUnlockedBy('trading.createOffer', unlocks), ['a', 'b', 'c']);
});

test('a comment is made of whole sentences', () => {
  assert.equal(summary('Creates a user. Must extract userId, e.g. /data/id. More.', 52), 'Creates a user. Must extract userId, e.g. /data/id.');
  assert.equal(summary('Creates a user. Must extract userId, e.g. /data/id. More.', 40), 'Creates a user.');
  assert.equal(summary('Signing keys, e.g. Ed25519 ones. More text here.', 40), 'Signing keys, e.g. Ed25519 ones.');
  assert.equal(summary('One long sentence without end', 5), 'One long sentence without end');
  assert.equal(summary('First (spec 3.1, 8). Second.', 10), 'First (spec 3.1, 8).');
});
