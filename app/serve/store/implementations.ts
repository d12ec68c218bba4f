// The implementations under certification: one file each,
// implementations/<id>.json (an ImplementationRecord), written atomically.
import { readdirSync, rmSync } from 'node:fs';
import type { ImplementationRecord } from '../contract.ts';
import { readJsonFile, removeTemporaryFiles, writeJsonAtomic } from './atomic.ts';
import type { StoreLayout } from './layout.ts';

export class ImplementationStore {
  constructor(private readonly layout: StoreLayout) {
    removeTemporaryFiles(layout.implementationsDir);
  }

  list(): ImplementationRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.layout.implementationsDir);
    } catch {
      return [];
    }
    return names
      .filter((name) => name.endsWith('.json'))
      .map((name) => this.get(name.slice(0, -'.json'.length)))
      .filter((record): record is ImplementationRecord => record !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  get(id: string): ImplementationRecord | undefined {
    try {
      return readJsonFile<ImplementationRecord>(this.layout.implementationFile(id));
    } catch {
      return undefined;
    }
  }

  save(record: ImplementationRecord): void {
    writeJsonAtomic(this.layout.implementationFile(record.id), record);
  }

  remove(id: string): boolean {
    const existed = this.get(id) !== undefined;
    rmSync(this.layout.implementationFile(id), { force: true });
    return existed;
  }
}
