// connection-close: every answer carries Connection: close and the server
// closes the connection after it, as servers behind some proxies and
// HTTP/1.0-era load balancers do. Clients must open a connection per request.
import type { ServerResponse } from 'node:http';

/**
 * Set before the route writes: writeHead merges its own headers with these,
 * and Node ends the connection after an answer that says Connection: close.
 */
export function closeAfterAnswer(res: ServerResponse): void {
  res.setHeader('connection', 'close');
}
