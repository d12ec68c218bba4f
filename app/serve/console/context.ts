// What the console's route modules share.
import type { ConsoleAssets } from './assets.ts';
import type { SessionStore } from './session.ts';
import type { AuditLog } from '../audit.ts';
import type { ServeServices } from '../services.ts';

export interface ConsoleContext {
  services: ServeServices;
  assets: ConsoleAssets;
  sessions: SessionStore;
  /** The lab's audit log, on `ptas serve`'s server. */
  audit?: AuditLog;
}
