// gateway-html: a gateway (load balancer, reverse proxy) in front of the
// service answers about one request in twenty of each operation itself, with
// its own HTML page instead of the service's JSON — the statuses a gateway
// gives when the service behind it did not answer (RFC 9110 15.6.3-15.6.5),
// and only where section 7's row of the operation does not list them, so the
// answer is a transient one the client may ask again (README "Verdicts"):
//   - to a GET (user details, an offer's status, a JWK Set): 502 or 504, in
//     turn — a GET may be sent again whatever happened behind the gateway;
//   - to the token endpoint and the reference's own set-up operations: 503,
//     which the token endpoint's row does not list and which says the
//     request was not handled (15.6.4), so it too may be sent again;
//   - withdrawal addresses and accept (rows listing 503, methods that must
//     not be sent twice after a 502 or 504) pass through untouched.
// Every other page carries Retry-After: 1, the rest none. Answered before the
// operation does anything; counted per operation from a random phase, never
// twice in a row (as transient-answers.ts).
import type { ServerResponse } from 'node:http';
import { TRANSIENT_PERIOD } from './transient-period.ts';

/** The operations whose section 7 row lists 503: a gateway page there would be the listed status, not a transient one. */
const ROWS_LISTING_503 = new Set(['POST /v1/crypto-transfers/addresses/withdrawals', 'PATCH /v1/offers/:offerId/accept']);

const TITLES: Record<number, string> = { 502: 'Bad Gateway', 503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out' };

export type GatewayStatus = 502 | 503 | 504;

interface RouteCount {
  phase: number;
  seen: number;
  /** Pages this operation got so far: which of 502/504 comes next, and whether it carries Retry-After. */
  pages: number;
}

export class GatewayPages {
  private readonly routes = new Map<string, RouteCount>();

  constructor(private readonly random: () => number = Math.random) {}

  /** The page this request of `route` ("METHOD /pattern") gets, or undefined when it passes through. */
  next(route: string): { status: GatewayStatus; retryAfter: boolean } | undefined {
    const method = route.split(' ')[0]!;
    if (ROWS_LISTING_503.has(route)) return undefined;
    let count = this.routes.get(route);
    if (!count) {
      count = { phase: Math.floor(this.random() * TRANSIENT_PERIOD), seen: 0, pages: 0 };
      this.routes.set(route, count);
    }
    if ((count.phase + count.seen++) % TRANSIENT_PERIOD !== 0) return undefined;
    const turn = count.pages++;
    const status: GatewayStatus = method === 'GET' ? (turn % 2 ? 504 : 502) : 503;
    return { status, retryAfter: turn % 2 === 0 };
  }

  /** Answers the request with the gateway's page when its turn has come; true when it did. */
  answer(route: string, res: ServerResponse): boolean {
    const page = this.next(route);
    if (!page) return false;
    sendGatewayPage(res, page.status, page.retryAfter);
    return true;
  }
}

/** The gateway's page, shaped like nginx's: HTML, not the service's error body. */
function sendGatewayPage(res: ServerResponse, status: GatewayStatus, retryAfter: boolean): void {
  const title = `${status} ${TITLES[status]}`;
  const page = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  res.writeHead(status, {
    'content-type': 'text/html',
    'content-length': Buffer.byteLength(page),
    server: 'nginx',
    ...(retryAfter ? { 'retry-after': '1' } : {}),
  });
  res.end(page);
}
