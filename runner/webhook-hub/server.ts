// The webhook hub's control address on 127.0.0.1, for the check workers:
//   GET  /<token>/clock                → {"now": the hub's performance.now()}
//   POST /<token>/sessions             → a session (body: HubSessionRequest) as a stream of JSON lines
//   POST /<token>/sessions/<id>/cause          → the session is causing an event: {"grantedAt": hub clock}
//   POST /<token>/sessions/<id>/caused         → its delivery was taken (or the cause failed)
//   POST /<token>/sessions/<id>/address-lock   → answered once no other session sets up the address: {"address": last set up, or null}
//   POST /<token>/sessions/<id>/address-unlock → body {"registered": the address just set up} (optional)
//   POST /<token>/sessions/<id>/end            → answered once the stream has said "end"
// A session whose stream the worker drops ends, and with it what it was
// causing and its address lock. The random token keeps other local processes out.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RoutedSession } from '../../src/webhooks/routing.ts';
import type { WebhookHub, HubSessionRequest } from './hub.ts';
import { toWire, type SessionMessage } from './protocol.ts';

export interface HubServer {
  /** The control address, token included: what PTAS_WEBHOOK_HUB carries. */
  url: string;
  close(): Promise<void>;
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
}

function reply(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** A session a worker holds: `end` ends it and its stream; `ended` resolves once the stream has said so. */
interface OpenSession {
  session: RoutedSession;
  end: () => void;
  ended: Promise<void>;
}

export async function serveHub(hub: WebhookHub): Promise<HubServer> {
  const token = randomBytes(16).toString('hex');
  /** By the hub's own ids: a router numbers only its own sessions. */
  const sessions = new Map<string, OpenSession>();
  let opened = 0;

  async function openSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = (await jsonBody(req)) as HubSessionRequest;
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const send = (message: SessionMessage) => {
      if (!res.destroyed && !res.writableEnded) res.write(`${JSON.stringify(message)}\n`);
    };
    let granted: Awaited<ReturnType<WebhookHub['openSession']>>;
    try {
      granted = await hub.openSession(request);
    } catch (error) {
      send({ type: 'error', message: (error as Error).message });
      res.end();
      return;
    }
    const { receiver, session } = granted;
    const id = String(++opened);
    // The session is told of the floods refused while it was open, not of earlier ones.
    const droppedBefore = receiver.dropped;
    // The worker gave up while waiting for a user (its check timed out).
    if (res.destroyed) return session.end();
    let streamEnded!: () => void;
    const ended = new Promise<void>((resolve) => (streamEnded = resolve));
    const end = () => {
      if (!sessions.delete(id)) return;
      session.end();
      send({ type: 'end', dropped: receiver.dropped - droppedBefore });
      res.end(streamEnded);
    };
    sessions.set(id, { session, end, ended });
    session.listen({
      delivery: (delivery, step) => send({ type: 'delivery', delivery: toWire(delivery), step }),
      earlier: (delivery) => send({ type: 'earlier', delivery: toWire(delivery) }),
      answered: (delivery) => send({ type: 'answered', seq: delivery.seq, answer: delivery.answer! }),
    });
    res.on('close', () => {
      end();
      streamEnded();
    });
    send({ type: 'open', id, url: receiver.url, userIds: session.userIds });
  }

  async function sessionAction(id: string, action: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry = sessions.get(id);
    if (!entry) return reply(res, 404, { error: `no open webhook session ${id}` });
    if (action === 'cause') {
      entry.session.beginCause();
      return reply(res, 200, { grantedAt: performance.now() });
    }
    if (action === 'caused') {
      entry.session.endCause();
      return reply(res, 204);
    }
    if (action === 'address-lock') {
      // A worker that gives up waiting (its check timed out) leaves the queue (the response closes unanswered).
      res.once('close', () => {
        if (!res.writableEnded) entry.session.unlockAddress();
      });
      await entry.session.lockAddress().then(
        (address) => reply(res, 200, { address: address ?? null }),
        (error: Error) => reply(res, 409, { error: error.message }),
      );
      return;
    }
    if (action === 'address-unlock') {
      const { registered } = ((await jsonBody(req)) ?? {}) as { registered?: string };
      entry.session.unlockAddress(typeof registered === 'string' ? registered : undefined);
      return reply(res, 204);
    }
    if (action === 'end') {
      entry.end();
      await entry.ended;
      return reply(res, 204);
    }
    reply(res, 404, { error: `unknown action ${action}` });
  }

  const server = createServer((req, res) => {
    const [, given, resource, id, action] = (req.url ?? '').split('/');
    if (given !== token) return reply(res, 403, { error: 'not this hub' });
    const handle = async () => {
      if (req.method === 'GET' && resource === 'clock') return reply(res, 200, { now: performance.now() });
      if (req.method === 'POST' && resource === 'sessions' && !id) return openSession(req, res);
      if (req.method === 'POST' && resource === 'sessions' && id && action) return sessionAction(id, action, req, res);
      reply(res, 404, { error: 'unknown hub request' });
    };
    handle().catch((error: Error) => {
      if (!res.headersSent) reply(res, 500, { error: error.message });
      else res.destroy(error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${token}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
