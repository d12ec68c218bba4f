// Verdict counts that tolerate verdicts this version does not know: a
// results.json written by a newer ptas (or one with waivers, WAIVED) is still
// counted and shown, never dropped or a crash. Known verdicts come first, in
// the policy's order (src/check/model.ts VERDICTS), always present; others
// follow in the order they were first seen.
import { VERDICTS } from '../src/check/model.ts';

export interface VerdictCount {
  verdict: string;
  count: number;
}

export function tallyVerdicts(checks: ReadonlyArray<{ verdict: string }>): VerdictCount[] {
  const counts = new Map<string, number>(VERDICTS.map((v) => [v, 0]));
  for (const check of checks) counts.set(check.verdict, (counts.get(check.verdict) ?? 0) + 1);
  return [...counts].map(([verdict, count]) => ({ verdict, count }));
}

/** True for a verdict outside the policy this version knows. */
export function isKnownVerdict(verdict: string): boolean {
  return (VERDICTS as readonly string[]).includes(verdict);
}
