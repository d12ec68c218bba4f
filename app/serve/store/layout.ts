// Where `ptas serve` keeps everything, under its --data directory:
//
//   implementations/<id>.json     ImplementationRecord (app/serve/contract.ts)
//   runs/<runId>/run.json         RunRecord
//   runs/<runId>/events.jsonl     the run's events, one JSON line each, for replay
//   runs/<runId>/waivers.json     the waiver file the run was given, if any
//   runs/<runId>/bundle/          the run's certification bundle: the outDir ptasRun writes
//   runs/<runId>/attempt/         a re-run's own bundle, which bundle/ joins to the earlier attempts
//   tokens.json                   API tokens, SHA-256 hashed
//   shares.json                   share links, SHA-256 hashed
//
// Every id is checked against its pattern before it becomes a path, so no id
// names a file outside the store.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** A run id: base64url of 16 random bytes (22 characters); the API accepts any id of this alphabet and length. */
export const ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
/** An implementation id (contract.ts): lower case, digits and dashes. */
export const IMPLEMENTATION_ID_PATTERN = '^[a-z0-9-]{1,64}$';
/** The implementation id of the bundled reference; no stored implementation may take it. */
export const REFERENCE_ID = 'reference';

const ID = new RegExp(ID_PATTERN);

export class StoreLayout {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.resolve(dataDir);
  }

  /** Creates the directories (0700: the store holds token hashes and profiles). */
  ensure(): void {
    for (const dir of [this.root, this.implementationsDir, this.runsDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  get implementationsDir(): string {
    return path.join(this.root, 'implementations');
  }

  get runsDir(): string {
    return path.join(this.root, 'runs');
  }

  get tokensFile(): string {
    return path.join(this.root, 'tokens.json');
  }

  get sharesFile(): string {
    return path.join(this.root, 'shares.json');
  }

  /** Who changed what, one JSON line per action (app/serve/audit.ts). */
  get auditFile(): string {
    return path.join(this.root, 'audit.jsonl');
  }

  /** The console's sessions, as hashes (app/serve/console/session.ts): a restart signs no one out. */
  get consoleSessionsFile(): string {
    return path.join(this.root, 'console-sessions.json');
  }

  implementationFile(id: string): string {
    return path.join(this.implementationsDir, `${safeId(id)}.json`);
  }

  runDir(runId: string): string {
    return path.join(this.runsDir, safeId(runId));
  }

  runFile(runId: string): string {
    return path.join(this.runDir(runId), 'run.json');
  }

  eventsFile(runId: string): string {
    return path.join(this.runDir(runId), 'events.jsonl');
  }

  waiversFile(runId: string): string {
    return path.join(this.runDir(runId), 'waivers.json');
  }

  bundleDir(runId: string): string {
    return path.join(this.runDir(runId), 'bundle');
  }

  /** A re-run's own attempt (app/serve/rerun.ts): the bundle of the checks it ran, which its bundle/ joins to the earlier attempts. */
  attemptDir(runId: string): string {
    return path.join(this.runDir(runId), 'attempt');
  }
}

/** The id, when it is one; a path separator, a dot-dot or anything else outside the alphabet is a bug upstream. */
export function safeId(id: string): string {
  if (!ID.test(id)) throw new Error(`not a store id: ${JSON.stringify(id)}`);
  return id;
}
