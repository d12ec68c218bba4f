// GET /console/api/runs/:id/events: a run's events (contract.ts RunEvent) as
// server-sent events, proxied from the services' subscription: everything so
// far, then each event as it happens; the stream ends after 'end'. The run
// page reads them with fetch (console/event-stream.ts), not EventSource, which
// cannot send the session's bearer this endpoint wants like every other.
// Each event carries its position (from 1) as its id, so a reader that
// reconnects sends Last-Event-ID and gets only what it missed. A comment line every 15 s keeps proxies from
// closing a quiet stream (a long poll, a queued run).
import type { FastifyInstance } from 'fastify';
import type { RunEvent } from '../contract.ts';
import { COMMON_HEADERS, consolePolicy } from './security-headers.ts';
import { isRunId } from './ids.ts';
import type { ConsoleContext } from './context.ts';

const HEARTBEAT_MS = 15_000;

/** One event in the text/event-stream format (JSON has no raw line breaks, so data is one line). */
export function sseFrame(id: number, event: RunEvent): string {
  return `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function lastEventId(header: string | string[] | undefined): number {
  const value = Number(Array.isArray(header) ? header[0] : header);
  return Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

export function registerEvents(app: FastifyInstance, { services }: ConsoleContext): void {
  // Open streams end when the server closes: a live view left open must not hold up its shutdown.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const finish of [...open]) finish();
  });

  app.get('/console/api/runs/:id/events', { config: { consoleAccess: 'api' } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!isRunId(id) || !(await services.runs.get(id))) return reply.code(404).send({ error: 'no such run' });
    const skipThrough = lastEventId(request.headers['last-event-id']);
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, {
      ...COMMON_HEADERS,
      'content-security-policy': consolePolicy(),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    raw.write(': ptas run events\n\n');

    let position = 0;
    let ended = false;
    let unsubscribe: (() => void) | undefined;
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const finish = () => {
      if (ended) return;
      ended = true;
      open.delete(finish);
      clearInterval(heartbeat);
      unsubscribe?.();
      raw.end();
    };
    open.add(finish);
    // The response closes when the browser goes away (the request's own close event fires once its body is read).
    raw.on('close', finish);

    unsubscribe = await services.runs.subscribe(id, (event) => {
      if (ended) return;
      // A position-only update is not stored: sent without an id and not counted, as the API sends it.
      if (event.type === 'status' && event.positionOnly) return void raw.write(`event: status\ndata: ${JSON.stringify(event)}\n\n`);
      // Numbered from 1, as the API's stream numbers them (app/serve/api/runs.ts): one Last-Event-ID means the same in both.
      const at = ++position;
      if (at > skipThrough) raw.write(sseFrame(at, event));
      if (event.type === 'end') finish();
    });
    // Ended during the replay (a finished run): the subscription came back after finish ran.
    if (ended || !unsubscribe) {
      unsubscribe?.();
      finish();
    }
  });
}
