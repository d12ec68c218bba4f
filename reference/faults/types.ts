// A fault breaks exactly one requirement of schemas/requirements.json on
// purpose, so the self-test can prove the check covering it notices.
export interface Fault {
  /** kebab-case name given to --fault. */
  name: string;
  /** The requirement id this fault violates. */
  requirement: string;
  /** What the implementation does wrong, in one sentence. */
  description: string;
}
