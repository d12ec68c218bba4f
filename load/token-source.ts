// The suite's own access token for a load run (ptas load, one instance of a
// distributed run): renewed before it runs out and after a 401 to it
// (src/auth/tokens.ts), because a run, a staircase and its recovery step can
// outlast a token's lifetime; the engine prepares its requests again with the
// renewed one (EngineOptions.accessToken). Its token requests go over a
// connection of their own, closed with it, and are not measured.
import { AccessTokenCache } from '../src/auth/tokens.ts';
import type { ResolvedProfile } from '../src/config/profile.ts';
import { closeTransport, createTransport, HttpClient } from '../src/http/client.ts';
import type { Connection } from '../src/http/connection.ts';
import { Redactor } from '../src/http/redact.ts';

export interface LoadTokenSource {
  source: AccessTokenCache;
  close(): Promise<void>;
}

/** A renewing source, holding its first token already (a target that issues none fails here, before the run). */
export async function loadTokenSource(profile: ResolvedProfile, connection: Connection): Promise<LoadTokenSource> {
  const transport = createTransport(connection);
  const source = new AccessTokenCache(HttpClient.to(connection, { transport, redactor: new Redactor() }), profile);
  try {
    await source.current();
  } catch (error) {
    await closeTransport(transport);
    throw error;
  }
  return { source, close: () => closeTransport(transport) };
}
