// The user-update webhook (spec 5 rule 5, 6.1). The spec does not show how a
// partner sets up its receiving address nor how events come about, so the
// reference offers its own operations under /reference/v1 (not part of the
// spec; the reference's profile describes them to the suite):
//   PUT  /reference/v1/webhooks/user-update   {"url": "https://…"}   bearer; the calling client's receiving address → 200
//   POST /reference/v1/users/{userId}/events  {"action": …, "success"|"status": …}   bearer; causes one event → 202
//   GET  /reference/v1/webhooks/jwks.json     the public key deliveries are signed with (RFC 9421, Ed25519);
//                                             with jwks-requires-bearer only with a bearer (else 401)
// Actions: verification (success true/false), blacklisting, inactivation,
// risk_evaluation (status processing/finished/cancelled); see webhooks/events.ts.
// Deliveries: webhooks/message.ts (headers, digest, signature), webhooks/dispatcher.ts
// (acknowledgement, retries after 200/400/800 ms by default).
//
// Legitimate variants (reference/variants/webhooks.ts), each a choice the spec leaves open:
//   webhook-unrelated-notifications    an offer-status notification (6.2) just before and just after
//                                      each user-update event, to the same address;
//   webhook-digest-sha512              Content-Digest with sha-512 only;
//   webhook-signature-more-components  the deployed API's covered components, with created and expires;
//   webhook-json-charset               Content-Type application/json; charset=utf-8;
//   webhook-retry-slower               retries ten times later (first after 2 s); the profile declares no schedule;
//   webhook-signature-ecdsa-p256       an ECDSA P-256 key instead of Ed25519;
//   webhook-signature-base64url        the signature bytes in base64url (the suite warns);
//   webhook-signature-hmac             hmac-sha256 with options.webhookSharedSecret; the JWK Set
//                                      stays served, empty: a shared secret is never published;
//   jwks-requires-bearer               (an auth variant) the JWK Set answers 401 without a bearer;
//   webhook-body-extra-members         more members in the body and in params than 6.1 lists;
//   webhook-at-least-once              an acknowledged event delivered once more, under its key (dispatcher.ts).
import { randomUUID, createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson, sendPayloadTooLarge } from '../http-util.ts';
import { UUID_SHAPE } from '../fixtures/ids.ts';
import type { Router, RouteRequest } from '../router.ts';
import { WebhookDispatcher } from '../webhooks/dispatcher.ts';
import { eventBody, eventParams, offerStatusBody, parseEventRequest, type EventRequest } from '../webhooks/events.ts';
import { WebhookSigner, type SigningAlgorithm } from '../webhooks/signer.ts';

export const WEBHOOK_REGISTER_PATH = '/reference/v1/webhooks/user-update';
export const WEBHOOK_TRIGGER_PATH = '/reference/v1/users/{userId}/events';
export const WEBHOOK_JWKS_PATH = '/reference/v1/webhooks/jwks.json';

/** ECDSA for its variant and for the DER fault (whose mistake only ECDSA can make); HMAC for its variant; else Ed25519. */
function signingAlgorithm(ctx: ReferenceContext): SigningAlgorithm {
  if (ctx.variants.has('webhook-signature-ecdsa-p256') || ctx.faults.has('webhook-signature-ecdsa-der')) return 'ecdsa-p256-sha256';
  return ctx.variants.has('webhook-signature-hmac') ? 'hmac-sha256' : 'ed25519';
}

function receivingAddress(body: unknown): string | undefined {
  const url = (body as { url?: unknown } | undefined)?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

async function jsonBody(ctx: ReferenceContext, req: RouteRequest, res: ServerResponse): Promise<unknown> {
  const read = await readBody(req.raw, ctx.options.bodyLimitBytes);
  if (read.kind === 'too-large') return sendPayloadTooLarge(res, read.limit);
  if (read.kind === 'aborted') return undefined;
  if (!isJsonContentType(req.raw)) return sendError(res, 422, 'parameter_error', 'Content-Type must be application/json');
  const parsed = parseJson(read.text);
  if (!parsed.ok) return sendError(res, 422, 'parameter_error', `body is not valid JSON: ${parsed.message}`);
  return parsed.value ?? null;
}

interface EventToSend {
  request: EventRequest;
  userId: string;
  /** The client's receiving address. */
  url: string;
  /** Offer-status notifications just before and after the event (webhook-unrelated-notifications). */
  sendsOtherKinds: boolean;
}

/** Hands the user-update event (and its neighbours) to the dispatcher; returns the event's id. */
function dispatchEvent(ctx: ReferenceContext, dispatcher: WebhookDispatcher, { request, userId, url, sendsOtherKinds }: EventToSend): string {
  const at = new Date();
  const params = eventParams(request, userId, at, ctx.faults);
  const id = randomUUID();
  const idempotencyKey = ctx.faults.has('webhook-key-per-user-action')
    ? createHash('sha256').update(`${userId}:${request.action}`).digest('hex').slice(0, 32)
    : randomUUID();
  const offerStatus = () => ({ id: randomUUID(), kind: 'offer-status' as const, idempotencyKey: randomUUID(), url, body: offerStatusBody(userId, at) });
  if (sendsOtherKinds) dispatcher.dispatch(offerStatus());
  dispatcher.dispatch({ id, kind: 'user-update', idempotencyKey, url, body: eventBody(params, id, ctx.faults, ctx.variants, ctx.clock.iso) });
  if (sendsOtherKinds) dispatcher.dispatch(offerStatus());
  return id;
}

export function registerWebhooksRoutes(router: Router, ctx: ReferenceContext): void {
  // The key is made once per server; requests wait for it.
  const ready = WebhookSigner.create(signingAlgorithm(ctx), { sharedSecret: ctx.options.webhookSharedSecret }).then((signer) => ({
    signer,
    dispatcher: new WebhookDispatcher(ctx, signer),
  }));
  // The other-kinds fault needs the other kinds to be sent at all.
  const sendsOtherKinds = ctx.variants.has('webhook-unrelated-notifications') || ctx.faults.has('webhook-other-kinds-undigested');

  router.add('PUT', WEBHOOK_REGISTER_PATH, async (req, res) => {
    const claims = await authenticate(ctx, req, res);
    if (!claims) return;
    const body = await jsonBody(ctx, req, res);
    if (res.headersSent || body === undefined) return;
    const url = receivingAddress(body);
    if (!url) return sendError(res, 422, 'parameter_error', 'url must be an absolute http or https URL');
    (await ready).dispatcher.register(claims.client_id, url);
    sendJson(res, 200, { data: { event: 'user-update', url } });
  });

  router.add('POST', WEBHOOK_TRIGGER_PATH.replace('{userId}', ':userId'), async (req, res) => {
    const claims = await authenticate(ctx, req, res);
    if (!claims) return;
    const userId = req.params.userId!.toLowerCase();
    if (!UUID_SHAPE.test(userId)) return sendError(res, 422, 'parameter_error', 'userId must be a UUID');
    if (!ctx.users.has(userId)) return sendError(res, 404, 'record_not_found', 'no user with this id');
    const body = await jsonBody(ctx, req, res);
    if (res.headersSent || body === undefined) return;
    const request = parseEventRequest(body);
    if (typeof request === 'string') return sendError(res, 422, 'parameter_error', request);
    const { dispatcher } = await ready;
    const url = dispatcher.addressOf(claims.client_id);
    if (!url) return sendError(res, 409, 'no_receiving_address', `no user-update address is set up for this client: PUT ${WEBHOOK_REGISTER_PATH} first`);
    const id = dispatchEvent(ctx, dispatcher, { request, userId, url, sendsOtherKinds });
    sendJson(res, 202, { data: { event_id: id, action: request.action, user_id: userId } });
  });

  router.add('GET', WEBHOOK_JWKS_PATH, async (req, res) => {
    if (ctx.variants.has('jwks-requires-bearer') && !(await authenticate(ctx, req, res))) return;
    sendJson(res, 200, (await ready).signer.jwks());
  });
}
