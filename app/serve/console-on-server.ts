// The console as `ptas serve` registers it on its server (its registerExtra):
// on the server's services, its sessions kept in the store, its sign-ins and
// sign-outs in the store's audit log (the changes its pages make go through
// the API, which records them as the console's).
import type { FastifyInstance } from 'fastify';
import { registerConsole, type ConsoleOptions } from './console/routes.ts';
import type { ServeServices } from './services.ts';
import { StoreLayout } from './store/layout.ts';

export function registerConsoleOnServer(app: FastifyInstance, services: ServeServices, log: (line: string) => void, options: ConsoleOptions = {}): Promise<void> {
  return registerConsole(app, services, { log, audit: services.audit, sessions: { file: new StoreLayout(services.dataDir).consoleSessionsFile }, ...options });
}
