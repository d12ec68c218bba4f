// A check worker's side of the webhook hub (runner/webhook-hub/server.ts): it
// opens a session on the target's receiver and mirrors what the session
// receives, on this process's clock, so a check waits on it as if the
// receiver were its own.
import http from 'node:http';
import type { DeliveryAnswer, ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import type { ResponseStep } from '../../src/webhooks/routing.ts';
import { SessionDeliveries } from '../../src/webhooks/session-deliveries.ts';
import type { HubSessionRequest } from './hub.ts';
import { fromWire, WEBHOOK_HUB_ENV, type SessionMessage } from './protocol.ts';

/** Round trips to the hub's clock; the fastest sets the offset. */
const CLOCK_SAMPLES = 5;

/**
 * One control call on a connection of its own. A kept-alive connection would
 * save a loopback handshake, but a check that waits longer than the hub's
 * keep-alive timeout (Node's 5 s) between two calls would send the next one
 * as the hub closes that connection: "socket hang up", and a check ERROR.
 */
function call(url: string, method: 'GET' | 'POST', json?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = json === undefined ? {} : { 'content-type': 'application/json' };
    const req = http.request(url, { method, agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(json === undefined ? undefined : JSON.stringify(json));
  });
}

async function expectNoContent(url: string, what: string, json?: unknown): Promise<void> {
  const { status, body } = await call(url, 'POST', json);
  if (status !== 204) throw new Error(`the webhook hub refused to ${what}: ${status} ${body}`);
}

export class HubClient {
  private hubClockOffset: Promise<number> | undefined;

  constructor(private readonly base: string) {}

  private static fromEnvironment: HubClient | undefined;

  /** The run's hub, named by PTAS_WEBHOOK_HUB (its global set-up starts it: runner/webhook-hub/setup.ts). */
  static fromEnv(): HubClient {
    const base = process.env[WEBHOOK_HUB_ENV];
    if (!base) throw new Error(`${WEBHOOK_HUB_ENV} is not set: the webhook checks need the run's webhook hub, which ptas run starts (through runner/playwright.config.ts)`);
    if (HubClient.fromEnvironment?.base !== base) HubClient.fromEnvironment = new HubClient(base);
    return HubClient.fromEnvironment;
  }

  /**
   * The hub's performance.now() minus ours: the midpoint of the fastest of a
   * few round trips (off by half of it at most). Only intervals and windows
   * use it; what came after a cause is told on the hub's clock (lockCause).
   */
  private clockOffset(): Promise<number> {
    this.hubClockOffset ??= (async () => {
      let best: { roundTrip: number; offset: number } | undefined;
      for (let sample = 0; sample < CLOCK_SAMPLES; sample++) {
        const sent = performance.now();
        const { status, body } = await call(`${this.base}/clock`, 'GET');
        const received = performance.now();
        if (status !== 200) throw new Error(`the webhook hub did not tell its clock: ${status} ${body}`);
        const offset = (JSON.parse(body) as { now: number }).now - (sent + received) / 2;
        if (!best || received - sent < best.roundTrip) best = { roundTrip: received - sent, offset };
      }
      return best!.offset;
    })();
    return this.hubClockOffset;
  }

  /** A session once the hub grants one of the requested users (as long as other sessions hold them). */
  async openSession(request: HubSessionRequest): Promise<RemoteSession> {
    const offset = await this.clockOffset();
    return new Promise((resolve, reject) => {
      let session: RemoteSession | undefined;
      const req = http.request(`${this.base}/sessions`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let newline: number;
          while ((newline = pending.indexOf('\n')) >= 0) {
            const message = JSON.parse(pending.slice(0, newline)) as SessionMessage;
            pending = pending.slice(newline + 1);
            if (message.type === 'open') {
              session = new RemoteSession(this.base, message.id, message.url, message.userIds, offset, () => req.destroy());
              resolve(session);
            } else if (message.type === 'error') {
              reject(new Error(message.message));
            } else {
              session?.receive(message);
            }
          }
        });
        res.on('end', () => session?.streamEnded());
        res.on('error', (error) => (session ? session.streamEnded() : reject(error)));
      });
      req.on('error', (error) => (session ? session.streamEnded() : reject(error)));
      req.end(JSON.stringify(request));
    });
  }
}

export class RemoteSession extends SessionDeliveries {
  /** Deliveries the receiver refused unrecorded (a flood), as of the session's end. */
  dropped = 0;
  /** Told of each delivery as it arrives, with the answer it got (for a check's timeline). */
  onDelivery: ((delivery: ReceivedDelivery, step: ResponseStep) => void) | undefined;
  private streamClosed!: () => void;
  private readonly closed = new Promise<void>((resolve) => (this.streamClosed = resolve));

  constructor(
    private readonly base: string,
    readonly id: string,
    /** The URL the implementation must call. */
    readonly url: string,
    /** The granted user's identifiers; the first is the id the trigger takes. */
    readonly userIds: string[],
    private readonly hubClockOffset: number,
    private readonly dropStream: () => void,
  ) {
    super();
  }

  receive(message: Exclude<SessionMessage, { type: 'open' | 'error' }>): void {
    if (message.type === 'delivery') {
      const delivery = fromWire(message.delivery, this.hubClockOffset);
      this.add(delivery);
      this.onDelivery?.(delivery, message.step);
    }
    else if (message.type === 'earlier') this.earlier.push(fromWire(message.delivery, this.hubClockOffset));
    else if (message.type === 'answered') this.setAnswer(message.seq, message.answer);
    else if (message.type === 'end') this.dropped = message.dropped;
  }

  private setAnswer(seq: number, answer: DeliveryAnswer): void {
    const delivery = this.deliveries.find((d) => d.seq === seq);
    if (!delivery) return;
    delivery.answer = answer;
    this.answerSettled(delivery);
  }

  streamEnded(): void {
    this.close();
    this.streamClosed();
  }

  /**
   * Tells the hub the session is about to cause an event (until endCause, a
   * delivery naming no user may be its event), and returns when the hub
   * noted it, on this process's clock: every delivery of an event caused
   * after it arrived later, as measured by the same clock, so a clock offset
   * that is a millisecond off cannot reorder them.
   */
  async beginCause(): Promise<number> {
    const { status, body } = await call(`${this.base}/sessions/${this.id}/cause`, 'POST');
    if (status !== 200) throw new Error(`the webhook hub refused to note a cause: ${status} ${body}`);
    return (JSON.parse(body) as { grantedAt: number }).grantedAt - this.hubClockOffset;
  }

  endCause(): Promise<void> {
    return expectNoContent(`${this.base}/sessions/${this.id}/caused`, 'note the end of a cause');
  }

  /** Waits until no other session is setting up the receiving address; the address last set up through the hub (undefined: none yet). */
  async lockAddress(): Promise<string | undefined> {
    const { status, body } = await call(`${this.base}/sessions/${this.id}/address-lock`, 'POST');
    if (status !== 200) throw new Error(`the webhook hub refused to grant the address lock: ${status} ${body}`);
    return (JSON.parse(body) as { address: string | null }).address ?? undefined;
  }

  /** Releases the address lock; `registered`: the address this session has just set up. */
  unlockAddress(registered?: string): Promise<void> {
    return expectNoContent(`${this.base}/sessions/${this.id}/address-unlock`, 'release the address lock', registered === undefined ? {} : { registered });
  }

  /** Ends the session once everything it received has arrived here. */
  async end(): Promise<void> {
    if (!this.isOpen) return;
    try {
      await expectNoContent(`${this.base}/sessions/${this.id}/end`, 'end the session');
      await this.closed;
    } finally {
      this.dropStream();
      this.streamEnded();
    }
  }
}
