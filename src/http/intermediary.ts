// The intermediary a profile declares in front of the implementation
// (http.intermediary: a gateway, reverse proxy or WAF). The base URL is the
// system under test, so without a declaration every answer received there is
// the implementation's, a proxy's page included; with one, a page on a status
// it answers itself is its own, and the finding about it is at most a WARN
// that names it (README "Verdicts").
import type { Intermediary } from '../config/profile.ts';

/** The profile key findings about the intermediary name. */
export const INTERMEDIARY_KEY = 'http.intermediary';

/** What an intermediary answers itself when the profile lists nothing: the gateway statuses. */
export const DEFAULT_INTERMEDIARY_STATUSES: readonly number[] = [502, 503, 504];

/** The statuses the declared intermediary answers itself. */
export function intermediaryStatuses(intermediary: Intermediary): readonly number[] {
  return intermediary.statuses ?? DEFAULT_INTERMEDIARY_STATUSES;
}

/** Is `status` one the declared intermediary (if any) answers itself? */
export function answeredByIntermediary(intermediary: Intermediary | undefined, status: number): boolean {
  return intermediary !== undefined && intermediaryStatuses(intermediary).includes(status);
}

/** How a finding names it: `the declared intermediary "nginx" (http.intermediary: 502, 503, 504)`. */
export function describeIntermediary(intermediary: Intermediary): string {
  return `the declared intermediary "${intermediary.name}" (${INTERMEDIARY_KEY}: ${intermediaryStatuses(intermediary).join(', ')})`;
}
