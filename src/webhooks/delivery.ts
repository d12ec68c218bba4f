// One webhook delivery as the suite's receiver saw it: everything a verifier
// needs (field lines in order, the raw body bytes) and when it arrived.
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_HEADER = 'x-bts-idempotency-key';

export interface DeliveryAnswer {
  status: number;
  /** How long the receiver held the answer back. */
  delayMs: number;
  /** False when the implementation had hung up before the answer was written (it timed out). */
  written: boolean;
  /** When it hung up, in ms after the delivery arrived (answers not written only): where its retry schedule starts. */
  hungUpAfterMs?: number;
  /** When the answer was written in full (handed to the network), in ms after the delivery arrived (written answers only). */
  answeredAfterMs?: number;
}

export interface ReceivedDelivery {
  /** 1-based, in order of arrival at this receiver. */
  seq: number;
  method: string;
  /** The request target as on the request line: path and query. */
  requestTarget: string;
  /** The URL the implementation called, as the receiver reconstructs it (public origin + request target). */
  targetUri: string;
  /** Field lines as received, names lower-cased, in order. */
  fieldLines: Array<[name: string, value: string]>;
  body: Buffer;
  /** The body was longer than the receiver keeps; the rest was not read. */
  bodyTruncated: boolean;
  receivedAt: Date;
  /** performance.now() at receipt, for intervals between deliveries. */
  receivedAtMs: number;
  answer?: DeliveryAnswer;
}

/** A field's value: every line of that name, trimmed, joined with ", " (RFC 9110, 5.3). */
export function fieldValue(delivery: { fieldLines: ReadonlyArray<readonly [string, string]> }, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const lines = delivery.fieldLines.filter(([n]) => n === wanted).map(([, v]) => v.trim());
  return lines.length ? lines.join(', ') : undefined;
}

export function idempotencyKey(delivery: ReceivedDelivery): string | undefined {
  return fieldValue(delivery, IDEMPOTENCY_HEADER);
}

export function parsedBody(delivery: ReceivedDelivery): unknown {
  try {
    return JSON.parse(delivery.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The params of a {params:{…}} body, when it has that shape. */
export function paramsOf(delivery: ReceivedDelivery): Record<string, unknown> | undefined {
  const body = parsedBody(delivery) as { params?: unknown } | undefined;
  const params = body && typeof body === 'object' ? body.params : undefined;
  return params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The content of a delivery, independent of JSON formatting: two attempts of one event have the same. */
export function contentFingerprint(delivery: ReceivedDelivery): string {
  const body = parsedBody(delivery);
  const text = body === undefined ? delivery.body.toString('base64') : canonicalJson(body);
  return createHash('sha256').update(text).digest('hex');
}

/** Key and content: what marks a delivery as an attempt of an event seen before. */
export function eventFingerprint(delivery: ReceivedDelivery): string {
  return `${idempotencyKey(delivery) ?? ''}\n${contentFingerprint(delivery)}`;
}

/** Another attempt of the same event: the same idempotency key, or the same content under another key. */
export function isAttemptOf(candidate: ReceivedDelivery, first: ReceivedDelivery): boolean {
  const key = idempotencyKey(first);
  return (key !== undefined && idempotencyKey(candidate) === key) || contentFingerprint(candidate) === contentFingerprint(first);
}

type Members = Record<string, unknown>;

function isMembers(value: unknown): value is Members {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where an event's members may sit: in params (the shape of 6.1), and at the
 * top level, so that a body breaking the shape is still recognised as the
 * event and judged, rather than taken for something else.
 */
export function eventLayers(delivery: ReceivedDelivery): Members[] {
  const body = parsedBody(delivery);
  if (!isMembers(body)) return [];
  return isMembers(body.params) ? [body.params, body] : [body];
}

/** A string equal to the user id (case aside: a UUID's case carries no meaning) anywhere in the first levels of a value. */
function mentionsUser(value: unknown, userId: string, depth = 3): boolean {
  if (typeof value === 'string') return value.toLowerCase() === userId.toLowerCase();
  if (depth === 0 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((member) => mentionsUser(member, userId, depth - 1));
}

/** What the suite knows of an event it caused: its action, and the success or status it asked for. */
export interface EventSignature {
  action: string;
  success?: boolean;
  status?: string;
}

/**
 * The delivery's JSON carries the action and names the user (any of the
 * identifiers given): how the event a check caused is told from other
 * notifications to the same address (6.2 names many kinds and does not show
 * which operation emits which). `exactly` also wants the success or status
 * the event was caused with.
 */
export function carriesEvent(delivery: ReceivedDelivery, event: EventSignature, userIds: readonly string[], exactly = false): boolean {
  const layers = eventLayers(delivery);
  const has = (name: keyof EventSignature) => event[name] === undefined || layers.some((layer) => layer[name] === event[name]);
  if (!has('action') || (exactly && !(has('success') && has('status')))) return false;
  return namesUser(delivery, userIds);
}

/** The delivery's JSON names the user (any of the identifiers given), in params or at the top level. */
export function namesUser(delivery: ReceivedDelivery, userIds: readonly string[]): boolean {
  return eventLayers(delivery).some((layer) => userIds.some((id) => mentionsUser(layer, id)));
}

/** What tells two events of one kind apart (action, success, status), wherever they sit. */
function eventTraits(delivery: ReceivedDelivery): string {
  const pick = (name: string) => eventLayers(delivery).find((layer) => name in layer)?.[name];
  return JSON.stringify([pick('action'), pick('success'), pick('status')]);
}

/**
 * Another attempt of an event already taken: the same content, or the same
 * key and the same action, success and status (a body rebuilt per attempt).
 * Unlike isAttemptOf, a key shared by two distinct events does not make one
 * the other's attempt, so such a key is still seen and judged.
 */
export function isRepeatOf(candidate: ReceivedDelivery, taken: ReceivedDelivery): boolean {
  if (contentFingerprint(candidate) === contentFingerprint(taken)) return true;
  const key = idempotencyKey(taken);
  return key !== undefined && idempotencyKey(candidate) === key && eventTraits(candidate) === eventTraits(taken);
}
