// What a token may do (issue 30 item 7). Each token has a role; each has what
// the one below it has:
//   viewer     reads: implementations, runs, events, reports, bundles, share lists;
//   certifier  runs: starts and cancels runs, Checks a profile, decides REVIEW checks, shares and revokes share links;
//   admin      edits: implementations (their profiles), and reads the audit log.
// Tokens made before roles existed are admin, as they could do everything.
// A request is held to its route's role (API: api/roles.ts; console: each
// route's config) before its handler runs: 403 naming the role it needs.
import { ServeError } from './errors.ts';

export const ROLES = ['viewer', 'certifier', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The role of a token stored without one. */
export const DEFAULT_ROLE: Role = 'admin';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `needed` may. */
export function allows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

/** Refuses (403 forbidden) a request whose token's role is below `needed`. */
export function requireRole(role: Role, needed: Role, what: string): void {
  if (!allows(role, needed)) throw new ServeError('forbidden', `this token's role is ${role}; ${what} needs ${needed} (ptas serve token create --role ${needed})`);
}
