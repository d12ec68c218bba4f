// What exploring one target needs, made once: its profile, its connection
// and pool, the redactor of its secrets and its access-token cache (the same
// parts a check's worker holds: runner/target-resources.ts).
import type { ResolvedProfile } from '../src/config/profile.ts';
import { closeTransport, createTransport, HttpClient, type TransportSettings } from '../src/http/client.ts';
import { connectionOf, secretRedactor, type Connection } from '../src/http/connection.ts';
import type { Redactor } from '../src/http/redact.ts';
import { AccessTokenCache } from '../src/auth/tokens.ts';

export interface ExploreTarget {
  profile: ResolvedProfile;
  connection: Connection;
  transport: TransportSettings;
  redactor: Redactor;
  tokens: AccessTokenCache;
  /** Runs `closer` when the target is closed: what a model started for this target lives as long as it (a webhook hub). */
  onClose(closer: () => Promise<void>): void;
  close(): Promise<void>;
}

export function exploreTarget(profile: ResolvedProfile): ExploreTarget {
  const connection = connectionOf(profile);
  const transport = createTransport(connection);
  const redactor = secretRedactor(connection);
  const tokens = new AccessTokenCache(HttpClient.to(connection, { transport, redactor }), profile);
  const closers: Array<() => Promise<void>> = [];
  return {
    profile,
    connection,
    transport,
    redactor,
    tokens,
    onClose: (closer) => void closers.push(closer),
    close: async () => {
      for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
      await closeTransport(transport, 'destroy');
    },
  };
}
