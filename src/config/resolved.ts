// A profile a command can act on: it names its target and both halves of the
// client's credentials. `ptas run` and `ptas doctor` demand the same, in the same words.
import { ConfigError } from './errors.ts';
import type { Profile, ResolvedProfile } from './profile.ts';

export function requireResolved(profile: Profile): ResolvedProfile {
  if (!profile.baseUrl) throw new ConfigError('no base URL: pass --base-url, set PTAS_BASE_URL, or set baseUrl in the config file');
  const { clientId, clientSecret } = profile.credentials ?? {};
  if (!clientId) throw new ConfigError('missing credentials.clientId: pass --client-id, set PTAS_CLIENT_ID, or set credentials.clientId in the config file', '/credentials/clientId');
  if (!clientSecret) {
    throw new ConfigError('missing credentials.clientSecret: set PTAS_CLIENT_SECRET, or credentials.clientSecret ("env:NAME" to read it from the environment)', '/credentials/clientSecret');
  }
  return profile as ResolvedProfile;
}
