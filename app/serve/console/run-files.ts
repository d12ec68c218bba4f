// A finished run's files as the run page uses them:
//   GET /console/runs/:id/report   its index.html, for the page's iframe: the
//        report's own policy (hashes of its inline script and style) as the
//        header, framable by the console only, sandboxed (security-headers.ts)
//   GET /console/runs/:id/bundle   its bundle as one archive, downloaded
// A browser navigates to both, so no bearer can go with them: each wants the
// session's cookie and a one-use ticket the run page minted for this run and
// this kind (?ticket=…, tickets.ts; checked in access.ts, 401 without). The
// answer's referrer policy is no-referrer, so the ticket URL goes nowhere.
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { ServeError } from '../errors.ts';
import { isRunId } from './ids.ts';
import type { ConsoleContext } from './context.ts';
import { sendErrorPage } from './pages.ts';
import { reportPolicy } from './security-headers.ts';

/** A download name that needs no quoting: [A-Za-z0-9._-], not starting with a dot. */
export function safeFilename(name: string, fallback: string): string {
  const kept = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 120);
  return kept || fallback;
}

/** What the services give, or undefined for no such run or none written yet (the page then says so). */
function unlessMissing<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof ServeError && (error.kind === 'not-found' || error.kind === 'not-ready')) return undefined;
    throw error;
  }
}

export function registerRunFiles(app: FastifyInstance, { services, assets }: ConsoleContext): void {
  app.get('/console/runs/:id/report', { config: { consoleAccess: 'ticket', ticketKind: 'report' } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    reply.header('referrer-policy', 'no-referrer');
    const file = isRunId(id) ? unlessMissing(() => services.runs.reportFile(id)) : undefined;
    const html = file === undefined ? undefined : await readFile(file, 'utf8').catch(() => undefined);
    if (html === undefined) return sendErrorPage(reply, assets, 404, 'This run has no report (yet).');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', reportPolicy(html))
      .header('x-frame-options', 'SAMEORIGIN')
      .send(html);
  });

  app.get('/console/runs/:id/bundle', { config: { consoleAccess: 'ticket', ticketKind: 'bundle' } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    reply.header('referrer-policy', 'no-referrer');
    const archive = isRunId(id) ? unlessMissing(() => services.runs.archive(id)) : undefined;
    if (!archive) return sendErrorPage(reply, assets, 404, 'This run has no bundle (yet).');
    return reply
      .type('application/gzip')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${safeFilename(archive.filename, `ptas-run-${id}.tar.gz`)}"`)
      .send(archive.stream);
  });
}
