// What `ptas load` is asked to do: its own module, so that the single-run
// command (run-load.ts) and the distributed one (distributed.ts) share it
// without importing each other.
import type { Profile } from '../../src/config/profile.ts';
import type { ParamOverrides } from '../../load/scenarios/params.ts';

export interface LoadCommandOptions {
  scenario: string;
  engine: 'embedded' | 'k6';
  /** From file, environment and flags; without baseUrl the bundled reference is started. */
  profile: Profile;
  faults?: string[];
  overrides: ParamOverrides;
  maxInFlight?: number;
  /** Run the scenario on this many generators split by execution segment, and merge them (default 1: one generator). */
  instances?: number;
  /** JSON file for the result (default ptas-load/<scenario>.json). */
  out?: string;
  output: NodeJS.WritableStream;
  signal?: AbortSignal;
}
