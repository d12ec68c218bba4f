// POST /v1/crypto-transfers/addresses/withdrawals (spec 4.3, 2.3): registers
// a withdrawal address in a user's address book and returns it as stored.
//
// Status codes (the spec lists 200, 400, 401, 403, 404, 422, 500, 503 and
// leaves the conditions not shown; the reference's choices):
//   401 no or invalid bearer credential;
//   422 svc-user-id missing or not a UUID (a parameter error, 7);
//   404 svc-user-id names no user (record not found, 7);
//   400 the body is not JSON (Content-Type, empty, unparseable);
//   413 the body is over the body limit;
//   422 the JSON body breaks a field rule (crypto-transfers/address-request.ts).
//
// Reference-only, outside the spec's paths: GET
// /reference/v1/users/{userId}/withdrawal-addresses lists a user's address
// book (the spec's "List external addresses" is not shown).
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate } from '../context.ts';
import { AddressBook } from '../crypto-transfers/address-book.ts';
import { validateAddressRequest } from '../crypto-transfers/address-request.ts';
import { seedDirectory } from '../crypto-transfers/directory.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson, sendPayloadTooLarge } from '../http-util.ts';
import type { Router, RouteRequest } from '../router.ts';
import { readUserHeader } from '../trading/svc-user-id.ts';

export const WITHDRAWAL_ADDRESS_ROUTE = '/v1/crypto-transfers/addresses/withdrawals';

/** An ISO 8601 timestamp of the same instant at UTC+02:00 (the wda-created-at-local-offset fault). */
function atPlusTwoHours(date: Date): string {
  return new Date(date.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
}

export function registerCryptoTransfersRoutes(router: Router, ctx: ReferenceContext): void {
  const directory = seedDirectory(ctx.options.seed);
  const book = new AddressBook();
  const fault = (name: string) => ctx.faults.has(name);

  const bodyError = (res: ServerResponse, message: string) =>
    sendError(res, fault('wda-parameter-error-409') ? 409 : 422, 'parameter_error', message);

  /** The user the request acts for, or undefined once an error was answered. */
  function userOf(req: RouteRequest, res: ServerResponse): string | undefined {
    const header = readUserHeader(req.raw);
    if (header.kind === 'missing') {
      if (fault('wda-user-header-optional')) return ctx.users.keys().next().value;
      sendError(res, 422, 'parameter_error', 'the svc-user-id header is required');
      return undefined;
    }
    if (header.kind === 'malformed') {
      sendError(res, 422, 'parameter_error', 'svc-user-id must be a user id (UUID)');
      return undefined;
    }
    if (!ctx.users.has(header.userId) && !fault('wda-unknown-user-accepted')) {
      sendError(res, 404, 'record_not_found', 'svc-user-id names no user');
      return undefined;
    }
    return header.userId;
  }

  router.add('POST', WITHDRAWAL_ADDRESS_ROUTE, async (req, res) => {
    const anonymousAllowed = fault('wda-bearer-not-required') && !req.raw.headers.authorization;
    if (!anonymousAllowed && !(await authenticate(ctx, req, res))) return;
    const userId = userOf(req, res);
    if (!userId) return;

    const read = await readBody(req.raw, ctx.options.bodyLimitBytes);
    if (read.kind === 'too-large') return sendPayloadTooLarge(res, read.limit);
    if (read.kind === 'aborted') return;
    if (!isJsonContentType(req.raw)) return sendError(res, 400, 'bad_request', 'Content-Type must be application/json');
    if (!read.text.trim()) return sendError(res, 400, 'bad_request', 'a JSON body is required');
    const parsed = parseJson(read.text);
    if (!parsed.ok) {
      if (fault('wda-malformed-json-500')) throw new SyntaxError(parsed.message);
      return sendError(res, 400, 'bad_request', `body is not valid JSON: ${parsed.message}`);
    }
    const validation = validateAddressRequest(parsed.value, directory, {
      hostIdUnchecked: fault('wda-malformed-uuid-accepted'),
      knownVaspRefused: fault('wda-known-vasp-rejected'),
    });
    if (!validation.ok) return bodyError(res, validation.message);
    const request = validation.value;
    if (fault('wda-omitted-field-500')) {
      // Trusts destination_tag to be present, as an implementation that forgot it is optional would.
      request.destinationTag = (parsed.value as { destination_tag: string }).destination_tag.trim();
    }
    if (fault('wda-owner-name-not-stored')) request.ownerLegalName = '';

    const now = new Date();
    const stored = book.add(userId, request, fault('wda-created-at-local-offset') ? atPlusTwoHours(now) : now.toISOString());
    const shown = fault('wda-id-not-uuid') ? { ...stored, id: `wa_${stored.id.replace(/-/g, '').slice(0, 16)}` } : stored;
    if (fault('wda-content-type-text')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ data: shown }));
      return;
    }
    sendJson(res, 200, { data: shown });
  });

  router.add('GET', '/reference/v1/users/:userId/withdrawal-addresses', async (req, res) => {
    if (!(await authenticate(ctx, req, res))) return;
    const userId = req.params.userId!.toLowerCase();
    if (!ctx.users.has(userId)) return sendError(res, 404, 'record_not_found', 'no user with this id');
    sendJson(res, 200, { data: book.of(userId) });
  });
}
