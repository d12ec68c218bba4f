// How the page orders and names checks: areas in the spec's order, problems
// first, and the anchors that links to a check follow.
import type { Verdict } from '../../../src/check/model.ts';
import { anchorId } from './dom.ts';

const AREA_ORDER = ['auth', 'users', 'crypto-transfers', 'trading', 'webhooks', 'errors', 'load'];
/** The filter chips, in the banner's order. */
export const VERDICTS: Verdict[] = ['PASS', 'FAIL', 'WARN', 'REVIEW', 'SKIP', 'ERROR', 'WAIVED', 'FLAKY'];
/** The order of the checks within an area: problems first. */
export const VERDICT_ORDER: Verdict[] = ['ERROR', 'FAIL', 'FLAKY', 'WAIVED', 'WARN', 'REVIEW', 'SKIP', 'PASS'];

/** Which check of which target: a check runs once per target. */
export interface CheckRef {
  target: string;
  id: string;
}

export function checkKey(check: CheckRef): string {
  return `${check.target}/${check.id}`;
}

export function checkAnchor(check: CheckRef, multiTarget: boolean): string {
  return anchorId('check', multiTarget ? `${check.target}--${check.id}` : check.id);
}

export function areasOf(checks: ReadonlyArray<{ area: string }>): string[] {
  const present = [...new Set(checks.map((c) => c.area))];
  return present.sort((a, b) => {
    const ia = AREA_ORDER.indexOf(a);
    const ib = AREA_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
}
