// How long the server lets a client take. Node's HTTP server, as Fastify
// creates it, waits forever by default (Fastify sets requestTimeout and
// connectionTimeout to 0), so a client sending a body a byte every few
// seconds held a connection for as long as it liked. Two bounds:
// - the request time-out: the whole request, head and body, must arrive
//   within it (408, and the connection is closed). It ends when the request
//   has arrived, so it never cuts a response that lasts: a run's event
//   stream, a bundle download, a cancel that waits for the run to stop.
// - the connection time-out: a connection with no byte either way for this
//   long is closed (a client that stopped reading a download, a dead peer).
//   It must outlast the quiet stretches of legitimate responses: the event
//   streams' heartbeat (a comment line every 15 s) and a cancel's wait for a
//   running run to stop (up to 15 s before it answers).
// Node looks for expired requests every connectionsCheckingInterval (30 s by
// default); it is set to a quarter of the request time-out, so a request is
// cut off between one and one and a quarter times the time-out.
import { KEEP_ALIVE_MS } from './api/runs.ts';
import { CANCEL_WAIT_MS } from './runs.ts';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_CONNECTION_TIMEOUT_MS = 60_000;
/** The longest a legitimate response stays quiet, and a margin: the least connection time-out accepted. */
export const MIN_CONNECTION_TIMEOUT_MS = Math.max(KEEP_ALIVE_MS, CANCEL_WAIT_MS) + 5_000;

export interface ServerTimeouts {
  /** For Fastify: requestTimeout and connectionTimeout (ms). */
  requestTimeout: number;
  connectionTimeout: number;
  /** For Node's http.createServer / https.createServer. */
  nodeOptions: { connectionsCheckingInterval: number; headersTimeout: number; requestTimeout: number };
}

export function serverTimeouts(options: { requestTimeoutMs?: number; connectionTimeoutMs?: number }): ServerTimeouts {
  const request = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const connection = options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS;
  if (!Number.isInteger(request) || request < 1) throw new Error(`requestTimeoutMs must be a whole number of milliseconds, at least 1; got ${request}`);
  if (!Number.isInteger(connection) || connection < MIN_CONNECTION_TIMEOUT_MS) {
    throw new Error(`connectionTimeoutMs must be a whole number of milliseconds, at least ${MIN_CONNECTION_TIMEOUT_MS} (event streams are quiet for ${KEEP_ALIVE_MS} ms between heartbeats, a cancel waits up to ${CANCEL_WAIT_MS} ms); got ${connection}`);
  }
  return {
    requestTimeout: request,
    connectionTimeout: connection,
    nodeOptions: {
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(request / 4))),
      // Node wants the head's limit within the whole request's.
      headersTimeout: Math.min(request, 60_000),
      requestTimeout: request,
    },
  };
}
