// The user-id header `svc-user-id` (spec 5 rule 4) that names the user an
// operation acts for. Shared by the withdrawal-address, accept-offer and
// offer-status routes; each decides which status an absent or unknown user
// gets. Some editions of the deployed API name it differently (REAL-API-NOTES,
// "user-id header"): options.userIdHeader, or the user-id-header-renamed
// variant, renames it everywhere it is read (the new name: renamed-user-header.ts).
import type { IncomingMessage } from 'node:http';
import type { ReferenceContext } from '../context.ts';
import { UUID_SHAPE } from '../fixtures/ids.ts';
import { SPEC_USER_ID_HEADER } from '../options.ts';
import { renamedUserHeader } from './renamed-user-header.ts';

/** The header this reference reads the user id from, lower-case. */
export function userIdHeaderName(ctx: Pick<ReferenceContext, 'options' | 'variants'>): string {
  const configured = ctx.options.userIdHeader.toLowerCase();
  if (configured !== SPEC_USER_ID_HEADER || !ctx.variants.has('user-id-header-renamed')) return configured;
  return renamedUserHeader(ctx.options);
}

export type UserHeader = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'present'; userId: string };

export function readUserHeader(req: IncomingMessage, name: string = SPEC_USER_ID_HEADER): UserHeader {
  const raw = req.headers[name.toLowerCase()];
  // Node joins repeated headers with ", "; two user ids are no user id.
  const value = Array.isArray(raw) ? raw.join(', ') : raw?.trim();
  if (!value) return { kind: 'missing' };
  if (!UUID_SHAPE.test(value)) return { kind: 'malformed' };
  return { kind: 'present', userId: value.toLowerCase() };
}
