// The run's webhook receivers: one per target, each with its router, started
// when a check first asks for a session on it. One process holds them all
// (the Playwright runner process, runner/webhook-hub/setup.ts), so checks in any
// worker can watch one target's deliveries side by side.
import { WebhookReceiver, type ReceiverOptions } from '../../src/webhooks/receiver.ts';
import { DeliveryRouter, type RoutedSession, type SessionRequest } from '../../src/webhooks/routing.ts';

export interface HubSessionRequest extends SessionRequest {
  /** Which receiver: one per target (the target's name). */
  receiverKey: string;
  receiver: ReceiverOptions;
}

export class WebhookHub {
  private readonly receivers = new Map<string, { options: string; receiver: Promise<WebhookReceiver> }>();

  /** The target's receiver, started on first use; a request with other receiver settings for the same target is refused. */
  private receiverFor(key: string, options: ReceiverOptions): Promise<WebhookReceiver> {
    const settings = JSON.stringify(options);
    const known = this.receivers.get(key);
    if (known && known.options !== settings) throw new Error(`the webhook receiver settings of ${key} changed within one run`);
    if (known) return known.receiver;
    const receiver = WebhookReceiver.start(options, new DeliveryRouter());
    // A receiver that could not listen is forgotten, so the error reaches every check that asks, not a stale promise.
    receiver.catch(() => this.receivers.delete(key));
    this.receivers.set(key, { options: settings, receiver });
    return receiver;
  }

  async openSession(request: HubSessionRequest): Promise<{ receiver: WebhookReceiver; session: RoutedSession }> {
    const receiver = await this.receiverFor(request.receiverKey, request.receiver);
    return { receiver, session: await receiver.router.openSession(request) };
  }

  async close(): Promise<void> {
    const receivers = [...this.receivers.values()];
    this.receivers.clear();
    await Promise.all(receivers.map(async ({ receiver }) => (await receiver.catch(() => undefined))?.close()));
  }
}
