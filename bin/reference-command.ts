// `ptas reference`: runs the reference implementation in the foreground.
import type { Argv } from 'yargs';
import { ConfigError } from '../src/config/errors.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { VARIANTS } from '../reference/variants/index.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceModes, type ReferenceModeArgs } from '../reference/modes.ts';
import { profileHints } from '../reference/profile-hints.ts';

export interface ReferenceArgs extends ReferenceModeArgs {
  port: number;
  host: string;
  fault?: string[];
  listFaults?: boolean;
  listVariants?: boolean;
  clientId: string;
  ownLicenceClientId: string;
  seed: number;
  tokenRate: number;
  tokenBurst: number;
  acceptRate: number;
  acceptBurst: number;
  tokenBodyLimit: number;
  accessTokenTtl: number;
  offerValidity: number;
  acceptPredefinedTime: number;
  offerProcessing: number;
  webhookMaxAttempts: number;
  webhookRetryBase: number;
  webhookTimeout: number;
}

export function referenceOptionsBuilder<T>(y: Argv<T>) {
  const d = REFERENCE_DEFAULTS;
  return y
    .env('PTAS_REF')
    .option('port', { type: 'number', default: d.port, describe: 'Port to listen on (0: any free port)' })
    .option('host', { type: 'string', default: d.host, describe: 'Address to bind' })
    .option('fault', { type: 'string', array: true, describe: 'Break one requirement on purpose (repeatable)' })
    .option('list-faults', { type: 'boolean', describe: 'Print every fault with the requirement it breaks, then exit' })
    .option('variant', {
      type: 'string',
      array: true,
      coerce: (values: string[] | undefined) => values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean),
      describe: 'Behave in a way the spec allows but the reference does not show by default (NAME[,NAME])',
    })
    .option('list-variants', { type: 'boolean', describe: 'Print every legitimate variant with the clause that allows it, then exit' })
    // Sugar for variants: one flag per question real deployments answer differently (reference/modes.ts).
    .option('signature', {
      type: 'string',
      describe:
        'How webhook deliveries are signed (RFC 9421): ed25519 (default), ecdsa-p256 (ecdsa-p256-sha256, r‖s, as the deployed API; key in the webhook JWK Set) or hmac (hmac-sha256 with a shared secret, PTAS_REF_WEBHOOK_SHARED_SECRET, base64; default a demo secret printed at start)',
    })
    .option('signature-components', {
      type: 'string',
      describe: 'What the signature covers: default (@method @target-uri content-type content-digest date x-bts-idempotency-key) or deployed (the deployed API\'s list, with host and content-length, and created/expires)',
    })
    .option('jwks-auth', { type: 'string', describe: 'Whether the JWK Sets (token and webhook) need the partner\'s bearer token: none (default) or bearer (401 without it, as the deployed API)' })
    .option('slow-offers', {
      type: 'string',
      describe: 'How a create-offer request makes an offer slow (accept answers 202): processing-ms (default: {"processingMs": N}) or body-value ({"amount": "…", "currency": "EUR"}: an amount of 5000 or more is slow)',
    })
    .option('user-id-header', { type: 'string', describe: 'The header that names the user (spec: svc-user-id), e.g. x-partner-user-id as some editions call it' })
    .option('deployed-api', {
      type: 'boolean',
      describe: 'Behave like the publicly deployed API: --signature ecdsa-p256 --signature-components deployed --jwks-auth bearer --slow-offers body-value (each flag given still wins)',
    })
    // Hidden for the same reason as client-secret; read from PTAS_REF_WEBHOOK_SHARED_SECRET.
    .option('webhook-shared-secret', { type: 'string', hidden: true })
    // Declared so that .env('PTAS_REF') may map PTAS_REF_CLIENT_SECRET without the strict parser
    // rejecting it; hidden, because a secret on the command line would show in ps.
    .option('client-secret', { type: 'string', hidden: true })
    .option('client-id', { type: 'string', default: d.clientId, describe: 'The one client the reference knows (secret: PTAS_REF_CLIENT_SECRET)' })
    .option('own-licence-client-id', { type: 'string', default: d.ownLicenceClientId, describe: 'A second client, same secret, that runs under its own licence: user details v2 answers it 403 (spec 4.2 rule 7)' })
    .option('seed', { type: 'number', default: d.seed, describe: 'Seed of the generated fixtures' })
    .option('token-rate', { type: 'number', default: d.tokenRatePerSecond, describe: 'Token endpoint rate limit, requests per second' })
    .option('token-burst', { type: 'number', default: d.tokenBurst, describe: 'Token endpoint burst allowance' })
    .option('accept-rate', { type: 'number', default: d.acceptRatePerSecond, describe: 'Accept-offer rate limit, requests per second' })
    .option('accept-burst', { type: 'number', default: d.acceptBurst, describe: 'Accept-offer burst allowance' })
    .option('token-body-limit', { type: 'number', default: d.tokenBodyLimitBytes, describe: 'Largest token request body in bytes (one more is 413)' })
    .option('access-token-ttl', { type: 'number', default: d.accessTokenTtlSeconds, describe: 'Access-token lifetime in seconds (expires_in)' })
    .option('offer-validity', { type: 'number', default: d.offerValiditySeconds, describe: 'Default validity period of a trade offer in seconds' })
    .option('accept-predefined-time', { type: 'number', default: d.acceptPredefinedTimeMs, describe: 'Processing time in ms after which accept answers 202 instead of 200' })
    .option('offer-processing', { type: 'number', default: d.offerProcessingMs, describe: 'Default processing time of an accepted offer in ms' })
    .option('webhook-max-attempts', { type: 'number', default: d.webhookMaxAttempts, describe: 'Webhook delivery attempts per event (1: no retry)' })
    .option('webhook-retry-base', { type: 'number', default: d.webhookRetryBaseMs, describe: 'First webhook retry delay in ms, doubling per retry' })
    .option('webhook-timeout', { type: 'number', default: d.webhookTimeoutMs, describe: 'Time a webhook receiver has to answer one delivery, in ms' })
    .example('$0 reference --port 8080', 'Serve the reference on http://127.0.0.1:8080')
    .example('$0 reference --fault refresh-token-reusable', 'Serve a reference that lets refresh tokens be reused')
    .example('$0 reference --variant duplicate-address-refused', 'Serve a reference that refuses a withdrawal address it already has (allowed by the spec)')
    .example('$0 reference --deployed-api', 'Serve a reference configured like the deployed API; the banner says what your profile must declare')
    .example('$0 reference --signature hmac --user-id-header x-partner-user-id', 'HMAC-signed webhooks and a renamed user-id header')
    .epilog(
      'Every option can also be set as PTAS_REF_<OPTION>, e.g. PTAS_REF_TOKEN_RATE=300 or PTAS_REF_SIGNATURE=ecdsa-p256. The client secret comes from PTAS_REF_CLIENT_SECRET, the webhook shared secret from PTAS_REF_WEBHOOK_SHARED_SECRET (defaults: demo secrets printed at start).',
    );
}

export async function runReferenceCommand(args: ReferenceArgs): Promise<void> {
  if (args.listVariants) {
    process.stdout.write(listVariants());
    return;
  }
  if (args.listFaults) {
    const width = Math.max(...FAULTS.map((f) => f.name.length));
    for (const f of FAULTS) process.stdout.write(`${f.name.padEnd(width)}  ${f.requirement}\n${' '.repeat(width + 2)}${f.description}\n`);
    return;
  }
  // A ModeError is a ConfigError: the CLI reports it as one (exit 2).
  const modes = referenceModes(args);
  const options: Partial<ReferenceOptions> = {
    ...modes.options,
    port: args.port,
    host: args.host,
    faults: args.fault ?? [],
    variants: modes.variants,
    clientId: args.clientId,
    ownLicenceClientId: args.ownLicenceClientId,
    seed: args.seed,
    tokenRatePerSecond: args.tokenRate,
    tokenBurst: args.tokenBurst,
    acceptRatePerSecond: args.acceptRate,
    acceptBurst: args.acceptBurst,
    tokenBodyLimitBytes: args.tokenBodyLimit,
    accessTokenTtlSeconds: args.accessTokenTtl,
    offerValiditySeconds: args.offerValidity,
    acceptPredefinedTimeMs: args.acceptPredefinedTime,
    offerProcessingMs: args.offerProcessing,
    webhookMaxAttempts: args.webhookMaxAttempts,
    webhookRetryBaseMs: args.webhookRetryBase,
    webhookTimeoutMs: args.webhookTimeout,
  };
  const secret = process.env.PTAS_REF_CLIENT_SECRET;
  if (secret) options.clientSecret = secret;
  const webhookSecret = process.env.PTAS_REF_WEBHOOK_SHARED_SECRET;
  if (webhookSecret) options.webhookSharedSecret = sharedSecretFrom(webhookSecret);
  let running;
  try {
    running = await startReference(options);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  process.stdout.write(
    `PTAS reference implementation listening on ${running.url}\n` +
      `  client_id ${running.options.clientId}; client_secret ${secret ? 'from PTAS_REF_CLIENT_SECRET' : `"${running.options.clientSecret}" (demo default)`}\n` +
      (running.options.faults.length ? `  faults: ${running.options.faults.join(', ')}\n` : '') +
      (running.options.variants.length ? `  variants: ${running.options.variants.join(', ')}\n` : '') +
      `  what a profile for it says:\n${profileHints(running.options, running.url).map((line) => `    ${line}\n`).join('')}` +
      `  test it: PTAS_CLIENT_SECRET=… ptas run --base-url ${running.url} --client-id ${running.options.clientId} --config profile.json\n`,
  );
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The webhook shared secret as given, once it is base64 of at least 16 bytes (RFC 9421 3.3.3 keys an HMAC with it). */
function sharedSecretFrom(value: string): string {
  const base64 = /^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0;
  if (!base64 || Buffer.from(value, 'base64').length < 16) {
    throw new ConfigError('PTAS_REF_WEBHOOK_SHARED_SECRET must be base64 of at least 16 bytes, e.g. the output of `openssl rand -base64 32`');
  }
  return value;
}

/** Every variant: name and area, what it does, and why the spec allows it. */
export function listVariants(): string {
  const width = Math.max(...VARIANTS.map((v) => v.name.length));
  const lines = VARIANTS.map((v) => {
    const pad = ' '.repeat(width + 2);
    const conflicts = v.conflictsWith?.length ? `\n${pad}not with: ${v.conflictsWith.join(', ')}` : '';
    return `${v.name.padEnd(width)}  [${v.area}] ${v.description}\n${pad}allowed by: ${v.allowedBy}${conflicts}\n`;
  });
  return `${VARIANTS.length} legitimate variants (behaviours the spec allows that the reference does not show by default):\n\n${lines.join('')}`;
}
