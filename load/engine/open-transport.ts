// How the engine's requests reach the target. The fast path writes
// pre-serialised HTTP/1.1 requests on a pool of keep-alive sockets and reads
// the answers with a minimal reader (socket-transport.ts): the per-request
// cost of a general client (header objects, streams, a parser for features
// nobody asked for) is what kept the engine far below wrk (issue 14). What it
// does not do — https and TLS material, requests that set their own framing
// or connection handling — goes to undici (undici-transport.ts), which is
// slower but complete. The contract both fulfil is in transport.ts, apart
// from this choice, so that neither implementation imports the other.
import type { SocketTarget } from '../../src/http/connection.ts';
import type { RequestTemplate } from '../scenarios/types.ts';
import { SocketTransport } from './socket-transport.ts';
import type { Transport, TransportKind, TransportOptions } from './transport.ts';
import { UndiciTransport } from './undici-transport.ts';

/** Header fields that change framing or connection handling: the socket transport writes its own, so requests setting them go to undici. */
const FRAMING_FIELDS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'expect', 'upgrade', 'te', 'trailer']);

/** Which transport a run takes, and why not the fast one. */
export function transportKindFor(target: Pick<SocketTarget, 'baseUrl' | 'tls'>, iteration: RequestTemplate[], prefer: 'auto' | 'undici' = 'auto'): { kind: TransportKind; reason?: string } {
  const url = new URL(target.baseUrl);
  if (prefer === 'undici') return { kind: 'undici', reason: 'asked for' };
  if (url.protocol !== 'http:') return { kind: 'undici', reason: `${url.protocol} target` };
  if (target.tls) return { kind: 'undici', reason: 'TLS material given' };
  if (url.username || url.password) return { kind: 'undici', reason: 'credentials in the URL' };
  const framing = iteration.flatMap((t) => Object.keys(t.headers ?? {})).find((name) => FRAMING_FIELDS.has(name.toLowerCase()));
  if (framing) return { kind: 'undici', reason: `a request sets ${framing}` };
  return { kind: 'socket' };
}

export function openTransport(options: TransportOptions, iteration: RequestTemplate[]): Transport {
  const url = new URL(options.baseUrl);
  const { kind } = transportKindFor(options, iteration, options.prefer);
  const transport = kind === 'socket' ? new SocketTransport(url, options.timeoutMs, options.maxConnections, { headersOf: options.keepHeadersOf, bodyOf: options.keepBodyOf }) : new UndiciTransport(url, options);
  return withRunHeaders(transport, options.runHeaders);
}

/** Every request of the run carries the run's headers (the certifier's nonce), whatever its template says. */
function withRunHeaders(transport: Transport, runHeaders: Record<string, string> = {}): Transport {
  if (Object.keys(runHeaders).length === 0) return transport;
  const prepare = transport.prepare.bind(transport);
  transport.prepare = (request, keepBody) => prepare({ ...request, headers: { ...request.headers, ...runHeaders } }, keepBody);
  return transport;
}
