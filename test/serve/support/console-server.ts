// The console on a real Fastify server on 127.0.0.1 with the fake services:
// what the console's tests and benchmark run against until `ptas serve`'s
// own server (app/serve/server.ts) registers it. Run it by hand to try the
// console: node --import tsx test/serve/support/console-server.ts [port]
import Fastify, { type FastifyInstance } from 'fastify';
import { registerConsole, type ConsoleOptions } from '../../../app/serve/console/routes.ts';
import { FAKE_TOKEN, FakeServices, type FakeOptions } from './fake-services.ts';

export interface RunningConsole {
  url: string;
  app: FastifyInstance;
  fake: FakeServices;
  close(): Promise<void>;
}

export interface StartOptions {
  fake?: FakeOptions;
  console?: ConsoleOptions;
  port?: number;
  /** Serve over TLS with this certificate (the session cookie is then Secure). */
  https?: { cert: Buffer; key: Buffer };
  /** More routes on the same server (a benchmark's baseline page). */
  extra?: (app: FastifyInstance) => void;
}

export async function startConsole(options: StartOptions = {}): Promise<RunningConsole> {
  const fake = new FakeServices(options.fake);
  const app = options.https ? Fastify({ logger: false, https: options.https }) : Fastify({ logger: false });
  await registerConsole(app, fake, options.console);
  options.extra?.(app);
  const url = await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  return {
    url,
    app,
    fake,
    close: async () => {
      fake.close();
      await app.close();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const running = await startConsole({ port: Number(process.argv[2] ?? 0) });
  await running.fake.seed(3, 5);
  console.log(`console on ${running.url} — sign in with ${FAKE_TOKEN}`);
}
