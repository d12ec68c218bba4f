// /api/implementations: the list with each one's last run and trend, a new
// one under an id made from its name (POST, the console's New), and one
// implementation's record, stored (PUT: created 201, replaced 200) or
// removed (its runs stay), and its unstable checks: those whose verdict
// differs between its runs of one suite version and profile. A profile text
// that does not parse or validate, or holds a secret in the clear, is a 422
// naming the key path.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';
import type { ImplementationInput, ServeServices } from '../services.ts';
import { implementationBody, implementationIdParams } from './schemas.ts';

interface ImplementationParams {
  id: string;
}

export async function implementationRoutes(app: FastifyInstance, services: ServeServices): Promise<void> {
  app.get('/api/implementations', async () => services.implementations.summaries());

  app.post<{ Body: ImplementationInput }>('/api/implementations', { schema: { body: implementationBody } }, async (request, reply) => {
    const record = services.implementations.create(request.body);
    return reply.code(201).header('location', `/api/implementations/${record.id}`).send(record);
  });

  app.get<{ Params: ImplementationParams }>('/api/implementations/:id', { schema: { params: implementationIdParams } }, async (request) => {
    const record = services.implementations.get(request.params.id);
    if (!record) throw notFound(`implementation ${request.params.id}`);
    return record;
  });

  app.get<{ Params: ImplementationParams }>('/api/implementations/:id/unstable-checks', { schema: { params: implementationIdParams } }, async (request) => ({
    checks: services.implementations.unstableChecks(request.params.id),
  }));

  app.put<{ Params: ImplementationParams; Body: ImplementationInput }>(
    '/api/implementations/:id',
    { schema: { params: implementationIdParams, body: implementationBody } },
    async (request, reply) => {
      const { record, created } = services.implementations.put(request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(record);
    },
  );

  app.delete<{ Params: ImplementationParams }>('/api/implementations/:id', { schema: { params: implementationIdParams } }, async (request, reply) => {
    services.implementations.remove(request.params.id);
    return reply.code(204).send();
  });
}
