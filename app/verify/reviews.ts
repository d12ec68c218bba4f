// `ptas verify`'s step for a reviewer's decisions, when the bundle holds
// reviews.json (its hash already held by the manifest, as every file's): it
// parses, and each decision names a check that gave REVIEW in results.json,
// once. A bundle without it has no such step.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../../src/results/model.ts';
import { parseReviews, reviewChecks, reviewProblems, REVIEWS_FILE } from '../../src/results/reviews.ts';
import type { VerifyStep } from './steps.ts';

export function verifyReviews(dir: string, results: RunResults): VerifyStep | undefined {
  const file = path.join(dir, REVIEWS_FILE);
  if (!existsSync(file)) return undefined;
  const name = 'reviews';
  let reviews;
  try {
    reviews = parseReviews(readFileSync(file, 'utf8')).reviews;
  } catch (error) {
    return { name, ok: false, detail: `${REVIEWS_FILE}: not a reviewer's decisions (${(error as Error).message})` };
  }
  const problems = reviewProblems(reviews, results);
  if (problems.length) return { name, ok: false, detail: `${REVIEWS_FILE}: ${problems[0]}` };
  const count = (kind: string) => reviews.filter((r) => r.decision === kind).length;
  const open = reviewChecks(results).size;
  return { name, ok: true, detail: `${count('accepted')} accepted, ${count('rejected')} rejected, ${open - reviews.length} of ${open} REVIEW checks undecided` };
}
