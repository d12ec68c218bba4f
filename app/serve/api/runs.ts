// /api/runs: ask for a run (202 and its Location), read it, follow its
// events (server-sent events: the past ones, then each new one, ending with
// `end`), download its bundle, cancel it, compare two runs, share its report
// (links that may expire, listed and revoked one by one or all at once),
// review its REVIEW checks (a decision kept in its bundle), and give a
// console session a one-use ticket to its report or bundle.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RunEvent, RunOptionsInput } from '../contract.ts';
import { notFound, ServeError } from '../errors.ts';
import type { RunSecrets, ServeServices } from '../services.ts';
import { compareParams, reviewBody, runIdParams, runListQuery, shareBody, shareParams, startRunBody, ticketBody } from './schemas.ts';
import type { ReviewInput } from '../reviews.ts';
import type { TicketKind } from '../tickets.ts';

interface RunParams {
  id: string;
}

/** Server-sent events keep quiet connections open through proxies (and within the server's connection time-out, timeouts.ts) with a comment line this often. */
export const KEEP_ALIVE_MS = 15_000;

/** One event in the text/event-stream format: JSON has no raw line breaks, so its data is one line. */
export function sseFrame(seq: number, event: RunEvent): string {
  // A position-only update has no id: it is not stored, so Last-Event-ID counts the stored events only.
  const numbered = event.type === 'status' && event.positionOnly ? '' : `id: ${seq}\n`;
  return `${numbered}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function sendArchive(reply: FastifyReply, archive: { stream: NodeJS.ReadableStream; filename: string }): FastifyReply {
  return reply
    .type('application/gzip')
    .header('content-disposition', `attachment; filename="${archive.filename}"`)
    .send(archive.stream);
}

export async function runRoutes(app: FastifyInstance, services: ServeServices): Promise<void> {
  app.post<{ Body: { implementation: string; options?: RunOptionsInput; secrets?: RunSecrets } }>('/api/runs', { schema: { body: startRunBody } }, async (request, reply) => {
    // The run names the token that asked (its name, never the token): recorded, and held to the token's bound on waiting runs.
    const run = await services.runs.start({ ...request.body, ...(request.ptasToken !== undefined ? { requestedBy: request.ptasToken } : {}) });
    return reply.code(202).header('location', `/api/runs/${run.id}`).send(run);
  });

  app.get<{ Querystring: { implementation?: string } }>('/api/runs', { schema: { querystring: runListQuery } }, async (request) =>
    services.runs.list({ implementation: request.query.implementation }),
  );

  app.get<{ Params: RunParams }>('/api/runs/:id', { schema: { params: runIdParams } }, async (request) => {
    const run = services.runs.get(request.params.id);
    if (!run) throw notFound(`run ${request.params.id}`);
    return run;
  });

  app.get<{ Params: RunParams }>('/api/runs/:id/events', { schema: { params: runIdParams } }, async (request, reply) => {
    const { id } = request.params;
    if (!services.runs.get(id)) throw notFound(`run ${id}`);
    // A client that reconnects says the last event it saw; the stream goes on after it.
    const after = Number.parseInt(String(request.headers['last-event-id'] ?? '0'), 10);
    const stop = new AbortController();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.on('close', () => stop.abort());
    const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    try {
      for await (const { seq, event } of services.runs.events(id, { after: Number.isFinite(after) && after > 0 ? after : 0, signal: stop.signal })) raw.write(sseFrame(seq, event));
    } finally {
      clearInterval(keepAlive);
      raw.end();
    }
  });

  app.get<{ Params: RunParams }>('/api/runs/:id/bundle', { schema: { params: runIdParams } }, async (request, reply) => sendArchive(reply, services.runs.archive(request.params.id)));

  app.post<{ Params: RunParams }>('/api/runs/:id/cancel', { schema: { params: runIdParams } }, async (request) => services.runs.cancel(request.params.id));

  app.get<{ Params: RunParams & { baseline: string } }>('/api/runs/:id/compare/:baseline', { schema: { params: compareParams } }, async (request) =>
    services.runs.compare(request.params.id, request.params.baseline),
  );

  // A new link, shown this once (the store keeps its hash), made by the token that asked; {"expiresInDays": N} or none.
  app.post<{ Params: RunParams; Body: { expiresInDays?: number } | null }>('/api/runs/:id/share', { schema: { params: runIdParams, body: shareBody } }, async (request, reply) => {
    const { url, share } = services.shares.create(request.params.id, { expiresInDays: request.body?.expiresInDays, createdBy: request.ptasToken });
    return reply.code(201).send({ url, share });
  });

  app.get<{ Params: RunParams }>('/api/runs/:id/reviews', { schema: { params: runIdParams } }, async (request) => ({ checks: services.runs.reviews(request.params.id) }));

  // A reviewer's decision on a REVIEW check, kept in the run's bundle; by the token that asked.
  app.post<{ Params: RunParams; Body: ReviewInput }>('/api/runs/:id/reviews', { schema: { params: runIdParams, body: reviewBody } }, async (request, reply) =>
    reply.code(201).send({ review: services.runs.review(request.params.id, request.body, request.ptasToken ?? 'unknown') }),
  );

  // The console's report frame and bundle download are navigations, which cannot carry the bearer: each gets a
  // ticket, bound to the session that asked (tickets.ts); a bearer token reads GET /api/runs/:id/bundle itself.
  app.post<{ Params: RunParams; Body: { kind: TicketKind } }>('/api/runs/:id/tickets', { schema: { params: runIdParams, body: ticketBody }, config: { changesNothing: true } }, async (request, reply) => {
    const { id } = request.params;
    if (request.ptasSession === undefined) throw new ServeError('forbidden', 'a ticket opens a console page, for a console session: with a bearer token, download GET /api/runs/:id/bundle');
    // No ticket to a file that is not there (404 no run, 409 no bundle yet): the browser would save the error page as the bundle.
    services.runs.reportFile(id);
    const ticket = services.tickets.mint(request.ptasSession, id, request.body.kind);
    return reply.code(201).send({ url: `/console/runs/${encodeURIComponent(id)}/${request.body.kind}?ticket=${ticket}` });
  });

  app.get<{ Params: RunParams }>('/api/runs/:id/shares', { schema: { params: runIdParams } }, async (request) => ({ shares: services.shares.list(request.params.id) }));

  app.delete<{ Params: RunParams }>('/api/runs/:id/share', { schema: { params: runIdParams } }, async (request) => ({ revoked: services.shares.revoke(request.params.id) }));

  app.delete<{ Params: RunParams & { shareId: string } }>('/api/runs/:id/shares/:shareId', { schema: { params: shareParams } }, async (request) => ({
    revoked: services.shares.revoke(request.params.id, request.params.shareId),
  }));
}
