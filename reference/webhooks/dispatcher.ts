// Delivers user-update events (and, with webhook-unrelated-notifications,
// offer-status notifications) to the receiving address each client set up.
// An answer of 200, 201, 202 or 204 confirms receipt (spec 6.1); anything
// else, a connection error or a timeout is retried on the server's schedule
// (schedule.ts: exponential backoff from webhookRetryBaseMs by default, the
// slow-webhooks condition's seconds), under the same idempotency key. With
// the webhook-at-least-once variant an acknowledged event is sent once more,
// after the first retry delay, under its key. One dispatcher per server: its
// state is its own.
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { ReferenceContext } from '../context.ts';
import { buildDelivery, type WebhookEvent } from './message.ts';
import { deliverySchedule, type DeliverySchedule } from './schedule.ts';
import type { WebhookSigner } from './signer.ts';
import { ADDRESS_PROPAGATION_MS } from './propagation.ts';

// Where the reference's profile and the tests have always read the schedule from.
export { retryDelaysMs } from './schedule.ts';

const ACKNOWLEDGEMENTS = new Set([200, 201, 202, 204]);
/** An answer body is only looked at for its presence; more than this is not read. */
const ANSWER_READ_LIMIT = 64 * 1024;

type AttemptOutcome = { kind: 'answered'; status: number; bodyBytes: number } | { kind: 'timeout' } | { kind: 'error' };

export class WebhookDispatcher {
  /** client_id → the receiving address that client set up. */
  private readonly addresses = new Map<string, string>();
  /** webhook-address-propagation-delayed: client_id → the address set up last, and when it takes effect. */
  private readonly propagating = new Map<string, { url: string; atMs: number }>();
  private readonly agent = new Agent({ keepAliveTimeout: 2_000 });
  private readonly schedule: DeliverySchedule;

  constructor(
    private readonly ctx: ReferenceContext,
    private readonly signer: WebhookSigner,
  ) {
    this.schedule = deliverySchedule(ctx);
  }

  register(clientId: string, url: string): void {
    // webhook-address-change-ignored: the first address a client set up is the one it keeps (the operation still answers 200).
    if (this.ctx.faults.has('webhook-address-change-ignored') && this.addresses.has(clientId)) return;
    // webhook-address-propagation-delayed: a client's first address at once, a later one after ADDRESS_PROPAGATION_MS.
    if (this.ctx.variants.has('webhook-address-propagation-delayed') && this.addresses.has(clientId)) {
      this.propagating.set(clientId, { url, atMs: Date.now() + ADDRESS_PROPAGATION_MS });
      return;
    }
    this.addresses.set(clientId, url);
  }

  addressOf(clientId: string): string | undefined {
    const next = this.propagating.get(clientId);
    if (next && Date.now() >= next.atMs) {
      this.addresses.set(clientId, next.url);
      this.propagating.delete(clientId);
    }
    return this.addresses.get(clientId);
  }

  /** Starts delivering in the background; the trigger does not wait for the partner. */
  dispatch(event: WebhookEvent): void {
    void this.deliver(event).catch((error: unknown) => console.error('reference: webhook delivery failed:', error));
  }

  private acknowledged(outcome: AttemptOutcome): boolean {
    const { faults } = this.ctx;
    if (outcome.kind === 'timeout') return faults.has('webhook-timeout-treated-as-delivered');
    if (outcome.kind !== 'answered' || !ACKNOWLEDGEMENTS.has(outcome.status)) return false;
    if (outcome.status === 204 && faults.has('webhook-204-not-acknowledged')) return false;
    return !(outcome.bodyBytes === 0 && faults.has('webhook-ack-requires-body'));
  }

  private async deliver(event: WebhookEvent): Promise<void> {
    const { firstDelayMs, retryDelaysMs: delays } = this.schedule;
    // webhook-at-least-once: the first acknowledgement does not end the event; it is sent once more, as a redelivery.
    let duplicates = this.ctx.variants.has('webhook-at-least-once') ? 1 : 0;
    // unref: a queued delivery must not keep a closed reference's process alive.
    if (firstDelayMs > 0) await sleep(firstDelayMs, undefined, { ref: false });
    for (let attempt = 1; ; attempt++) {
      const acknowledged = this.acknowledged(await this.attempt(event, attempt));
      if (acknowledged && duplicates-- === 0) return;
      // The duplicate comes after the first retry delay, as a sender that lost track of the acknowledgement would retry.
      const delay = acknowledged ? (delays[0] ?? this.ctx.options.webhookRetryBaseMs) : delays[attempt - 1];
      if (delay === undefined) return;
      await sleep(delay, undefined, { ref: false });
    }
  }

  private async attempt(event: WebhookEvent, attempt: number): Promise<AttemptOutcome> {
    const delivery = await buildDelivery(event, attempt, this.ctx, this.signer);
    // The same opt-in audit as issued tokens: leak tests grep artifacts for every Signature value.
    const { signature } = delivery.headers;
    if (this.ctx.options.issuedTokenLog && signature) appendFileSync(this.ctx.options.issuedTokenLog, `${signature}\n`);
    try {
      const response = await request(delivery.url, {
        method: delivery.method as 'POST',
        headers: delivery.headers,
        body: delivery.body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.schedule.timeoutMs),
      });
      let bodyBytes = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        bodyBytes += chunk.length;
        if (bodyBytes > ANSWER_READ_LIMIT) {
          response.body.destroy();
          break;
        }
      }
      return { kind: 'answered', status: response.statusCode, bodyBytes };
    } catch (error) {
      const name = (error as { name?: string }).name;
      return name === 'TimeoutError' || name === 'AbortError' ? { kind: 'timeout' } : { kind: 'error' };
    }
  }
}
