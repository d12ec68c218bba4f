// The token a console session acts for, as the session keeps it: its name
// and when it was made, so that a token made again under a revoked one's
// name (names are reused) does not revive the old one's sessions.
import type { ServeServices } from '../services.ts';
import type { TokenInfo } from '../tokens.ts';
import type { TokenRecord } from './session.ts';

const tokenId = (token: TokenInfo): string => `${token.name}@${token.createdAt}`;

/** The live token a sign-in gave, as its session keeps it; undefined for a wrong, revoked or expired one. */
export function sessionToken(tokens: ServeServices['tokens'], token: string): TokenRecord | undefined {
  const verified = tokens.verify(token);
  const made = verified && tokens.list().find((t) => t.name === verified.name && tokens.isLive(t));
  return made && { id: tokenId(made), label: made.name, role: made.role };
}

/** Whether the token a session signed in with still works: once it is revoked, its sessions end at their next request, as the API refuses it at once. */
export function sessionTokenIsLive(tokens: ServeServices['tokens'], token: TokenRecord): boolean {
  return tokens.list().some((t) => tokens.isLive(t) && tokenId(t) === token.id);
}
