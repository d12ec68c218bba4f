// The doctor's record of what it sent: every exchange of its HTTP client,
// already redacted by the client's Redactor, so a row can show the request
// as it went out (placeholders filled) without ever showing a secret.
import type { ExchangeRecorder, RecordedExchange } from '../../src/http/exchange.ts';
import type { HttpResponse } from '../../src/http/client.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export class ExchangeLog implements ExchangeRecorder {
  readonly exchanges: RecordedExchange[] = [];

  constructor(private readonly baseUrl: string) {}

  record(exchange: RecordedExchange): void {
    this.exchanges.push(exchange);
  }

  get count(): number {
    return this.exchanges.length;
  }

  /** "POST /v1/users/1f2e3d4c…/offers" for the exchange of a response (or a transport error's exchange id). */
  requestLine(of: HttpResponse | number): string | undefined {
    const id = typeof of === 'number' ? of : of.exchangeId;
    const exchange = this.exchanges.find((e) => e.id === id);
    return exchange ? `${exchange.request.method} ${shortenIds(this.relative(exchange.request.url))}` : undefined;
  }

  /** The path and query of a URL on the target; a URL elsewhere stays whole. */
  private relative(url: string): string {
    const base = new URL(this.baseUrl);
    const target = new URL(url);
    if (target.origin !== base.origin) return url;
    const prefix = base.pathname.replace(/\/+$/, '');
    const path = prefix && target.pathname.startsWith(prefix) ? target.pathname.slice(prefix.length) || '/' : target.pathname;
    return readable(path) + target.search;
  }
}

/** Percent-encoded characters as a reader typed them ({ and } of an unfilled placeholder, spaces). */
function readable(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** UUIDs cut to their first 8 characters, so a row stays one line and still tells two ids apart. */
export function shortenIds(text: string): string {
  return text.replace(UUID, (id) => `${id.slice(0, 8)}…`);
}
