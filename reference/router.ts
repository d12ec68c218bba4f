// A minimal router: method + path pattern with :params. The reference has a
// handful of routes; a dependency would add more than it saves.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RouteRequest {
  raw: IncomingMessage;
  method: string;
  url: URL;
  params: Record<string, string>;
}

export type Handler = (req: RouteRequest, res: ServerResponse) => Promise<void> | void;

interface Route {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
}

/** `route`: the operation found, as method and pattern ("GET /v2/users/:userId"), the same for every request of it. */
export type RouteMatch =
  | { kind: 'found'; handler: Handler; params: Record<string, string>; route: string }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, pattern, segments: pattern.split('/').filter(Boolean), handler });
    return this;
  }

  match(method: string, pathname: string): RouteMatch {
    const parts = pathname.split('/').filter(Boolean);
    const allowed: string[] = [];
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((segment, i) => {
        if (segment.startsWith(':')) {
          try {
            params[segment.slice(1)] = decodeURIComponent(parts[i]!);
          } catch {
            return false;
          }
          return true;
        }
        return segment === parts[i];
      });
      if (!ok) continue;
      if (route.method === method) return { kind: 'found', handler: route.handler, params, route: `${route.method} ${route.pattern}` };
      allowed.push(route.method);
    }
    return allowed.length ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}
