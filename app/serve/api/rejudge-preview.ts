// GET /api/rejudge-preview[?implementation=ID]: what the installed suite
// would change in the stored runs (app/serve/rejudge-preview.ts): each run
// whose verdict or certifiability would change, then each where only some
// checks would, and how many would not change at all. Judged offline and
// read-only: nothing is sent to any implementation, no bundle is written;
// viewers read it. An unknown implementation is 404.
import type { FastifyInstance } from 'fastify';
import type { ServeServices } from '../services.ts';
import { rejudgePreviewQuery } from './schemas.ts';

export async function rejudgePreviewRoutes(app: FastifyInstance, services: ServeServices): Promise<void> {
  app.get<{ Querystring: { implementation?: string } }>('/api/rejudge-preview', { schema: { querystring: rejudgePreviewQuery } }, async (request) =>
    services.runs.rejudgePreview(request.query),
  );
}
