// The role each API route needs (app/serve/roles.ts), checked after the
// bearer (auth.ts) and before the handler: reading (and a ticket to read a
// report) needs viewer; running, cancelling, Checking, sharing and reviewing
// need certifier; editing implementations and reading the audit log need admin. A route this table does not name
// needs viewer to read and admin to change anything: a new route is never
// open by accident.
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { requireRole, type Role } from '../roles.ts';

const NEEDED: Record<string, Role> = {
  'POST /api/runs': 'certifier',
  'POST /api/runs/:id/cancel': 'certifier',
  'POST /api/runs/:id/share': 'certifier',
  'DELETE /api/runs/:id/share': 'certifier',
  'DELETE /api/runs/:id/shares/:shareId': 'certifier',
  'POST /api/runs/:id/reviews': 'certifier',
  'POST /api/runs/:id/tickets': 'viewer',
  'POST /api/doctor': 'certifier',
  'POST /api/implementations': 'admin',
  'PUT /api/implementations/:id': 'admin',
  'DELETE /api/implementations/:id': 'admin',
  'GET /api/audit': 'admin',
};

/** The role a request's route needs. */
export function neededRole(method: string, route: string): Role {
  return NEEDED[`${method} ${route}`] ?? (method === 'GET' || method === 'HEAD' ? 'viewer' : 'admin');
}

function describe(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url}`;
}

/** The hook that holds each API request to its route's role. */
export const roleGuard: preHandlerHookHandler = async (request) => {
  requireRole(request.ptasRole ?? 'viewer', neededRole(request.method, request.routeOptions.url ?? ''), describe(request));
};
