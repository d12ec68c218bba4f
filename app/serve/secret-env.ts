// Which of the server's environment variables a stored profile may read as a
// secret (`ptas serve --secret-env NAME|PREFIX*`). A token holder writes the
// profiles, and a profile's secrets are sent to the host it names: without
// this list, any token could have the server send any of its variables (a
// cloud key, another service's password) to a host of the token holder's
// choosing. Nothing is allowed unless the operator says so; a run can always
// bring its own values ("secrets" with the run), which need no allowance.
import { ConfigError } from '../../src/config/errors.ts';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class SecretEnvPolicy {
  private readonly names = new Set<string>();
  private readonly prefixes: string[] = [];

  /** Entries as --secret-env takes them: a variable's name, or a prefix ending in * ("ACME_*"). */
  constructor(readonly entries: readonly string[] = []) {
    for (const entry of entries) {
      const prefix = entry.endsWith('*') ? entry.slice(0, -1) : undefined;
      if (prefix !== undefined ? !NAME.test(prefix) : !NAME.test(entry)) {
        throw new ConfigError(`--secret-env ${entry}: expected an environment variable's name (PTAS_CLIENT_SECRET) or a prefix ending in * (ACME_*)`);
      }
      if (prefix !== undefined) this.prefixes.push(prefix);
      else this.names.add(entry);
    }
  }

  allows(name: string): boolean {
    return this.names.has(name) || this.prefixes.some((prefix) => name.startsWith(prefix));
  }

  /** The value a profile may read: from the run's own values first, then from the environment if the name is allowed. */
  valueOf(name: string, env: NodeJS.ProcessEnv, given: Record<string, string> = {}): string | undefined {
    if (Object.hasOwn(given, name)) return given[name];
    return this.allows(name) ? env[name] : undefined;
  }

  /** For the operator's banner: each entry and how many of the variables it allows are set (never their values). */
  describe(env: NodeJS.ProcessEnv): string {
    if (!this.entries.length) return 'none (a run gives its own with "secrets"; --secret-env NAME lets profiles read NAME from this environment)';
    return this.entries
      .map((entry) => {
        if (!entry.endsWith('*')) return `${entry} (${env[entry] ? 'set' : 'not set'})`;
        const set = Object.keys(env).filter((name) => this.allows(name) && name.startsWith(entry.slice(0, -1)) && env[name]).length;
        return `${entry} (${set} set)`;
      })
      .join(', ');
  }
}
