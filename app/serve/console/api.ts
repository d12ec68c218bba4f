// The console's JSON endpoints: what its pages call, each a thin pass to the
// services (services-port.ts). Every one wants the session's cookie and its
// secret as the bearer (access.ts). Ids are checked for shape first (ids.ts);
// bodies by JSON schema. A service that refuses (an Error it throws on
// create, update or start) answers 400 with its message.
//   GET  /console/api/implementations              summaries, for the list
//   POST /console/api/implementations              create {name, profileText}
//   GET  /console/api/implementations/:id          the record (profile text as typed)
//   PUT  /console/api/implementations/:id          save {name, profileText}
//   GET  /console/api/implementations/:id/runs     its runs, newest first
//   POST /console/api/implementations/:id/runs     start a run (StartRunInput)
//   GET  /console/api/runs/:id                     a run's record
//   POST /console/api/runs/:id/cancel              cancel it
//   GET  /console/api/runs/:id/compare?baseline=ID the baseline diff
//   POST /console/api/runs/:id/tickets             {kind: report|bundle} → {url}: a one-use URL (tickets.ts)
//   POST /console/api/doctor                       doctor on {profileText, secrets?, clientSecret?}
//   GET  /console/api/starter[?preset=P&baseUrl=U]  {profileText}: ptas init's starter, or its --preset P for a reference at U
//   GET  /console/api/profile-schema               the profile's JSON schema
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AREAS } from '../../../src/check/model.ts';
import type { ImplementationInput, StartRunInput, TicketAnswer, TicketInput } from './api-types.ts';
import { requireSession } from './access.ts';
import { isImplementationId, isRunId } from './ids.ts';
import { TICKET_KINDS } from './tickets.ts';
import { PRESETS, type Preset } from '../../init/preset-names.ts';
import type { ConsoleContext } from './context.ts';
import { PROFILE_TEXT_MAX_CHARS, type RunOptionsInput } from '../contract.ts';

/** The areas a run may be narrowed to: the load probes have their own switch, the cross-cutting checks run with every area. */
export const RUN_AREAS = AREAS.filter((a) => a !== 'load' && a !== 'errors');

const api = { config: { consoleAccess: 'api' as const } };
/** An endpoint a certifier may call (runs, Check); the others: viewer to read, admin to change (access.ts). */
const certifierApi = { config: { consoleAccess: 'api' as const, consoleRole: 'certifier' as const } };
/** A ticket to read a run's report or bundle: a POST that changes nothing. */
const viewerApi = { config: { consoleAccess: 'api' as const, consoleRole: 'viewer' as const } };

/** The API's limit (contract.ts): a profile the API stores, the console stores and Checks too. */
const PROFILE_TEXT = { type: 'string', maxLength: PROFILE_TEXT_MAX_CHARS } as const;

const implementationBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'profileText'],
  properties: { name: { type: 'string', minLength: 1, maxLength: 200 }, profileText: PROFILE_TEXT },
} as const;

/** One-run secrets: the values of a profile's env: references, by name, never stored (a run's, and Check's). */
const ONE_RUN_SECRETS = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,127}$' },
  additionalProperties: { type: 'string', maxLength: 8192 },
} as const;
const CLIENT_SECRET = { type: 'string', maxLength: 4096 } as const;

const startRunBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    areas: { type: 'array', maxItems: RUN_AREAS.length, uniqueItems: true, items: { type: 'string', enum: RUN_AREAS } },
    grep: { type: 'string', maxLength: 500 },
    load: { type: 'boolean' },
    nonce: { type: 'string', maxLength: 200 },
    secrets: ONE_RUN_SECRETS,
    clientSecret: CLIENT_SECRET,
  },
} as const;

const doctorBody = {
  type: 'object',
  additionalProperties: false,
  required: ['profileText'],
  properties: { profileText: PROFILE_TEXT, secrets: ONE_RUN_SECRETS, clientSecret: CLIENT_SECRET },
} as const;

/** Only the secrets given a value: an empty field means "from the server's environment". */
function givenSecrets(input: { secrets?: Record<string, string>; clientSecret?: string }): { env?: Record<string, string>; clientSecret?: string } {
  const env = Object.fromEntries(Object.entries(input.secrets ?? {}).filter(([, v]) => v !== ''));
  return { ...(Object.keys(env).length ? { env } : {}), ...(input.clientSecret ? { clientSecret: input.clientSecret } : {}) };
}

const notFound = (reply: FastifyReply, what: string) => reply.code(404).send({ error: `no such ${what}` });
/** A service's refusal with its own status (422 for a profile the server refuses, 429 with Retry-After for a full queue, as the API answers them); 400 otherwise. */
function refused(reply: FastifyReply, error: unknown): FastifyReply {
  const { statusCode: status, retryAfterSeconds } = (error ?? {}) as { statusCode?: unknown; retryAfterSeconds?: unknown };
  if (typeof retryAfterSeconds === 'number') reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(typeof status === 'number' && status >= 400 && status < 500 ? status : 400).send({ error: error instanceof Error ? error.message : String(error) });
}

/** The run options of the start-run form: areas become a grep; empty fields are left out. */
export function runOptionsOf(input: StartRunInput): RunOptionsInput | string {
  const grep = input.grep?.trim();
  const areas = input.areas ?? [];
  if (grep && areas.length) return 'choose areas or a grep, not both';
  if (grep) {
    try {
      new RegExp(grep);
    } catch {
      return `the grep is not a regular expression: ${grep}`;
    }
  }
  const options: RunOptionsInput = { load: input.load ?? false };
  if (grep) options.grep = grep;
  else if (areas.length) options.grep = areas.map((a) => `@area:${a}`).join('|');
  const nonce = input.nonce?.trim();
  if (nonce) options.nonce = nonce;
  return options;
}

function registerImplementations(app: FastifyInstance, { services }: ConsoleContext): void {
  app.get('/console/api/implementations', api, async () => services.implementations.summaries());

  app.post('/console/api/implementations', { ...api, schema: { body: implementationBody } }, async (request, reply) => {
    try {
      return reply.code(201).send(await services.implementations.create(request.body as ImplementationInput));
    } catch (error) {
      return refused(reply, error);
    }
  });

  app.get('/console/api/implementations/:id', api, async (request, reply) => {
    const { id } = request.params as { id: string };
    const record = isImplementationId(id) ? await services.implementations.get(id) : undefined;
    return record ?? notFound(reply, 'implementation');
  });

  app.put('/console/api/implementations/:id', { ...api, schema: { body: implementationBody } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!isImplementationId(id)) return notFound(reply, 'implementation');
    try {
      return (await services.implementations.update(id, request.body as ImplementationInput)) ?? notFound(reply, 'implementation');
    } catch (error) {
      return refused(reply, error);
    }
  });

  app.get('/console/api/implementations/:id/runs', api, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!isImplementationId(id) || !(await services.implementations.get(id))) return notFound(reply, 'implementation');
    return services.runs.list(id);
  });

  app.post('/console/api/implementations/:id/runs', { ...certifierApi, schema: { body: startRunBody } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!isImplementationId(id) || !(await services.implementations.get(id))) return notFound(reply, 'implementation');
    const input = (request.body ?? {}) as StartRunInput;
    const options = runOptionsOf(input);
    if (typeof options === 'string') return reply.code(400).send({ error: options });
    const { env, clientSecret } = givenSecrets(input);
    try {
      return reply.code(201).send(await services.runs.start(id, options, env, clientSecret, requireSession(request).token.label));
    } catch (error) {
      return refused(reply, error);
    }
  });
}

// A base URL as long as a profile's may be; whether it can be used is the services' to say (400).
const starterQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { preset: { type: 'string', enum: PRESETS }, baseUrl: { type: 'string', maxLength: 2048 } },
} as const;
const ticketBody = { type: 'object', additionalProperties: false, required: ['kind'], properties: { kind: { type: 'string', enum: TICKET_KINDS } } } as const;

function registerRuns(app: FastifyInstance, { services, tickets }: ConsoleContext): void {
  app.get('/console/api/runs/:id', api, async (request, reply) => {
    const { id } = request.params as { id: string };
    return (isRunId(id) ? await services.runs.get(id) : undefined) ?? notFound(reply, 'run');
  });

  app.post('/console/api/runs/:id/cancel', certifierApi, async (request, reply) => {
    const { id } = request.params as { id: string };
    return (isRunId(id) ? await services.runs.cancel(id) : undefined) ?? notFound(reply, 'run');
  });

  // The report's frame and the bundle's download are navigations, which cannot carry the bearer: each gets a ticket.
  app.post('/console/api/runs/:id/tickets', { ...viewerApi, schema: { body: ticketBody } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const run = isRunId(id) ? await services.runs.get(id) : undefined;
    if (!run) return notFound(reply, 'run');
    const { kind } = request.body as TicketInput;
    // No ticket to a file that is not there: the browser would save the 404 page as the bundle. The record says
    // whether the run wrote one; a record from before it said so is asked of the report, written with the bundle.
    if (run.bundle === false || (run.bundle === undefined && (await services.runs.report(id)) === undefined)) return reply.code(404).send({ error: 'this run has no bundle: it ended before writing one, or it has not ended yet' });
    const ticket = tickets.mint(requireSession(request).id, id, kind);
    const answer: TicketAnswer = { url: `/console/runs/${encodeURIComponent(id)}/${kind}?ticket=${ticket}` };
    return reply.code(201).send(answer);
  });

  app.get('/console/api/runs/:id/compare', api, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { baseline } = request.query as { baseline?: unknown };
    if (!isRunId(id) || !isRunId(baseline)) return notFound(reply, 'run');
    const [run, base] = await Promise.all([services.runs.get(id), services.runs.get(baseline)]);
    if (!run || !base) return notFound(reply, 'run');
    if (run.implementation !== base.implementation) return reply.code(400).send({ error: 'both runs must be of the same implementation' });
    return (await services.runs.compare(baseline, id)) ?? reply.code(409).send({ error: 'one of the runs has no results to compare' });
  });
}

function registerProfileHelp(app: FastifyInstance, { services }: ConsoleContext): void {
  // Check takes the one-run secrets a run takes: a profile that refers to them is checked with them, nothing stored.
  app.post('/console/api/doctor', { ...certifierApi, schema: { body: doctorBody } }, async (request, reply) => {
    const body = request.body as { profileText: string; secrets?: Record<string, string>; clientSecret?: string };
    try {
      return await services.doctor(body.profileText, givenSecrets(body));
    } catch (error) {
      // A refusal carries its status; anything else is the console failing (500, logged by the error handler).
      if (typeof (error as { statusCode?: unknown })?.statusCode === 'number') return refused(reply, error);
      throw error;
    }
  });

  app.get('/console/api/starter', { ...api, schema: { querystring: starterQuery } }, async (request, reply) => {
    const { preset, baseUrl } = request.query as { preset?: Preset; baseUrl?: string };
    if (!preset) return { profileText: await services.starterProfileText() };
    try {
      return { profileText: await services.presetProfileText(preset, baseUrl ?? '') };
    } catch (error) {
      if (typeof (error as { statusCode?: unknown })?.statusCode === 'number') return refused(reply, error);
      throw error;
    }
  });

  let schema: Promise<string> | undefined;
  app.get('/console/api/profile-schema', api, async (_request, reply) => {
    schema ??= readFile(services.profileSchemaPath, 'utf8');
    return reply.type('application/json; charset=utf-8').header('cache-control', 'private, max-age=300').send(await schema);
  });
}

export function registerApi(app: FastifyInstance, ctx: ConsoleContext): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/console/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  registerImplementations(app, ctx);
  registerRuns(app, ctx);
  registerProfileHelp(app, ctx);
}
