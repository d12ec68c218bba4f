// A legitimate variant is a behaviour the spec allows that the reference does
// not show by default (README, "How the suite proves its verdicts hold"). Where a fault breaks exactly
// one requirement on purpose, a variant breaks none: the specificity
// self-test proves every check passes (at most WARN or REVIEW) on each.
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { ReferenceOptions } from '../options.ts';

export interface Variant {
  /** kebab-case name given to --variant. */
  name: string;
  area: 'auth' | 'users' | 'crypto-transfers' | 'trading' | 'webhooks' | 'load' | 'all';
  /** What the implementation does differently, in one sentence. */
  description: string;
  /** Why the spec allows it: the clause, or the "not shown" sentence, quoted or cited. */
  allowedBy: string;
  /** Variants that cannot be active together with this one (two answers to one question). */
  conflictsWith?: string[];
  /** Only the load stage observes it: the specificity self-test runs the load stage for it. */
  observedByLoad?: boolean;
  /**
   * The profile a certification team would write for the reference with this
   * variant, when it differs from the reference's own (e.g. a limit the
   * profile no longer documents). Most variants leave the profile alone.
   * options are the reference's, when the caller passes them (a shared
   * secret or header name the profile must repeat); without them, the defaults.
   */
  adjustProfile?: (profile: ResolvedProfile, options?: ReferenceOptions) => ResolvedProfile;
}
