// What a profile for a running reference has to say, for `ptas reference`'s
// start banner: how deliveries are signed and where the key is, whether the
// JWK Sets need the bearer token, how to make a slow offer, and the user-id
// header, and the conditions it runs under. Each line pairs the behaviour
// with the profile entry that describes it, so a partner can copy the entry.
import { DEMO_WEBHOOK_SHARED_SECRET, type ReferenceOptions } from './options.ts';
import { WEBHOOK_JWKS_PATH } from './routes/webhooks.ts';
import { TOKEN_JWKS_ROUTE } from './routes/token.ts';
import { SLOW_AMOUNT, slowProcessingMs } from './trading/offer-request.ts';
import { userIdHeaderName } from './trading/svc-user-id.ts';
import { VariantSet } from './variants/index.ts';
import { seedUsers } from './fixtures/users.ts';
import { conditionByName } from './conditions/index.ts';
import { referenceProfile } from './profile.ts';
import { seedDirectory } from './crypto-transfers/directory.ts';
import { cryptoTransfersSection } from './profile-sections/crypto-transfers.ts';

const DEFAULT_COMPONENTS = '@method @target-uri content-type content-digest date x-bts-idempotency-key';
const DEPLOYED_COMPONENTS = '@method @target-uri host date content-digest content-type content-length x-bts-idempotency-key, with created and expires (+5 min)';

function signatureHint(options: ReferenceOptions, variants: VariantSet, baseUrl: string): string[] {
  const components = variants.has('webhook-signature-more-components') ? DEPLOYED_COMPONENTS : DEFAULT_COMPONENTS;
  if (variants.has('webhook-signature-hmac')) {
    const secret = options.webhookSharedSecret === DEMO_WEBHOOK_SHARED_SECRET ? `"${DEMO_WEBHOOK_SHARED_SECRET}" (demo default)` : 'from PTAS_REF_WEBHOOK_SHARED_SECRET';
    return [
      `webhook signature: RFC 9421 hmac-sha256 with the shared secret ${secret}, over ${components}`,
      `    "webhooks": {"signature": {"scheme": "rfc9421", "sharedSecret": "<the secret, base64>"}}`,
    ];
  }
  const algorithm = variants.has('webhook-signature-ecdsa-p256') ? 'ecdsa-p256-sha256 (64-byte r‖s)' : 'ed25519';
  return [
    `webhook signature: RFC 9421 ${algorithm}, key in the JWK Set at ${baseUrl}${WEBHOOK_JWKS_PATH}, over ${components}`,
    `    "webhooks": {"signature": {"scheme": "rfc9421", "jwksUrl": "${WEBHOOK_JWKS_PATH}"}}`,
  ];
}

function jwksHint(variants: VariantSet): string[] {
  if (!variants.has('jwks-requires-bearer')) return [`JWK Sets (${TOKEN_JWKS_ROUTE}, ${WEBHOOK_JWKS_PATH}): fetched without credentials`];
  return [
    `JWK Sets (${TOKEN_JWKS_ROUTE}, ${WEBHOOK_JWKS_PATH}): answer 401 without the partner's bearer access token`,
    `    "auth": {"jwksUrl": "${TOKEN_JWKS_ROUTE}", "jwksAccess": "bearer"}`,
  ];
}

function slowOfferHint(options: ReferenceOptions, variants: VariantSet): string[] {
  const path = 'POST /reference/v1/users/{userId}/offers';
  if (!variants.has('offer-slow-by-body-value')) {
    return [
      `slow offers: ${path} with {"processingMs": ${slowProcessingMs(options)}} (more than the predefined ${options.acceptPredefinedTimeMs} ms: accept answers 202)`,
      `    "trading": {"offerRecipes": {"slow": {"values": {"processingMs": ${slowProcessingMs(options)}}, "acceptAnswers": 202}}}`,
    ];
  }
  return [
    `slow offers: ${path} with {"amount": "<${SLOW_AMOUNT} or more>", "currency": "EUR"} (accept answers 202); a smaller amount is fast (200); "validity_seconds" sets the validity`,
    `    "trading": {"createOffer": {..., "body": {"amount": "10.00", "currency": "EUR"}}, "offerRecipes": {"fast": {"body": {"amount": "10.00", "currency": "EUR"}, "acceptAnswers": 200},`,
    `                "slow": {"body": {"amount": "9999.00", "currency": "EUR"}, "acceptAnswers": 202}, "expiring": {"body": {"amount": "10.00", "currency": "EUR", "validity_seconds": 1}, "expiresAfterSeconds": 1},`,
    `                "expiringSlow": {"body": {"amount": "9999.00", "currency": "EUR", "validity_seconds": 1}, "acceptAnswers": 202, "expiresAfterSeconds": 1}}}`,
  ];
}

/** A user that exists (the first fixture user), and the operation that makes fresh ones. */
function userHint(options: ReferenceOptions): string[] {
  const [first] = seedUsers(options.seed);
  return [
    `users: ${first!.id} exists (seed ${options.seed}); POST /reference/v1/users makes a fresh one for each check`,
    `    "users": {"existingUserId": "${first!.id}"}, "trading": {"createUser": {"method": "POST", "path": "/reference/v1/users", "extract": {"userId": "/data/id"}}}`,
  ];
}

/** The coin networks and VASPs it knows (its directory: the spec shows no operation that lists them), and an address body it accepts. */
function withdrawalHint(options: ReferenceOptions, baseUrl: string): string[] {
  const directory = seedDirectory(options.seed);
  const networks = [...directory.coinNetworks.values()].map((c) => `${c.id} (${c.destinationTagType === 'NONE' ? 'no destination tag' : `tag ${c.destinationTagType}`})`);
  const vasps = [...directory.vasps.values()].map((v) => `${v.id} "${v.shortName}"`);
  return [
    `coin networks: ${networks.join(', ')}; KNOWN_VASP hosts: ${vasps.join(', ')}`,
    `    "cryptoTransfers": {"withdrawalAddress": ${JSON.stringify(cryptoTransfersSection(baseUrl, options).withdrawalAddress)}}`,
  ];
}

/** The profile entries a condition's adjustment changes, per section: what a profile must declare under it. */
function declaredUnder(name: string, options: ReferenceOptions, baseUrl: string): string[] {
  const adjust = conditionByName(name)?.adjustProfile;
  if (!adjust) return [];
  const before = referenceProfile(baseUrl, { ...options, conditions: [] }) as unknown as Record<string, Record<string, unknown>>;
  const after = adjust(referenceProfile(baseUrl, { ...options, conditions: [] }), options) as unknown as Record<string, Record<string, unknown>>;
  return Object.keys(after).flatMap((section) => {
    const changed = Object.entries(after[section] ?? {}).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[section]?.[key]));
    if (!changed.length || typeof after[section] !== 'object') return [];
    return [`    "${section}": {${changed.map(([key, value]) => `"${key}": ${JSON.stringify(value)}`).join(', ')}}`];
  });
}

/** One line per active condition, what it does, and what a profile must declare under it. */
function conditionHints(options: ReferenceOptions, baseUrl: string): string[] {
  return options.conditions.flatMap((name) => [`condition ${name}: ${conditionByName(name)?.description ?? ''}`, ...declaredUnder(name, options, baseUrl)]);
}

/** The banner lines: each behaviour a profile must describe, then the entry that describes it. */
export function profileHints(options: ReferenceOptions, baseUrl: string): string[] {
  const variants = new VariantSet(options.variants);
  const header = userIdHeaderName({ options, variants });
  return [
    ...signatureHint(options, variants, baseUrl),
    ...jwksHint(variants),
    ...slowOfferHint(options, variants),
    ...(header === 'svc-user-id' ? ['user-id header: svc-user-id (the spec\'s)'] : [`user-id header: ${header} instead of svc-user-id`, `    "userIdHeader": "${header}"`]),
    ...userHint(options),
    ...withdrawalHint(options, baseUrl),
    ...conditionHints(options, baseUrl),
  ];
}
