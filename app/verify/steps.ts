// One thing `ptas verify` checked, and what it found.
export interface VerifyStep {
  name: string;
  ok: boolean;
  detail: string;
}
