// Each caught fault run against the basis table (test/selftest/fault-basis.ts):
// caught by a listed check on its listed basis, and no other check's finding
// beside it (a collateral finding blames a check the fault does not concern).
// The live self-test and the recorded corpus (test/support/corpus.ts) judge
// their fault runs by it alike.
import { FAULT_BASIS, type ExpectedCatch } from '../selftest/fault-basis.ts';
import type { Catch } from './selftest.ts';

/** What the judgment needs of one fault's run. */
export interface FaultRun {
  target: string;
  fault: { name: string };
  caught: boolean;
  catches: Catch[];
}

export const sameCatch = (a: ExpectedCatch, check: string, basis: string): boolean => a[0] === check && a[1] === basis;

export function judgeBases(faults: readonly FaultRun[]): { wrongBasis: string[]; collateral: string[] } {
  const wrongBasis: string[] = [];
  const collateral: string[] = [];
  for (const f of faults.filter((v) => v.caught)) {
    const expected = FAULT_BASIS[f.fault.name];
    const seen = f.catches.map((c) => `${c.check}=${c.verdict} on ${c.basis}`).join(', ');
    if (!expected) {
      wrongBasis.push(`${f.target}: no entry in fault-basis.ts (caught by ${seen})`);
      continue;
    }
    if (!f.catches.some((c) => expected.some((e) => sameCatch(e, c.check, c.basis)))) wrongBasis.push(`${f.target}: caught by ${seen}; expected ${expected.map((e) => `${e[0]} on ${e[1]}`).join(' or ')}`);
    for (const c of f.catches.filter((c) => !expected.some((e) => sameCatch(e, c.check, c.basis)))) collateral.push(`${f.target}: ${c.check}=${c.verdict} on ${c.basis}`);
  }
  return { wrongBasis, collateral };
}
