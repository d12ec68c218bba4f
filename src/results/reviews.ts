// A reviewer's decisions on a run's REVIEW checks (issue 30 item 7): for
// each, accepted or rejected, with a note, who decided and when. They are
// kept with the run, in its bundle as reviews.json (listed in the manifest,
// so ptas verify holds them to their hashes), and shown in its report. A
// decision qualifies nothing in the verdict the suite gave: it records what a
// person concluded where the spec left the judgement to one.
import type { RunResults } from './model.ts';

export const REVIEWS_FILE = 'reviews.json';
export const REVIEW_DECISIONS = ['accepted', 'rejected'] as const;
export type ReviewDecisionKind = (typeof REVIEW_DECISIONS)[number];

export interface ReviewDecision {
  check: string;
  target: string;
  decision: ReviewDecisionKind;
  note: string;
  /** The token (its name) that decided. */
  by: string;
  at: string;
}

export interface ReviewsFile {
  reviews: ReviewDecision[];
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** reviews.json read back: a list of decisions, or why not. */
export function parseReviews(text: string): ReviewsFile {
  const parsed = JSON.parse(text) as { reviews?: unknown };
  if (!parsed || !Array.isArray(parsed.reviews)) throw new Error('no "reviews" list');
  parsed.reviews.forEach((r: Record<string, unknown>, i) => {
    const ok = r && isText(r.check) && isText(r.target) && (REVIEW_DECISIONS as readonly unknown[]).includes(r.decision) && isText(r.note) && isText(r.by) && isText(r.at);
    if (!ok) throw new Error(`review ${i} is not {check, target, decision: accepted|rejected, note, by, at}`);
  });
  return parsed as ReviewsFile;
}

/** The run's REVIEW checks, as check@target. */
export function reviewChecks(results: RunResults): Set<string> {
  return new Set(results.checks.filter((c) => c.verdict === 'REVIEW').map((c) => `${c.id}@${c.target}`));
}

/** What is wrong with the decisions for this run: one naming a check that gave no REVIEW, or a check decided twice. */
export function reviewProblems(reviews: readonly ReviewDecision[], results: RunResults): string[] {
  const open = reviewChecks(results);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const r of reviews) {
    const key = `${r.check}@${r.target}`;
    if (!open.has(key)) problems.push(`${r.check} (${r.target}) gave no REVIEW in this run`);
    if (seen.has(key)) problems.push(`${r.check} (${r.target}) is decided twice`);
    seen.add(key);
  }
  return problems;
}

/** The decisions with this one in place of any earlier decision on the same check. */
export function withDecision(reviews: readonly ReviewDecision[], decision: ReviewDecision): ReviewDecision[] {
  return [...reviews.filter((r) => r.check !== decision.check || r.target !== decision.target), decision];
}
