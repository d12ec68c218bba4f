// How to reach the implementation under test: where it answers, who we are
// to it, and the bounds and TLS every exchange is held to. Decided once, from
// the resolved profile (file, PTAS_* environment and flags: src/config/load.ts),
// by connectionOf; the HTTP client's pool (client.ts), the load engines'
// sockets (load/engine, load/probes), ptas doctor and the load stage all take
// it from here, so no two of them can disagree on a default or on what the
// profile asked for. The CA bundle and client certificate are read here, once.
import { readFileSync } from 'node:fs';
import { HTTP_DEFAULTS, userIdHeaderOf, type HttpProfile, type ResolvedProfile } from '../config/profile.ts';
import { NONCE_HEADER } from '../certify/nonce.ts';
import { stringPlaces } from '../config/secret-places.ts';
import { Redactor } from './redact.ts';

export interface TlsMaterial {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  rejectUnauthorized?: boolean;
}

export interface Connection {
  baseUrl: string;
  credentials: { clientId: string; clientSecret: string };
  /** The header naming the user an operation acts for, lower-case (spec 5 rule 4, or the profile's userIdHeader). */
  userIdHeader: string;
  /** Per-request time limit. */
  timeoutMs: number;
  /** Cap on a response body the client reads. */
  maxResponseBytes: number;
  /** The TLS material the profile names; undefined when it names none (the platform's defaults apply). */
  tls?: TlsMaterial;
  /** Certificate verification switched off (--insecure): recorded in the report. */
  insecure: boolean;
  /** Headers every request of the run carries: the certifier's nonce (src/certify/nonce.ts NONCE_HEADER), when given. */
  runHeaders: Record<string, string>;
  /** Every other value at a place of the profile that holds a secret (another client's secret, a shared secret, a key sent as a header), with its label. */
  profileSecrets?: Array<[value: string, label: string]>;
}

/** What a sender of raw requests (the load engines, the size probe) needs of a connection. */
export type SocketTarget = Pick<Connection, 'baseUrl' | 'timeoutMs' | 'tls' | 'runHeaders'>;

export function connectionOf(profile: ResolvedProfile): Connection {
  return {
    baseUrl: profile.baseUrl,
    credentials: profile.credentials,
    userIdHeader: userIdHeaderOf(profile),
    timeoutMs: profile.http?.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    maxResponseBytes: profile.http?.maxResponseBytes ?? HTTP_DEFAULTS.maxResponseBytes,
    tls: tlsMaterial(profile.http),
    insecure: profile.http?.insecure ?? false,
    runHeaders: profile.http?.nonce ? { [NONCE_HEADER]: profile.http.nonce } : {},
    profileSecrets: profileSecretsOf(profile),
  };
}

/** "users.ownLicence.clientSecret" → "client_secret"; "…headers.x-partner-token" → "x_partner_token": the marker's label and the curl line's $PLACEHOLDER. */
function labelOf(keyPath: string): string {
  const key = keyPath.split('.').at(-1)!.replace(/\[\d+\]$/, '');
  return key.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
}

function profileSecretsOf(profile: ResolvedProfile): Array<[string, string]> {
  return stringPlaces(profile)
    .filter((place) => place.secret && place.keyPath !== 'credentials.clientSecret')
    .map((place): [string, string] => [place.value, labelOf(place.keyPath)]);
}

export function socketTarget({ baseUrl, timeoutMs, tls, runHeaders }: Connection): SocketTarget {
  return { baseUrl, timeoutMs, tls, runHeaders };
}

/** Redacts the connection's client secret, and every other secret its profile holds, wherever it would be shown (evidence, reports, result files). */
export function secretRedactor(connection: Pick<Connection, 'credentials' | 'profileSecrets'>): Redactor {
  return new Redactor([[connection.credentials.clientSecret, 'client_secret'], ...(connection.profileSecrets ?? [])]);
}

function tlsMaterial(http: HttpProfile | undefined): TlsMaterial | undefined {
  if (!http || (!http.ca && !http.cert && !http.key && !http.insecure)) return undefined;
  const read = (file?: string) => (file ? readFileSync(file) : undefined);
  return { ca: read(http.ca), cert: read(http.cert), key: read(http.key), rejectUnauthorized: !http.insecure };
}
