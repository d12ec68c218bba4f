// A deliberately hostile implementation: under /hostile/<behaviour>/… every
// request gets that behaviour. The suite must turn each into a FAIL or ERROR
// with evidence, within its time limits and memory, without crashing.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

export const HOSTILE_BEHAVIOURS = [
  'non-json',
  'truncated-json',
  'wrong-content-type',
  'gigabyte-body',
  'drip-body',
  'reset-mid-body',
  'redirect-other-host',
  'huge-headers',
  'invalid-utf8',
  'deep-json',
] as const;
export type HostileBehaviour = (typeof HOSTILE_BEHAVIOURS)[number];

const TOKEN_JSON = JSON.stringify({ expires_in: 300, access_token: 'a.b.c', refresh_token: 'd.e.f' });

export interface HostileServer {
  url: string;
  /** Requests that reached the redirect's other origin, with their Authorization header if any. */
  redirectHits: Array<{ authorization?: string }>;
  close(): Promise<void>;
}

function streamGigabyte(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 ** 3) });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < 1024 && !res.destroyed) {
      sent++;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

function behave(behaviour: string, req: IncomingMessage, res: ServerResponse, otherOrigin: string): void {
  switch (behaviour as HostileBehaviour) {
    case 'non-json':
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><body>Service temporarily unavailable</body></html>');
    case 'truncated-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(TOKEN_JSON.slice(0, 30));
    case 'wrong-content-type':
      res.writeHead(200, { 'content-type': 'text/xml' });
      return void res.end(TOKEN_JSON);
    case 'gigabyte-body':
      return streamGigabyte(res);
    case 'drip-body': {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000000' });
      res.write('{');
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'reset-mid-body':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"expires_in": 3');
      return void setTimeout(() => (req.socket as Socket).destroy(), 20);
    case 'redirect-other-host':
      res.writeHead(307, { location: `${otherOrigin}/steal${req.url}` });
      return void res.end();
    case 'huge-headers':
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'p'.repeat(100 * 1024) });
      return void res.end(TOKEN_JSON);
    case 'invalid-utf8':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(Buffer.concat([Buffer.from('{"expires_in": 300, "access_token": "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('", "refresh_token": "x"}')]));
    case 'deep-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('['.repeat(10_000) + ']'.repeat(10_000));
    default:
      res.writeHead(404, { 'content-type': 'application/json' });
      return void res.end('{"error":"unknown behaviour"}');
  }
}

export async function startHostileServer(): Promise<HostileServer> {
  const redirectHits: HostileServer['redirectHits'] = [];
  // The redirect target is another origin: another loopback address.
  const other = createServer((req, res) => {
    redirectHits.push({ authorization: req.headers.authorization });
    res.end('{}');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
  const otherOrigin = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const match = /^\/hostile\/([a-z0-9-]+)(\/.*)?$/.exec(req.url ?? '');
    req.resume();
    behave(match?.[1] ?? '', req, res, otherOrigin);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    redirectHits,
    close: async () => {
      for (const s of [server, other]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    },
  };
}
