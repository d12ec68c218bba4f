// The user-id header `svc-user-id` (spec 5 rule 4) that names the user an
// operation acts for. Shared by the withdrawal-address and accept-offer
// routes; each decides which status an absent or unknown user gets.
import type { IncomingMessage } from 'node:http';
import { UUID_SHAPE } from '../fixtures/ids.ts';

export const USER_HEADER = 'svc-user-id';

export type UserHeader = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'present'; userId: string };

export function readUserHeader(req: IncomingMessage): UserHeader {
  const raw = req.headers[USER_HEADER];
  // Node joins repeated headers with ", "; two user ids are no user id.
  const value = Array.isArray(raw) ? raw.join(', ') : raw?.trim();
  if (!value) return { kind: 'missing' };
  if (!UUID_SHAPE.test(value)) return { kind: 'malformed' };
  return { kind: 'present', userId: value.toLowerCase() };
}
