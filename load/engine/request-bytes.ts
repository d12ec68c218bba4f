// A filled request as the bytes of an HTTP/1.1 message (RFC 9112), made once
// per distinct request and written as they are on every arrival: the socket
// transport's hot path does no header work at all. What would not be a valid
// message (a line break in a header value, a space in the path) is refused
// here, as undici refuses it, rather than put on the wire.
import type { FilledRequest } from '../scenarios/request.ts';

export const INVALID_REQUEST = 'ERR_INVALID_REQUEST';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REQUEST_TARGET = /^[\x21-\x7e]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Methods whose requests carry content by definition: an empty one is announced with Content-Length: 0, as undici does. */
const CONTENT_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** The message for request sent to path on host ("127.0.0.1:8080"); throws for what HTTP/1.1 cannot carry (the caller answers INVALID_REQUEST). */
export function requestBytes(request: FilledRequest, path: string, host: string): Buffer {
  if (!TOKEN.test(request.method)) throw new Error(`invalid method ${JSON.stringify(request.method)}`);
  if (!REQUEST_TARGET.test(path)) throw new Error(`invalid request target ${JSON.stringify(path)}`);
  let head = `${request.method} ${path} HTTP/1.1\r\n`;
  if (!Object.keys(request.headers).some((name) => name.toLowerCase() === 'host')) head += `host: ${host}\r\n`;
  for (const [name, value] of Object.entries(request.headers)) {
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) throw new Error(`invalid header field ${JSON.stringify(name)}`);
    head += `${name}: ${value}\r\n`;
  }
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  if (body) head += `content-length: ${body.length}\r\n`;
  else if (CONTENT_METHODS.has(request.method)) head += 'content-length: 0\r\n';
  head += '\r\n';
  const headBytes = Buffer.from(head, 'latin1');
  return body ? Buffer.concat([headBytes, body]) : headBytes;
}
