// How ptas starts a k6 process, whether one (run-k6.ts) or several split by
// execution segment (instances.ts): the -e variables of the scripts
// (load/k6/lib/config.ts), the profile by file without its secret, the
// secret by environment — never in argv, where ps shows it — and the
// certifier's nonce by -e PTAS_NONCE, so k6 sends it on every request as
// the other senders do.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Profile } from '../../src/config/profile.ts';
import type { Connection } from '../../src/http/connection.ts';
import { NONCE_HEADER } from '../../src/certify/nonce.ts';
import type { ParamOverrides } from '../scenarios/params.ts';

export interface K6Invocation {
  script: string;
  scenario: string;
  profile: Profile;
  overrides: ParamOverrides;
  maxInFlight?: number;
  /** The time limit, TLS verification and run headers (the nonce) every request of the script keeps (src/http/connection.ts). */
  connection: Pick<Connection, 'timeoutMs' | 'insecure'> & Partial<Pick<Connection, 'runHeaders'>>;
  /** Extra -e variables (PTAS_MAX_BYTES for the body-size script). */
  extraEnv?: Record<string, string>;
}

/** The profile as the script reads it (PTAS_PROFILE): the client secret replaced by a reference to PTAS_CLIENT_SECRET. */
export function shareableProfile(profile: Profile): Profile {
  const { credentials, ...rest } = profile;
  return { ...rest, credentials: credentials ? { clientId: credentials.clientId, clientSecret: 'env:PTAS_CLIENT_SECRET' } : undefined };
}

/** The -e variables of a run; undefined ones are left out. */
export function k6Variables(invocation: K6Invocation, files: { profile: string; result: string }): Record<string, string> {
  const { overrides, connection } = invocation;
  const vars: Record<string, string | number | undefined> = {
    PTAS_SCENARIO: invocation.scenario,
    PTAS_PROFILE: files.profile,
    PTAS_RESULT: files.result,
    PTAS_MAX_RPS: overrides.capRps,
    PTAS_MAX_DURATION: overrides.maxDurationSec,
    PTAS_RATE: overrides.targetRps,
    PTAS_EXPECTED_RPS: overrides.expectedRps,
    PTAS_BURST: overrides.burst,
    PTAS_MAX_IN_FLIGHT: invocation.maxInFlight,
    PTAS_TIMEOUT: `${connection.timeoutMs}ms`,
    PTAS_INSECURE: connection.insecure ? '1' : undefined,
    PTAS_NONCE: connection.runHeaders?.[NONCE_HEADER],
    ...invocation.extraEnv,
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) out[k] = String(v);
  return out;
}

/** `k6 run` arguments: the given flags, the -e variables, the script last. */
export function k6Args(flags: string[], vars: Record<string, string>, script: string): string[] {
  return ['run', ...flags, ...Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]), script];
}

/** The environment of the k6 process: the secret, no dashboard, no usage report. */
export function k6Environment(profile: Profile): NodeJS.ProcessEnv {
  return { ...process.env, PTAS_CLIENT_SECRET: profile.credentials?.clientSecret ?? '', K6_WEB_DASHBOARD: 'false', K6_NO_USAGE_REPORT: 'true' };
}

/** Writes the shareable profile into dir (a private scratch directory) and returns its path. */
export function writeProfileFile(dir: string, profile: Profile): string {
  const file = path.join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify(shareableProfile(profile)), { mode: 0o600 });
  return file;
}
