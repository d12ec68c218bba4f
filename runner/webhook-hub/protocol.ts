// What the webhook hub and the check workers say to each other: a session is
// a stream of JSON lines (opened, each delivery with its answer, late
// attempts, answers written later, ended), and deliveries travel with their
// body in base64 and their arrival time on the hub's clock.
import type { DeliveryAnswer, ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import type { ResponseStep } from '../../src/webhooks/routing.ts';

/** The environment variable naming the hub's control address (with its access token) to the workers. */
export const WEBHOOK_HUB_ENV = 'PTAS_WEBHOOK_HUB';

export interface WireDelivery extends Omit<ReceivedDelivery, 'body' | 'receivedAt'> {
  body: string;
  receivedAt: string;
}

export type SessionMessage =
  | { type: 'open'; id: string; url: string; userIds: string[] }
  | { type: 'delivery'; delivery: WireDelivery; step: ResponseStep }
  | { type: 'earlier'; delivery: WireDelivery }
  | { type: 'answered'; seq: number; answer: DeliveryAnswer }
  | { type: 'end'; dropped: number }
  | { type: 'error'; message: string };

export function toWire(delivery: ReceivedDelivery): WireDelivery {
  return { ...delivery, body: delivery.body.toString('base64'), receivedAt: delivery.receivedAt.toISOString() };
}

/** A delivery in this process's terms: `hubClockOffsetMs` is the hub's performance.now() minus ours. */
export function fromWire(wire: WireDelivery, hubClockOffsetMs: number): ReceivedDelivery {
  return { ...wire, body: Buffer.from(wire.body, 'base64'), receivedAt: new Date(wire.receivedAt), receivedAtMs: wire.receivedAtMs - hubClockOffsetMs };
}
