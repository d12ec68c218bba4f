// What the checks of one target share inside a worker: its profile and
// connection, one connection pool, the redactor of its secret and its access
// token cache. A worker serves every target of the run (runner/run-targets.ts),
// so these are made when a check of the target first needs them and closed
// when the worker ends.
import type { ResolvedProfile } from '../src/config/profile.ts';
import { closeTransport, createTransport, HttpClient, type TransportSettings } from '../src/http/client.ts';
import { connectionOf, secretRedactor, type Connection } from '../src/http/connection.ts';
import type { Redactor } from '../src/http/redact.ts';
import { AccessTokenCache } from '../src/auth/tokens.ts';
import type { RunTarget } from './run-targets.ts';
import { readRunSettings } from './settings.ts';

export interface TargetResources {
  /** The target's name in this run (unique; profiles of two targets may share a name). */
  targetName: string;
  profile: ResolvedProfile;
  connection: Connection;
  transport: TransportSettings;
  redactor: Redactor;
  tokens: AccessTokenCache;
}

export class TargetResourcePool {
  private readonly made = new Map<string, TargetResources>();
  private targets?: Map<string, RunTarget>;

  constructor(private readonly readTargets: () => RunTarget[] = () => readRunSettings().targets) {}

  of(name: string): TargetResources {
    const existing = this.made.get(name);
    if (existing) return existing;
    this.targets ??= new Map(this.readTargets().map((t) => [t.name, t]));
    const target = this.targets.get(name);
    if (!target) throw new Error(`no target named ${name}: the run's settings name no such target`);
    const connection = connectionOf(target.profile);
    const transport = createTransport(connection);
    const redactor = secretRedactor(connection);
    const tokens = new AccessTokenCache(HttpClient.to(connection, { transport, redactor }), target.profile);
    const resources = { targetName: name, profile: target.profile, connection, transport, redactor, tokens };
    this.made.set(name, resources);
    return resources;
  }

  /**
   * Ends every connection, a request still in flight with it: the worker is
   * ending (its checks are done, or the run was stopped), and a request the
   * implementation never answers must not hold a stopped run until its time
   * limit (closing instead waits for it).
   */
  async close(): Promise<void> {
    await Promise.all([...this.made.values()].map((r) => closeTransport(r.transport, 'destroy')));
    this.made.clear();
  }
}
