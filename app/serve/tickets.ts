// Tickets for the two console URLs a browser reaches by navigation, which
// cannot carry the session's bearer: a run's report (the run page's iframe,
// or opened on its own) and its bundle (a download). The run page asks for
// one with its session (POST /api/runs/:id/tickets {kind}, which only a
// console session may ask: app/serve/api/runs.ts) and puts it in the URL
// (?ticket=…). A ticket is random (32 bytes), bound to the session that
// asked, the run and the kind (report or bundle), good for 60 seconds and for
// one use: presented once, it is gone, whatever the answer. The redemption
// also wants the session's cookie (app/serve/console/access.ts), so a ticket
// URL that leaks (a history entry, a log) opens nothing by itself, and the
// cookie alone opens nothing either.
// The lookup is a Map's: a ticket's 256 random bits leave nothing for a
// timing difference to find.
import { randomBytes } from 'node:crypto';

export type TicketKind = 'report' | 'bundle';

export const TICKET_KINDS: readonly TicketKind[] = ['report', 'bundle'];

interface Ticket {
  sessionId: string;
  runId: string;
  kind: TicketKind;
  expiresAt: number;
}

export interface TicketOptions {
  /** How long a ticket is good for (default 60 s). */
  ttlMs?: number;
  /** At most this many live tickets (default 1,000): beyond it, the oldest go first. */
  max?: number;
  now?: () => number;
}

export class TicketStore {
  readonly #tickets = new Map<string, Ticket>();
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #now: () => number;

  constructor(options: TicketOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 60_000;
    this.#max = options.max ?? 1000;
    this.#now = options.now ?? Date.now;
  }

  /** A new ticket for this session, run and kind. */
  mint(sessionId: string, runId: string, kind: TicketKind): string {
    this.#sweep();
    while (this.#tickets.size >= this.#max) this.#tickets.delete(this.#tickets.keys().next().value!);
    const ticket = randomBytes(32).toString('base64url');
    this.#tickets.set(ticket, { sessionId, runId, kind, expiresAt: this.#now() + this.#ttlMs });
    return ticket;
  }

  /** Uses the ticket up; true when it was live and minted for exactly this session, run and kind. */
  redeem(ticket: unknown, sessionId: string, runId: string, kind: TicketKind): boolean {
    if (typeof ticket !== 'string' || !ticket) return false;
    const found = this.#tickets.get(ticket);
    if (!found) return false;
    this.#tickets.delete(ticket);
    return found.expiresAt > this.#now() && found.sessionId === sessionId && found.runId === runId && found.kind === kind;
  }

  /** A session ended: its tickets go with it. */
  endSession(sessionId: string): void {
    for (const [ticket, t] of this.#tickets) if (t.sessionId === sessionId) this.#tickets.delete(ticket);
  }

  get size(): number {
    return this.#tickets.size;
  }

  #sweep(): void {
    const now = this.#now();
    for (const [ticket, t] of this.#tickets) if (t.expiresAt <= now) this.#tickets.delete(ticket);
  }
}
