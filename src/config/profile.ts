// The implementation profile: a typed view of schemas/config.schema.json.
// The schema is the source of truth (the contract users write against);
// test/unit/profile-types.test.ts walks the Profile type below and the
// section types in src/config/sections/ alongside it and fails on any key,
// requirement or leaf kind the two do not share, so a key added to the schema
// needs its type here (and the reverse); test/unit/config.test.ts validates
// the reference's own profile against the schema.
import type { UsersProfile } from './sections/users.ts';
import type { CryptoTransfersProfile } from './sections/crypto-transfers.ts';
import type { TradingProfile } from './sections/trading.ts';
import type { WebhooksProfile } from './sections/webhooks.ts';
import type { LoadProfile } from './sections/load.ts';

export interface HttpProfile {
  timeoutMs?: number;
  maxResponseBytes?: number;
  ca?: string;
  cert?: string;
  key?: string;
  insecure?: boolean;
  /** The certifier's nonce: sent as the ptas-nonce header on every request, bound into manifest.json. */
  nonce?: string;
  /** A gateway, reverse proxy or WAF in front of the implementation (src/http/intermediary.ts). */
  intermediary?: Intermediary;
}

/** What the profile declares about an intermediary in front of the implementation: its pages WARN naming it instead of FAILing. */
export interface Intermediary {
  name: string;
  /** The error statuses it answers itself (default: 502, 503, 504). */
  statuses?: number[];
}

/** How a JWK Set is fetched: anonymously, with the partner's bearer token, or with one header. */
export type JwksAccess = 'none' | 'bearer' | { header: string; value: string };

export interface AuthProfile {
  jwksUrl?: string;
  jwksFile?: string;
  expiresInUnit?: 'seconds' | 'milliseconds';
  protectedPath?: string;
  concurrency?: number;
  /** How every JWK Set on the target is fetched (unset: anonymously, then with the bearer token on a 401). */
  jwksAccess?: JwksAccess;
  /** The client_id of a second registered client, for the check that a refresh token is bound to its client. */
  otherClientId?: string;
}

export interface Profile {
  /** The schema an editor completes and checks the file against (written by `ptas init`); the suite ignores it. */
  $schema?: string;
  name?: string;
  baseUrl?: string;
  credentials?: { clientId?: string; clientSecret?: string };
  /** The user-id header (spec 5 rule 4: svc-user-id); see userIdHeaderOf. */
  userIdHeader?: string;
  http?: HttpProfile;
  auth?: AuthProfile;
  users?: UsersProfile;
  cryptoTransfers?: CryptoTransfersProfile;
  trading?: TradingProfile;
  webhooks?: WebhooksProfile;
  load?: LoadProfile;
}

/** A profile after resolution: the target and the credentials are known. */
export interface ResolvedProfile extends Profile {
  baseUrl: string;
  credentials: { clientId: string; clientSecret: string };
}

export const HTTP_DEFAULTS = { timeoutMs: 10_000, maxResponseBytes: 8 * 1024 * 1024 } as const;

/** The spec's user-id header (5 rule 4), unless the profile names the edition's own. */
export const SPEC_USER_ID_HEADER = 'svc-user-id';

/** The header name that names the user an operation acts for, lower-case. */
export function userIdHeaderOf(profile: Pick<Profile, 'userIdHeader'>): string {
  return (profile.userIdHeader ?? SPEC_USER_ID_HEADER).toLowerCase();
}
