// The TLS material a profile's http section names (CA bundle, client
// certificate and key for mTLS, verification switched off), read once. The
// HTTP client's connection pool (client.ts) and the load engines' sockets
// (load/stage, app/load) take it from here, so the two cannot disagree on
// what the profile asked for.
import { readFileSync } from 'node:fs';
import type { HttpProfile } from '../config/profile.ts';

export interface TlsMaterial {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  rejectUnauthorized?: boolean;
}

/** The profile's TLS material, or undefined when it names none (the platform's defaults apply). */
export function tlsMaterial(http: HttpProfile | undefined): TlsMaterial | undefined {
  if (!http || (!http.ca && !http.cert && !http.key && !http.insecure)) return undefined;
  const read = (file?: string) => (file ? readFileSync(file) : undefined);
  return { ca: read(http.ca), cert: read(http.cert), key: read(http.key), rejectUnauthorized: !http.insecure };
}
