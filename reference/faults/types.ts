// A fault breaks exactly one requirement of schemas/requirements.json on
// purpose, so the self-test can prove the check covering it notices.
export interface Fault {
  /** kebab-case name given to --fault. */
  name: string;
  /** The requirement id this fault violates. */
  requirement: string;
  /** What the implementation does wrong, in one sentence. */
  description: string;
  /**
   * The profile keys (dotted paths) the covering check needs beyond what
   * `ptas init --yes` writes, when the fault must be caught without the
   * declarations of the reference's full profile: the self-test then also
   * runs it under a profile of only these keys (test/support/minimal-profile.ts).
   */
  minimalProfile?: string[];
  /**
   * A defect no hand-written check names, only a generated case shows (explore/),
   * and why the hand-written checks miss it: the self-test of the hand-written
   * checks leaves it out (test/support/selftest.ts), test/explore/ proves they
   * stay CONFORMANT on it and that exploration alone finds it.
   */
  unnamed?: string;
}
