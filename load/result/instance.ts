// What makes a normalized result one instance of a distributed run: the
// execution segment it ran (k6's --execution-segment within its
// --execution-segment-sequence) and what all instances of one run must
// share — the scenario's plan at full size, the target, the thresholds and
// the criteria of the analysis — so `ptas load merge` can refuse instances
// that do not belong together, and judge the merged run as one. Its phases
// carry their latency as HDR histograms (PhaseResult.histograms); its
// startedAt is the origin of its phases, time series and completion timeline.
import type { ArrivalExecutor, OperationName, Thresholds } from '../scenarios/types.ts';

export interface InstanceInfo {
  /** This instance's share of every phase: "1/4:1/2". */
  segment: string;
  /** The cut every instance of the run shares: "0,1/4,1/2,3/4,1". */
  sequence: string;
  /** Where the load went (the base URL). */
  target: string;
  kind: 'rate-breakpoint' | 'profile';
  operation: OperationName;
  /** The scenario's phases at full size (k6 scenarios), before the segment took its share. */
  plan: Record<string, ArrivalExecutor>;
  /** The scenario's thresholds: judged on the merged run, never per instance. */
  thresholds: Thresholds;
  /** A staircase's criteria: its cap and the limit the profile documents. */
  criteria?: { capRps: number; expectedRps?: number; expectedRpsKey?: string; burst?: number; maxServerErrorShare?: number };
}
