// The lab's audit log (issue 30 item 7): who started, cancelled, edited,
// shared, signed in and made or revoked tokens, and when; one JSON line per
// action in the store (audit.jsonl), appended, never rewritten. An entry
// names the token that acted (its name, never the token) and what it acted
// on (the route's parameters: ids, never a body, so no profile text or
// secret reaches it). The API and the console each record their successful
// changes (a hook per face: auditHook); `ptas serve token` records its own.
import { appendFileSync, readFileSync } from 'node:fs';
import type { FastifyRequest, onResponseHookHandler } from 'fastify';

export interface AuditEntry {
  at: string;
  /** The token's name, or who acted on this machine (`ptas serve token`). */
  actor: string;
  role?: string;
  via: 'api' | 'console' | 'cli';
  /** "POST /api/runs", "sign in", "token create". */
  action: string;
  /** What it acted on: the route's ids, or a token's name. */
  target?: Record<string, string>;
  status?: number;
}

export class AuditLog {
  constructor(private readonly file: string) {}

  record(entry: Omit<AuditEntry, 'at'>): void {
    appendFileSync(this.file, `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`, { mode: 0o600 });
  }

  /** The latest `limit` entries, newest last; a line that does not parse (a write cut short) is left out. */
  list(limit = 200): AuditEntry[] {
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    const entries: AuditEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        entries.push(JSON.parse(line) as AuditEntry);
      } catch {
        // a partial last line: skipped
      }
    }
    return entries.slice(-limit);
  }
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The ids a route was called with, as strings (never a body). */
function routeTarget(request: FastifyRequest): Record<string, string> | undefined {
  const params = request.params as Record<string, unknown> | undefined;
  const entries = Object.entries(params ?? {}).map(([k, v]) => [k, String(v)] as const);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that changes nothing (a one-use ticket to read): not an action to audit. */
    changesNothing?: boolean;
  }
}

type Via = 'api' | 'console';

/**
 * Records each change a face answered with success: its method and route,
 * the ids it named, which face it came through, and who made it (`actorOf`:
 * the token's name and role, or undefined where nobody is known, which is
 * then not recorded).
 */
export function auditHook(log: AuditLog, via: Via | ((request: FastifyRequest) => Via), actorOf: (request: FastifyRequest) => { name: string; role?: string } | undefined): onResponseHookHandler {
  return async (request, reply) => {
    if (!CHANGES.has(request.method) || request.routeOptions.config.changesNothing || reply.statusCode >= 400) return;
    const actor = actorOf(request);
    if (!actor) return;
    const target = routeTarget(request);
    log.record({ actor: actor.name, ...(actor.role ? { role: actor.role } : {}), via: typeof via === 'string' ? via : via(request), action: `${request.method} ${request.routeOptions.url ?? request.url}`, ...(target ? { target } : {}), status: reply.statusCode });
  };
}
