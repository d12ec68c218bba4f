// Small real HTTP servers on 127.0.0.1 for the suite's own tests.
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startServer(handler: RequestListener): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A target that answers the preflight (GET /) and holds every other request open until it is closed: a run against it stays running. */
export function startStalledTarget(): Promise<TestServer> {
  return startServer((request, response) => {
    if (request.method === 'GET' && request.url === '/') response.end('stalled target');
  });
}

/**
 * A proxy to `target` that passes every request on, except those whose path
 * `holds` names: it keeps them open, unanswered, until it is closed. A run
 * through it finishes every check but those, and stays running however fast
 * the machine is.
 */
export function startHoldingProxy(target: string, holds: (path: string) => boolean): Promise<TestServer> {
  return startServer((request, response) => {
    if (holds(new URL(request.url ?? '/', target).pathname)) return;
    const upstream = httpRequest(new URL(request.url ?? '/', target), { method: request.method, headers: { ...request.headers, host: new URL(target).host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
}
