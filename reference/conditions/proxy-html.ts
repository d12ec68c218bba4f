// proxy-html: an intermediary (reverse proxy, WAF) in front of the service
// refuses requests the service never sees, with its own HTML error page
// instead of the service's JSON: a request-target (path and query) over
// 8 KiB is 414, a NUL byte (%00) in path or query is 400. Everything else
// passes through unchanged.
import type { ServerResponse } from 'node:http';

/** The longest request-target the proxy passes on (nginx's default large_client_header_buffers: 8k). */
export const PROXY_MAX_TARGET_BYTES = 8 * 1024;
/**
 * The reference's header limit under the condition: far above the proxy's,
 * so a long request-target (a 20 kB query) reaches the proxy's 414 instead of
 * Node's own 431 without a body.
 */
export const PROXY_MAX_HEADER_BYTES = 64 * 1024;

export interface ProxyRefusal {
  status: 400 | 414;
  title: string;
}

const NUL = /%00|\0/i;

/** What the proxy answers for this request-target, or undefined when it passes it on. */
export function proxyRefusal(requestTarget: string): ProxyRefusal | undefined {
  if (Buffer.byteLength(requestTarget) > PROXY_MAX_TARGET_BYTES) return { status: 414, title: 'Request-URI Too Large' };
  if (NUL.test(requestTarget)) return { status: 400, title: 'Bad Request' };
  return undefined;
}

/** The proxy's page, shaped like nginx's: HTML, not the service's error body. */
export function sendProxyPage(res: ServerResponse, { status, title }: ProxyRefusal): void {
  const page = `<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(page), server: 'nginx' });
  res.end(page);
}
