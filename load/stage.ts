// The load stage of `ptas run`: runs the 429 and 413 probes after the
// conformance checks. (Stub: the probes are not implemented yet.)
import type { ResolvedProfile } from '../src/config/profile.ts';
import type { CheckResult } from '../src/check/model.ts';
import type { LoadSection } from '../src/results/load-model.ts';

export interface LoadStageOptions {
  profile: ResolvedProfile;
  /** The target is the embedded reference (loopback): probes run by default with safe caps. */
  embeddedReference: boolean;
  signal?: AbortSignal;
  output: NodeJS.WritableStream;
}

export interface LoadStageResult {
  checks: CheckResult[];
  load?: LoadSection;
}

export async function runLoadStage(_options: LoadStageOptions): Promise<LoadStageResult> {
  return { checks: [] };
}
