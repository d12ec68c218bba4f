// What the launcher (embedded-instances.ts) tells one embedded-engine
// instance process (instance-process.ts), by a 0600 file in a private
// directory: everything but the client secret, which goes by environment
// (PTAS_CLIENT_SECRET) as it does to k6.
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { InstanceInfo } from '../result/instance.ts';
import type { LoadScenario } from '../scenarios/types.ts';

export interface InstanceSpec {
  /** The scenario as built once by the launcher, so every instance runs the same plan. */
  scenario: LoadScenario;
  /** The profile, its client secret left out. */
  profile: ResolvedProfile;
  info: InstanceInfo;
  /** The run's in-flight bound (the instance keeps its share). */
  maxInFlight?: number;
  /** Where the instance writes its result (an InstanceRun). */
  resultPath: string;
  /** When set, every measured answer is also written here, one JSON line each (AnswerSample): to check a merge against the raw samples. */
  rawSamplesPath?: string;
}

/** The launcher's messages on the instance's stdin, and the instance's on its stdout: one JSON line each. */
export type InstanceMessage = { event: 'ready' } | { event: 'start'; atMs: number } | { event: 'done' };
