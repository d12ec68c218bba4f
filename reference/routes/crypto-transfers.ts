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
// Legitimate variants (reference/variants/crypto-transfers.ts), each a choice
// the spec leaves open:
//   duplicate-address-refused  an address with the network, address and destination tag of one
//                              already in the user's address book is refused with 422;
//   directory-host-name        a KNOWN_VASP's host_name is the VASP directory's registered
//                              name, not the one sent (and may be left out);
//   owner-name-normalised      owner_legal_name is stored trimmed, whitespace collapsed,
//                              Unicode NFC, in upper case;
//   unknown-user-403           a svc-user-id naming no user is refused 403 (forbidden);
//   missing-user-header-400    no svc-user-id is refused 400 (bad request);
//   user-id-shape-unchecked    a svc-user-id that is not UUID-shaped is looked up like any
//                              other and refused as an unknown user;
//   lenient-scalar-types       "true"/"false" are read as user_owned's boolean, a number as
//                              the string field's decimal string;
//   user-id-header-renamed     the user id is read from x-partner-user-id (or
//                              options.userIdHeader), not svc-user-id (trading/svc-user-id.ts);
//   timestamps-iso8601-basic   created_at in ISO 8601 basic format with a decimal comma
//                              (20261127T090000,123Z).
//   refusal-500-listed         unparseable JSON is answered 500, and nothing is stored
//                              (reference/variants/server-errors.ts).
//
// Reference-only, outside the spec's paths: GET
// /reference/v1/users/{userId}/withdrawal-addresses lists a user's address
// book (the spec's "List external addresses" is not shown).
import type { ServerResponse } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { authenticate, authenticateUnless } from '../context.ts';
import { AddressBook } from '../crypto-transfers/address-book.ts';
import { validateAddressRequest, type AddressRequest } from '../crypto-transfers/address-request.ts';
import { seedDirectory, type Directory } from '../crypto-transfers/directory.ts';
import { isJsonContentType, parseJson, readBody, sendError, sendJson, sendPayloadTooLarge, type BodyResult } from '../http-util.ts';
import type { Router, RouteRequest } from '../router.ts';
import { basicFormat } from '../basic-format.ts';
import { readUserHeader, userIdHeaderName } from '../trading/svc-user-id.ts';

export const WITHDRAWAL_ADDRESS_ROUTE = '/v1/crypto-transfers/addresses/withdrawals';

/** How the owner-name-normalised variant stores a legal name: one canonical spelling, as travel-rule messages often carry it. */
function normalisedLegalName(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/g, ' ').toUpperCase();
}

/** An ISO 8601 timestamp of the same instant at UTC+02:00 (the wda-created-at-local-offset fault). */
function atPlusTwoHours(date: Date): string {
  return new Date(date.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
}

export function registerCryptoTransfersRoutes(router: Router, ctx: ReferenceContext): void {
  const addresses = new WithdrawalAddresses(ctx);
  router.add('POST', WITHDRAWAL_ADDRESS_ROUTE, (req, res) => addresses.create(req, res));
  router.add('GET', '/reference/v1/users/:userId/withdrawal-addresses', (req, res) => addresses.list(req, res));
}

class WithdrawalAddresses {
  private readonly directory: Directory;
  private readonly book = new AddressBook();
  /** svc-user-id, or its product-specific name (options.userIdHeader, user-id-header-renamed). */
  private readonly userHeader: string;

  constructor(private readonly ctx: ReferenceContext) {
    this.directory = seedDirectory(ctx.options.seed);
    this.userHeader = userIdHeaderName(ctx);
  }

  private fault(name: string): boolean {
    return this.ctx.faults.has(name);
  }

  private variant(name: string): boolean {
    return this.ctx.variants.has(name);
  }

  async create(req: RouteRequest, res: ServerResponse): Promise<void> {
    if (!(await authenticateUnless({ notRequired: 'wda-bearer-not-required', signatureUnchecked: 'wda-bearer-signature-unchecked' }, this.ctx, req, res))) return;
    const userId = this.userOf(req, res);
    if (!userId) return;

    const read = await readBody(req.raw, this.ctx.options.bodyLimitBytes);
    const request = this.addressRequest(req, res, read);
    if (!request) return;
    if (this.variant('duplicate-address-refused') && this.book.duplicateOf(userId, request)) {
      return sendError(res, 422, 'parameter_error', 'this address, with this destination tag, is already in the user\'s address book');
    }

    const stored = this.book.add(userId, request, this.createdAt());
    const shown = this.fault('wda-id-not-uuid') ? { ...stored, id: `wa_${stored.id.replace(/-/g, '').slice(0, 16)}` } : stored;
    if (this.fault('wda-content-type-text')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ data: shown }));
      return;
    }
    sendJson(res, 200, { data: shown });
  }

  async list(req: RouteRequest, res: ServerResponse): Promise<void> {
    if (!(await authenticate(this.ctx, req, res))) return;
    const userId = req.params.userId!.toLowerCase();
    if (!this.ctx.users.has(userId)) return sendError(res, 404, 'record_not_found', 'no user with this id');
    sendJson(res, 200, { data: this.book.of(userId) });
  }

  /** created_at of an address made now: in UTC as the reference's clock writes it, in basic format (with a decimal comma) under timestamps-iso8601-basic. */
  private createdAt(): string {
    const now = this.ctx.clock.now();
    if (this.fault('wda-created-at-local-offset')) return atPlusTwoHours(now);
    return this.variant('timestamps-iso8601-basic') ? basicFormat(this.ctx.clock.iso(now), { decimalSign: ',' }) : this.ctx.clock.iso(now);
  }

  /** The user the request acts for, or undefined once an error was answered. */
  private userOf(req: RouteRequest, res: ServerResponse): string | undefined {
    const { ctx, userHeader } = this;
    const header = readUserHeader(req.raw, userHeader);
    if (header.kind === 'missing') {
      if (this.fault('wda-user-header-optional')) return ctx.users.keys().next().value;
      if (this.variant('missing-user-header-400')) sendError(res, 400, 'bad_request', `the ${userHeader} header is required`);
      else sendError(res, 422, 'parameter_error', `the ${userHeader} header is required`);
      return undefined;
    }
    if (header.kind === 'malformed' && !this.variant('user-id-shape-unchecked')) {
      sendError(res, 422, 'parameter_error', `${userHeader} must be a user id (UUID)`);
      return undefined;
    }
    // A malformed id reaches here only under user-id-shape-unchecked, and names no user.
    const userId = header.kind === 'present' ? header.userId : undefined;
    if (userId === undefined || (!ctx.users.has(userId) && !this.fault('wda-unknown-user-accepted'))) {
      if (this.variant('unknown-user-403')) sendError(res, 403, 'forbidden', `${userHeader} names no user this client may act for`);
      else sendError(res, 404, 'record_not_found', `${userHeader} names no user`);
      return undefined;
    }
    return userId;
  }

  /** The address the body asks to add, as it will be stored, or undefined once an error was answered. */
  private addressRequest(req: RouteRequest, res: ServerResponse, read: BodyResult): AddressRequest | undefined {
    if (read.kind === 'too-large') return void sendPayloadTooLarge(res, read.limit);
    if (read.kind === 'aborted') return undefined;
    if (!isJsonContentType(req.raw)) return void sendError(res, 400, 'bad_request', 'Content-Type must be application/json');
    if (!read.text.trim()) return void sendError(res, 400, 'bad_request', 'a JSON body is required');
    const parsed = parseJson(read.text);
    if (!parsed.ok) {
      // refusal-500-listed: the parser's error escapes to the server's 500, before anything is stored.
      if (this.variant('refusal-500-listed')) throw new SyntaxError(parsed.message);
      return void sendError(res, 400, 'bad_request', `body is not valid JSON: ${parsed.message}`);
    }
    const validation = validateAddressRequest(parsed.value, this.directory, {
      hostIdUnchecked: this.fault('wda-malformed-uuid-accepted'),
      knownVaspRefused: this.fault('wda-known-vasp-rejected'),
      hostNameFromDirectory: this.variant('directory-host-name'),
      coerceScalars: this.variant('lenient-scalar-types'),
    });
    if (!validation.ok) return void sendError(res, this.fault('wda-parameter-error-409') ? 409 : 422, 'parameter_error', validation.message);
    const request = validation.value;
    if (this.fault('wda-omitted-field-500')) {
      // Trusts destination_tag to be present, as an implementation that forgot it is optional would.
      request.destinationTag = (parsed.value as { destination_tag: string }).destination_tag.trim();
    }
    if (this.fault('wda-owner-name-not-stored')) request.ownerLegalName = '';
    if (this.fault('wda-long-owner-name-truncated')) request.ownerLegalName = request.ownerLegalName.slice(0, 100);
    if (this.fault('wda-non-ascii-owner-name-mangled')) request.ownerLegalName = Buffer.from(request.ownerLegalName, 'utf8').toString('latin1');
    if (this.variant('owner-name-normalised')) request.ownerLegalName = normalisedLegalName(request.ownerLegalName);
    return request;
  }
}
