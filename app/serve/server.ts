// `ptas serve`'s HTTP server: Fastify over the services (services.ts), with
// the API for CI (api/: every route behind a bearer token, every parameter
// and body checked by JSON schema), the share links, and whatever the console
// registers (registerExtra, before listening). Loopback only, unless TLS
// protects it: a non-loopback --host without --tls-cert/--tls-key is refused.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { ConfigError } from '../../src/config/errors.ts';
import { apiAuthentication } from './api/auth.ts';
import { roleGuard } from './api/roles.ts';
import { auditHook } from './audit.ts';
import { auditRoutes } from './api/audit.ts';
import { installErrorHandlers } from './api/errors.ts';
import { installJsonBodyParser } from './api/json-body.ts';
import { implementationRoutes } from './api/implementations.ts';
import { runRoutes } from './api/runs.ts';
import { profileHelpRoutes } from './api/profile-help.ts';
import { rejudgePreviewRoutes } from './api/rejudge-preview.ts';
import { shareRoutes } from './api/share.ts';
import { stderrLog } from './log.ts';
import { serverTimeouts } from './timeouts.ts';
import type { RunRecord } from './contract.ts';
import { createServices, type ServeServices, type ServicesOptions } from './services.ts';

import { DEFAULT_HOST, DEFAULT_PORT } from './defaults.ts';

export interface ServerOptions extends ServicesOptions {
  host?: string;
  /** 0: any free port (the answer's url says which). */
  port?: number;
  /** PEM files: serve HTTPS. Required for a host other than loopback. */
  tls?: { certFile: string; keyFile: string };
  /** How long a client may take to send a whole request, head and body (ms); default 60 s (timeouts.ts). */
  requestTimeoutMs?: number;
  /** How long a connection may pass without a byte either way (ms); default 60 s, at least 20 s (timeouts.ts). */
  connectionTimeoutMs?: number;
  /** The console's pages, login and the rest, registered before the server listens; `log` is the server's log. */
  registerExtra?: (app: FastifyInstance, services: ServeServices, log: (line: string) => void) => Promise<void>;
}

export interface ServeServer {
  app: FastifyInstance;
  services: ServeServices;
  /** "http://127.0.0.1:7300": where it listens. */
  url: string;
  /** Made because no live token existed (a first start): show it once. */
  firstRunToken?: { name: string; token: string };
  /** Runs the last server left queued or running, now finished INCOMPLETE. */
  recovered: RunRecord[];
  /** Stops the runs (each finishes INCOMPLETE with its partial bundle), then the server. */
  close(): Promise<void>;
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function readPem(file: string, flag: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ConfigError(`${flag} ${file}: cannot read it (${(error as Error).message})`);
  }
}

/** Bodies: the largest is a profile text (1 MB) or a waiver file. */
const BODY_LIMIT = 2 * 1024 * 1024;

export async function createServer(options: ServerOptions): Promise<ServeServer> {
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  if (options.tls && (!options.tls.certFile || !options.tls.keyFile)) throw new ConfigError('--tls-cert and --tls-key go together: give both PEM files');
  if (!isLoopback(host) && !options.tls) {
    throw new ConfigError(
      `--host ${host} would expose the API and its tokens beyond this machine without TLS: give --tls-cert FILE --tls-key FILE, or keep the default --host ${DEFAULT_HOST} (behind a TLS-terminating proxy on this machine)`,
    );
  }
  const timeouts = serverTimeouts(options);
  const https = options.tls ? { cert: readPem(options.tls.certFile, '--tls-cert'), key: readPem(options.tls.keyFile, '--tls-key'), ...timeouts.nodeOptions } : undefined;
  const log = options.log ?? stderrLog;
  const { services, firstRunToken, recovered } = createServices({ ...options, log });

  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    // Server-sent event streams and downloads end with the server.
    forceCloseConnections: true,
    // A slow client cannot hold a connection: the whole request within requestTimeout, no connection silent beyond connectionTimeout.
    requestTimeout: timeouts.requestTimeout,
    connectionTimeout: timeouts.connectionTimeout,
    ...(https ? { https } : { http: timeouts.nodeOptions }),
    // Unknown keys in a body are refused, not silently dropped; every problem is named.
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: false } },
  }) as unknown as FastifyInstance;

  installErrorHandlers(app, log);
  installJsonBodyParser(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  const authenticate = apiAuthentication(app, services);
  await app.register(async (api) => {
    api.addHook('onRequest', authenticate);
    // Before the body is validated: a request its token's role may not make is refused as such, whatever it carries.
    api.addHook('preValidation', roleGuard);
    // A console session's calls are the console's in the log: the same actions its pages offer.
    api.addHook('onResponse', auditHook(services.audit, (request) => (request.ptasSession === undefined ? 'api' : 'console'), (request) => (request.ptasToken === undefined ? undefined : { name: request.ptasToken, role: request.ptasRole })));
    await runRoutes(api, services);
    await implementationRoutes(api, services);
    await auditRoutes(api, services);
    await profileHelpRoutes(api, services);
    await rejudgePreviewRoutes(api, services);
  });
  await app.register(async (shares) => shareRoutes(shares, services));
  if (options.registerExtra) await options.registerExtra(app, services, log);

  try {
    await app.listen({ host, port });
  } catch (error) {
    await services.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new ConfigError(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
    throw error;
  }
  const address = app.server.address() as AddressInfo;
  // The server's own address is never a target, and loopback is one only when the server is on loopback.
  services.policy.targets.listeningOn({ host: address.address, port: address.port });
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${https ? 'https' : 'http'}://${shownHost}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    app,
    services,
    url,
    recovered,
    ...(firstRunToken ? { firstRunToken } : {}),
    close: () =>
      (closing ??= (async () => {
        await services.close();
        await app.close();
      })()),
  };
}
