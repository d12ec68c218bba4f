// `ptas reference`: runs the reference implementation in the foreground.
import yargs, { type Argv, type Options } from 'yargs';
import { ConfigError } from '../src/config/errors.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from '../reference/options.ts';
import { referenceModes, type ReferenceModeArgs } from '../reference/modes.ts';
import { REFERENCE_ENV_PREFIX, REFERENCE_SECRET_VARIABLES, withEnvironmentDefaults } from './reference-env.ts';

export interface ReferenceArgs extends ReferenceModeArgs {
  port: number;
  host: string;
  fault?: string[];
  listFaults?: boolean;
  listVariants?: boolean;
  condition?: string[];
  listConditions?: boolean;
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

const splitNames = (values: string[] | undefined) => values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
const d = REFERENCE_DEFAULTS;
const camel = (option: string) => option.replace(/-(.)/g, (_, c: string) => c.toUpperCase());
const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Every option of `ptas reference`; each is also read from PTAS_REF_<OPTION> (bin/reference-env.ts). */
export const REFERENCE_CLI_OPTIONS = {
  port: { type: 'number', default: d.port, describe: 'Port to listen on (0: any free port)' },
  host: { type: 'string', default: d.host, describe: 'Address to bind' },
  fault: { type: 'string', array: true, coerce: splitNames, describe: 'Break one requirement on purpose (repeatable, or NAME[,NAME])' },
  'list-faults': { type: 'boolean', describe: 'Print every fault with the requirement it breaks, then exit' },
  variant: { type: 'string', array: true, coerce: splitNames, describe: 'Behave in a way the spec allows but the reference does not show by default (NAME[,NAME])' },
  'list-variants': { type: 'boolean', describe: 'Print every legitimate variant with the clause that allows it, then exit' },
  condition: {
    type: 'string',
    array: true,
    coerce: splitNames,
    describe: 'Behave the way real deployments do around a correct implementation: latency, closed connections, a proxy, transient 503/429, slow webhooks, long processing … (NAME[,NAME])',
  },
  'list-conditions': { type: 'boolean', describe: 'Print every condition with what it does and the spec areas it touches, then exit' },
  // Sugar for variants: one flag per question real deployments answer differently (reference/modes.ts).
  signature: {
    type: 'string',
    describe:
      'How webhook deliveries are signed (RFC 9421): ed25519 (default), ecdsa-p256 (ecdsa-p256-sha256, r‖s, as the deployed API; key in the webhook JWK Set) or hmac (hmac-sha256 with a shared secret, PTAS_REF_WEBHOOK_SHARED_SECRET, base64; default a demo secret printed at start)',
  },
  'signature-components': {
    type: 'string',
    describe: 'What the signature covers: default (@method @target-uri content-type content-digest date x-bts-idempotency-key) or deployed (the deployed API\'s list, with host and content-length, and created/expires)',
  },
  'jwks-auth': { type: 'string', describe: 'Whether the JWK Sets (token and webhook) need the partner\'s bearer token: none (default) or bearer (401 without it, as the deployed API)' },
  'slow-offers': {
    type: 'string',
    describe: 'How a create-offer request makes an offer slow (accept answers 202): processing-ms (default: {"processingMs": N}) or body-value ({"amount": "…", "currency": "EUR"}: an amount of 5000 or more is slow)',
  },
  'user-id-header': { type: 'string', describe: 'The header that names the user (spec: svc-user-id), e.g. x-partner-user-id as some editions call it' },
  'deployed-api': {
    type: 'boolean',
    describe: 'Behave like the publicly deployed API: --signature ecdsa-p256 --signature-components deployed --jwks-auth bearer --slow-offers body-value (each flag given still wins)',
  },
  // The secrets' flags exist only to be refused with the variable to use instead (a flag would show in ps).
  'client-secret': { type: 'string', hidden: true },
  'webhook-shared-secret': { type: 'string', hidden: true },
  'client-id': { type: 'string', default: d.clientId, describe: 'The one client the reference knows (secret: PTAS_REF_CLIENT_SECRET)' },
  'own-licence-client-id': { type: 'string', default: d.ownLicenceClientId, describe: 'A second client, same secret, that runs under its own licence: user details v2 answers it 403 (spec 4.2 rule 7)' },
  seed: { type: 'number', default: d.seed, describe: 'Seed of the generated fixtures' },
  'token-rate': { type: 'number', default: d.tokenRatePerSecond, describe: 'Token endpoint rate limit, requests per second' },
  'token-burst': { type: 'number', default: d.tokenBurst, describe: 'Token endpoint burst allowance' },
  'accept-rate': { type: 'number', default: d.acceptRatePerSecond, describe: 'Accept-offer rate limit, requests per second' },
  'accept-burst': { type: 'number', default: d.acceptBurst, describe: 'Accept-offer burst allowance' },
  'token-body-limit': { type: 'number', default: d.tokenBodyLimitBytes, describe: 'Largest token request body in bytes (one more is 413)' },
  'access-token-ttl': { type: 'number', default: d.accessTokenTtlSeconds, describe: 'Access-token lifetime in seconds (expires_in)' },
  'offer-validity': { type: 'number', default: d.offerValiditySeconds, describe: 'Default validity period of a trade offer in seconds' },
  'accept-predefined-time': { type: 'number', default: d.acceptPredefinedTimeMs, describe: 'Processing time in ms after which accept answers 202 instead of 200' },
  'offer-processing': { type: 'number', default: d.offerProcessingMs, describe: 'Default processing time of an accepted offer in ms' },
  'webhook-max-attempts': { type: 'number', default: d.webhookMaxAttempts, describe: 'Webhook delivery attempts per event (1: no retry)' },
  'webhook-retry-base': { type: 'number', default: d.webhookRetryBaseMs, describe: 'First webhook retry delay in ms, doubling per retry' },
  'webhook-timeout': { type: 'number', default: d.webhookTimeoutMs, describe: 'Time a webhook receiver has to answer one delivery, in ms' },
} as const satisfies Record<string, Options>;

/** What the parsed arguments cannot be: a refused secret flag (named, its value never shown) or a number that is not one. */
function argumentProblems(args: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, variable] of Object.entries(REFERENCE_SECRET_VARIABLES)) {
    if (args[key] !== undefined) problems.push(`--${kebab(key)} is not taken on the command line, where ps would show it: set ${variable} instead`);
  }
  for (const [option, declared] of Object.entries(REFERENCE_CLI_OPTIONS)) {
    const value = args[camel(option)];
    if (declared.type === 'number' && typeof value === 'number' && Number.isNaN(value)) problems.push(`--${option}: expected a number (example: --${option} ${declared.default})`);
  }
  return problems;
}

export function referenceOptionsBuilder<T>(y: Argv<T>, env: NodeJS.ProcessEnv = process.env) {
  const fromEnv = withEnvironmentDefaults(REFERENCE_CLI_OPTIONS, env);
  return y
    .options(fromEnv.options)
    .check((args) => {
      const problems = [...fromEnv.problems, ...argumentProblems(args)];
      // A ConfigError: the CLI exits 2 with the sentences (bin/connection.ts fail()).
      if (problems.length) throw new ConfigError(problems.join('\n'));
      return true;
    })
    .example('$0 reference --port 8080', 'Serve the reference on http://127.0.0.1:8080')
    .example('$0 reference --fault refresh-token-reusable', 'Serve a reference that lets refresh tokens be reused')
    .example('$0 reference --variant duplicate-address-refused', 'Serve a reference that refuses a withdrawal address it already has (allowed by the spec)')
    .example('$0 reference --condition latency,transient-503', 'Serve a reference with a WAN\'s latency that answers every 20th request of an operation 503')
    .example('$0 reference --deployed-api', 'Serve a reference configured like the deployed API; the banner says what your profile must declare')
    .example('$0 reference --signature hmac --user-id-header x-partner-user-id', 'HMAC-signed webhooks and a renamed user-id header')
    .epilog(
      `Every option can also be set as ${REFERENCE_ENV_PREFIX}<OPTION>, e.g. PTAS_REF_TOKEN_RATE=300, PTAS_REF_DEPLOYED_API=1, PTAS_REF_FAULT=a,b or PTAS_REF_CONDITION=latency; a flag given wins. ` +
        `The secrets come only from the environment (a flag would show in ps): the client secret from ${REFERENCE_SECRET_VARIABLES.clientSecret}, ` +
        `the webhook shared secret from ${REFERENCE_SECRET_VARIABLES.webhookSharedSecret} (defaults: demo secrets printed at start).`,
    );
}

/** `ptas reference`'s arguments from a command line and an environment, as the CLI parses them (the tests use it in-process). */
export function parseReferenceArgs(argv: string[], env: NodeJS.ProcessEnv): ReferenceArgs {
  const parser = referenceOptionsBuilder(yargs(argv), env)
    .strict()
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new ConfigError(message);
    });
  return parser.parseSync() as unknown as ReferenceArgs;
}

/** The reference's options the arguments and the secrets in the environment ask for; throws ConfigError (exit 2) for a bad value. */
export function referenceOptionsFrom(args: ReferenceArgs, env: NodeJS.ProcessEnv): Partial<ReferenceOptions> {
  // A ModeError is a ConfigError: the CLI reports it as one (exit 2).
  const modes = referenceModes(args);
  const options: Partial<ReferenceOptions> = {
    ...modes.options,
    port: args.port,
    host: args.host,
    faults: args.fault ?? [],
    variants: modes.variants,
    conditions: args.condition ?? [],
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
  const secret = env[REFERENCE_SECRET_VARIABLES.clientSecret];
  if (secret) options.clientSecret = secret;
  const webhookSecret = env[REFERENCE_SECRET_VARIABLES.webhookSharedSecret];
  if (webhookSecret) options.webhookSharedSecret = sharedSecretFrom(webhookSecret);
  return options;
}

export async function runReferenceCommand(args: ReferenceArgs): Promise<void> {
  if (args.listVariants || args.listConditions || args.listFaults) {
    // The lists load the reference's faults, variants and conditions: only when asked for, so every other command starts without them.
    const { listConditions, listFaults, listVariants } = await import('./reference-lists.ts');
    process.stdout.write(args.listVariants ? listVariants() : args.listConditions ? listConditions() : listFaults());
    return;
  }
  const options = referenceOptionsFrom(args, process.env);
  const secretFromEnv = options.clientSecret !== undefined;
  // The reference's server is loaded when one starts: every other command starts without it.
  const [{ startReference }, { profileHints }] = await Promise.all([import('../reference/server.ts'), import('../reference/profile-hints.ts')]);
  let running;
  try {
    running = await startReference(options);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  process.stdout.write(
    `PTAS reference implementation listening on ${running.url}\n` +
      `  client_id ${running.options.clientId}; client_secret ${secretFromEnv ? `from ${REFERENCE_SECRET_VARIABLES.clientSecret}` : `"${running.options.clientSecret}" (demo default)`}\n` +
      (running.options.faults.length ? `  faults: ${running.options.faults.join(', ')}\n` : '') +
      (running.options.variants.length ? `  variants: ${running.options.variants.join(', ')}\n` : '') +
      (running.options.conditions.length ? `  conditions: ${running.options.conditions.join(', ')}\n` : '') +
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
    throw new ConfigError(`${REFERENCE_SECRET_VARIABLES.webhookSharedSecret} must be base64 of at least 16 bytes, e.g. the output of \`openssl rand -base64 32\``);
  }
  return value;
}
