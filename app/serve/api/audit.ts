// GET /api/audit[?limit=N]: the lab's audit log (app/serve/audit.ts), the
// latest entries newest last; admin tokens only (roles.ts).
import type { FastifyInstance } from 'fastify';
import type { ServeServices } from '../services.ts';
import { auditQuery } from './schemas.ts';

export async function auditRoutes(app: FastifyInstance, services: ServeServices): Promise<void> {
  app.get<{ Querystring: { limit?: string } }>('/api/audit', { schema: { querystring: auditQuery } }, async (request) => ({
    entries: services.audit.list(request.query.limit === undefined ? undefined : Number(request.query.limit)),
  }));
}
