// A condition is how real deployments behave around a correct implementation:
// infrastructure in front of it (latency, closed connections, a proxy,
// transient 503/429 answers) and timing (slow webhooks, long processing,
// whole-second clocks, deterministic tokens). Where a fault breaks one
// requirement and a variant reads a gap of the spec differently, a condition
// breaks none: the reference stays a correct implementation under each, so
// the suite must still find it CONFORMANT.
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { ReferenceOptions } from '../options.ts';

/** The spec areas whose answers a condition changes. */
export type ConditionArea = 'auth' | 'users' | 'crypto-transfers' | 'trading' | 'webhooks' | 'load';

export interface Condition {
  /** kebab-case name given to --condition. */
  name: string;
  /** What the reference does under it, with its numbers, in one or two sentences. */
  description: string;
  /** The areas whose answers it changes; 'all' for what sits in front of every operation. */
  touches: ConditionArea[] | 'all';
  /** The load stage would see it (a token that runs out mid-staircase): the self-test runs the load stage under it alone. */
  observedByLoad?: boolean;
  /**
   * It only stretches the reference's waits past its defaults (the profile
   * declares the longer ones): the self-test proves it alone, on the areas it
   * touches, and leaves it out of conditions:all. Alone is the stronger proof
   * of a wait: in combination, latency starts the suite's clock later than
   * the event and can hide a wait cut short. Combined, it would only lay its
   * seconds over every check (in conditions:all, slow webhooks and the 65 s
   * poll were about 210 of its 450 worker-seconds).
   */
  stretchesWaitsOnly?: boolean;
  /**
   * The profile a certification team would write for the reference under this
   * condition, when it differs from the reference's own (a longer wait the
   * profile must declare). Most conditions leave the profile alone. options
   * are the reference's, when the caller passes them; without them, the defaults.
   */
  adjustProfile?: (profile: ResolvedProfile, options?: ReferenceOptions) => ResolvedProfile;
}
