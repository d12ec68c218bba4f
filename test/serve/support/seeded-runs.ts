// Runs put into a `ptas serve` store before its server starts, as a store
// restored from a backup of its bundles holds them: each run's bundle (its
// report, results.json and manifest.json) under runs/<id>/bundle/, which the
// server indexes at start-up and attributes to the stored implementation the
// run names, or to the bundled reference (app/serve/store/rebuild-index.ts).
// Cheaper than real runs when a test needs runs with verdicts of its choice.
import { mkdirSync } from 'node:fs';
import { writeBundle } from '../../../app/certify/write-bundle.ts';
import type { ImplementationRecord } from '../../../app/serve/contract.ts';
import { ImplementationStore } from '../../../app/serve/store/implementations.ts';
import { StoreLayout } from '../../../app/serve/store/layout.ts';
import type { RunResults } from '../../../src/results/model.ts';
import { writeReport } from '../../../reports/write.ts';

export interface SeededRun {
  /** A store id (app/serve/store/layout.ts ID_PATTERN). */
  id: string;
  results: RunResults;
}

/** Stores the implementations, then writes each run's bundle into the store at `dataDir`. */
export function seedStore(dataDir: string, implementations: readonly ImplementationRecord[], runs: readonly SeededRun[]): void {
  const layout = new StoreLayout(dataDir);
  layout.ensure();
  const store = new ImplementationStore(layout);
  for (const implementation of implementations) store.save(implementation);
  for (const { id, results } of runs) {
    const dir = layout.bundleDir(id);
    mkdirSync(dir, { recursive: true });
    writeReport(results, dir);
    writeBundle({ dir, results, profile: { salt: 'x', hashedSecrets: [], content: { name: results.run.implementation } }, tlsCertificateSha256: null, requiredChecks: [] });
  }
}

/** An implementation record of a seeded store: its profile names a sandbox the tests never reach. */
export function seededImplementation(id: string, name: string): ImplementationRecord {
  return { id, name, profileText: '{"baseUrl": "https://sandbox.acme.example"}', createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z' };
}
