// Every API route wants `Authorization: Bearer <token>`: a live token of the
// store (tokens.ts: hashed, compared in constant time over every stored
// hash). Without one, or with a wrong or revoked one, 401 JSON. Another face
// may add its own way in through `app.ptasApiAuth.add(…)` in its
// registerExtra (server.ts): the console accepts its session's secret as the
// bearer, with the session's cookie (app/serve/console/routes.ts), and its
// pages call nothing but the API that way. An authenticator is asked when the
// bearer is not a live token (or there is none), so a bearer that is
// something else than a token can still be its.
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ServeError } from '../errors.ts';
import type { ServeServices } from '../services.ts';
import type { Role } from '../roles.ts';
import type { VerifiedToken } from '../tokens.ts';

/**
 * A request let in by a console session: the token it acts for (the one the
 * session signed in with: its name, which bounds its waiting runs as a bearer
 * would, and its role) and the session's id, which a ticket is bound to.
 */
export interface SessionAuthentication extends VerifiedToken {
  session: string;
}

/**
 * Lets a request use the API by some other means than a bearer token;
 * undefined, not let in (or throws a ServeError: refused as such).
 */
export type ApiAuthenticator = (request: FastifyRequest) => SessionAuthentication | undefined | Promise<SessionAuthentication | undefined>;

export interface ApiAuth {
  add(authenticator: ApiAuthenticator): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    ptasApiAuth: ApiAuth;
  }
  interface FastifyRequest {
    /** The name of the token the request acts for: its live bearer token's, or the one a console session signed in with. */
    ptasToken?: string;
    /** That token's role (app/serve/roles.ts). */
    ptasRole?: Role;
    /** The console session the request came through, if it did (not a bearer token). */
    ptasSession?: string;
  }
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** Decorates the app with its authenticators, and returns the hook the API's routes run first. */
export function apiAuthentication(app: FastifyInstance, services: ServeServices): onRequestHookHandler {
  const others: ApiAuthenticator[] = [];
  app.decorate('ptasApiAuth', { add: (authenticator: ApiAuthenticator) => void others.push(authenticator) });
  return async (request) => {
    const token = bearerToken(request);
    const verified = token ? services.tokens.verify(token) : undefined;
    if (verified) {
      request.ptasToken = verified.name;
      request.ptasRole = verified.role;
      return;
    }
    for (const authenticator of others) {
      const other = await authenticator(request);
      if (other === undefined) continue;
      request.ptasToken = other.name;
      request.ptasRole = other.role;
      request.ptasSession = other.session;
      return;
    }
    throw new ServeError(
      'unauthorized',
      token ? 'the bearer token is not a live token of this server (wrong, revoked or expired)' : 'send Authorization: Bearer <token> (make one with ptas serve token create --name NAME)',
    );
  };
}
