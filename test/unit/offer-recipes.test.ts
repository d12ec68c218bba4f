// Offer recipes (trading.offerRecipes): how a profile says which offers
// answer 200 and which 202, and how the older processing-time keys keep working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/config/errors.ts';
import { offerRecipes } from '../../src/config/sections/offer-recipes.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { validateProfile } from '../../src/config/validate.ts';
import { TemplateError, unknownPlaceholders, callOperation } from '../../src/operations.ts';
import { HttpClient, createTransport } from '../../src/http/client.ts';
import { Redactor } from '../../src/http/redact.ts';

const createOffer = {
  method: 'POST' as const,
  path: '/v1/users/{userId}/offers',
  headers: { 'x-channel': 'api' },
  body: { amount: '1.00', processingMs: '{processingMs}' },
  extract: { offerId: '/id' },
};

test('recipes change createOffer: a body replaces, headers and query merge, values fill its placeholders', () => {
  const trading: TradingProfile = {
    createOffer,
    validitySeconds: 30,
    offerRecipes: {
      fast: { body: { amount: '10.00' }, acceptAnswers: 200 },
      slow: { values: { processingMs: 5000 }, headers: { 'x-mode': 'slow' }, acceptAnswers: 202 },
      short: { path: '/v1/users/{userId}/short-offers', query: { ttl: '2' }, expiresAfterSeconds: 2 },
    },
  };
  const recipes = offerRecipes(trading)!;
  assert.equal(recipes.standard.name, 'fast');
  assert.deepEqual(recipes.standard.template.body, { amount: '10.00' });
  assert.deepEqual(recipes.answering202.map((r) => r.name), ['slow']);
  const slow = recipes.answering202[0]!;
  assert.deepEqual(slow.template.headers, { 'x-channel': 'api', 'x-mode': 'slow' });
  assert.deepEqual(slow.template.body, createOffer.body);
  assert.equal(slow.values.processingMs, 5000);
  assert.equal(slow.values.validitySeconds, 30);
  assert.equal(slow.declaredBy, 'trading.offerRecipes.slow');
  assert.deepEqual(recipes.expiring.map((r) => r.name), ['short']);
  assert.equal(recipes.expiring[0]!.template.path, '/v1/users/{userId}/short-offers');
  assert.deepEqual(recipes.expiring[0]!.template.query, { ttl: '2' });
});

test('every expiring recipe is listed for the expiry checks, and none makes the offers the other checks accept at once', () => {
  const recipes = offerRecipes({
    createOffer,
    offerRecipes: {
      fast: { acceptAnswers: 200, expiresAfterSeconds: 1 },
      small: { acceptAnswers: 200 },
      slow: { acceptAnswers: 202 },
      'expiring-slow': { values: { processingMs: 5000 }, acceptAnswers: 202, expiresAfterSeconds: 1 },
    },
  })!;
  assert.deepEqual(recipes.expiring.map((r) => [r.name, r.expiresAfterSeconds]), [['fast', 1], ['expiring-slow', 1]]);
  // A retry after a transient answer could outlast a validity of a second: its refusal would answer nothing these checks ask.
  assert.equal(recipes.standard.name, 'small');
  assert.deepEqual(recipes.answering200.map((r) => r.name), ['small']);
  assert.deepEqual(recipes.answering202.map((r) => r.name), ['slow']);
  assert.equal(recipes.all.length, 4);
});

test('without a fast recipe the standard offer is the first answering 200, else createOffer as it is (never a slow one)', () => {
  assert.equal(offerRecipes({ createOffer, offerRecipes: { small: { acceptAnswers: 200 }, big: { acceptAnswers: 202 } } })!.standard.name, 'small');
  const onlySlow = offerRecipes({ createOffer, offerRecipes: { big: { acceptAnswers: 202 } } })!;
  assert.equal(onlySlow.standard.name, 'createOffer');
  assert.equal(onlySlow.standard.template, createOffer);
  assert.equal(offerRecipes({}), undefined);
});

test('the older processing-time keys are the recipes fast, slow and expiring, naming their own keys', () => {
  const recipes = offerRecipes({ createOffer, fastProcessingMs: 20, slowProcessingMs: 1200, expiryValiditySeconds: 1 })!;
  assert.deepEqual(
    recipes.all.map((r) => [r.name, r.values.processingMs, r.acceptAnswers, r.expiresAfterSeconds, r.declaredBy]),
    [
      ['fast', 20, 200, undefined, 'trading.fastProcessingMs'],
      ['slow', 1200, 202, undefined, 'trading.slowProcessingMs'],
      ['expiring', 20, undefined, 1, 'trading.expiryValiditySeconds'],
    ],
  );
  assert.equal(recipes.expiring[0]!.values.validitySeconds, 1);
});

test('a profile mixing recipes with the older keys is refused with a sentence that says how to migrate', () => {
  const profile = { trading: { createOffer, slowProcessingMs: 1200, offerRecipes: { fast: { acceptAnswers: 200 } } } };
  assert.throws(
    () => validateProfile(profile, 'profile.json'),
    (error: unknown) => error instanceof ConfigError && /offerRecipes replaces trading\.slowProcessingMs/.test(error.message) && /"acceptAnswers": 200/.test(error.message),
  );
});

test('a recipe is validated by the schema: acceptAnswers is 200 or 202, names are identifiers', () => {
  assert.throws(() => validateProfile({ trading: { createOffer, offerRecipes: { fast: { acceptAnswers: 201 } } } }, 'p'), /acceptAnswers/);
  assert.throws(() => validateProfile({ trading: { createOffer, offerRecipes: { 'two words': {} } } }, 'p'), ConfigError);
});

test('a template naming a placeholder the operation does not fill is a template error, before anything is sent', async () => {
  assert.deepEqual(unknownPlaceholders({ method: 'GET', path: '/o/{offerId}', headers: { 'x-u': '{user}' } }, { offerId: '1' }), ['user']);
  // Unset values are known: they are left out of a JSON body.
  assert.deepEqual(unknownPlaceholders(createOffer, { userId: 'u', processingMs: undefined }), []);
  const http = new HttpClient({ baseUrl: 'http://127.0.0.1:9', transport: createTransport({ timeoutMs: 1000 }), redactor: new Redactor() });
  await assert.rejects(
    callOperation(http, { method: 'GET', path: '/o/{ofer}' }, { offerId: '1' }, { label: 'read the offer' }),
    (error: unknown) => error instanceof TemplateError && /\{ofer\}/.test(error.message) && /\{offerId\}/.test(error.message),
  );
});
