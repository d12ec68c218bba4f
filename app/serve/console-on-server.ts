// The console as `ptas serve` registers it on its server (its registerExtra):
// on the services through the console's port, its sessions kept in the
// store, its changes and sign-ins in the store's audit log.
import type { FastifyInstance } from 'fastify';
import { consolePort } from './console-port.ts';
import { registerConsole } from './console/routes.ts';
import type { ServeServices } from './services.ts';
import { StoreLayout } from './store/layout.ts';

export function registerConsoleOnServer(app: FastifyInstance, services: ServeServices, log: (line: string) => void): Promise<void> {
  return registerConsole(app, consolePort(services), { log, audit: services.audit, sessions: { file: new StoreLayout(services.dataDir).consoleSessionsFile } });
}
