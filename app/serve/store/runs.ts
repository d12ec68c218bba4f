// The runs: runs/<runId>/run.json (a RunRecord, written atomically at every
// change of status), the run's events (events.jsonl, appended one line per
// event, so a live view can be replayed after a restart), and its bundle
// (runs/<runId>/bundle/, written by ptasRun). The list is held in memory,
// read from the run.json files at start-up; a run folder without a readable
// run.json is indexed again from its bundle (rebuild-index.ts).
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { ImplementationRecord, RunEvent, RunRecord } from '../contract.ts';
import { readJsonFile, removeTemporaryFiles, writeJsonAtomic } from './atomic.ts';
import { safeId, type StoreLayout } from './layout.ts';
import { recordFromBundle } from './rebuild-index.ts';

export class RunStore {
  private readonly runs = new Map<string, RunRecord>();

  /** Reads the list; `implementations` attributes a run indexed again from its bundle. */
  constructor(
    private readonly layout: StoreLayout,
    implementations: () => readonly ImplementationRecord[] = () => [],
  ) {
    for (const runId of this.folders()) {
      removeTemporaryFiles(layout.runDir(runId));
      const stored = readJsonFile<RunRecord>(layout.runFile(runId));
      const record = stored ?? recordFromBundle(layout.bundleDir(runId), runId, implementations());
      if (!record) continue;
      if (!stored) writeJsonAtomic(layout.runFile(runId), record);
      this.runs.set(runId, record);
    }
  }

  /** The run folders: their names are run ids (anything else in runs/ is not ours). */
  private folders(): string[] {
    try {
      return readdirSync(this.layout.runsDir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .filter((name) => {
          try {
            return safeId(name) === name;
          } catch {
            return false;
          }
        });
    } catch {
      return [];
    }
  }

  /** Newest first. */
  list(filter: { implementation?: string } = {}): RunRecord[] {
    return [...this.runs.values()]
      .filter((run) => !filter.implementation || run.implementation === filter.implementation)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  }

  get(runId: string): RunRecord | undefined {
    return this.runs.get(runId);
  }

  save(record: RunRecord): void {
    mkdirSync(this.layout.runDir(record.id), { recursive: true, mode: 0o700 });
    writeJsonAtomic(this.layout.runFile(record.id), record);
    this.runs.set(record.id, record);
  }

  appendEvent(runId: string, event: RunEvent): void {
    appendFileSync(this.layout.eventsFile(runId), `${JSON.stringify(event)}\n`, { mode: 0o600 });
  }

  /** The events recorded for the run, in order; a line cut short by a crash is left out. */
  readEvents(runId: string): RunEvent[] {
    let text: string;
    try {
      text = readFileSync(this.layout.eventsFile(runId), 'utf8');
    } catch {
      return [];
    }
    const events: RunEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        events.push(JSON.parse(line) as RunEvent);
      } catch {
        // The last line of a server killed mid-write.
      }
    }
    return events;
  }

  bundleDir(runId: string): string {
    return this.layout.bundleDir(runId);
  }
}
