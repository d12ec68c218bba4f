// A reviewer's decisions on a finished run's REVIEW checks, kept in the run's
// bundle (src/results/reviews.ts): reviews.json, the report re-rendered to
// show them, and the manifest's artifacts re-hashed, so the bundle a
// certifier downloads carries the decisions and ptas verify still holds it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../../src/results/model.ts';
import { parseReviews, REVIEW_DECISIONS, REVIEWS_FILE, withDecision, type ReviewDecision, type ReviewDecisionKind } from '../../src/results/reviews.ts';
import { renderHtml } from '../../reports/html.ts';
import { rehashArtifacts } from '../certify/write-bundle.ts';
import { ServeError } from './errors.ts';

export interface ReviewInput {
  check: string;
  /** Which target's result: needed only when the check gave REVIEW on more than one. */
  target?: string;
  decision: ReviewDecisionKind;
  note: string;
}

/** A REVIEW check of the run, decided or not. */
export interface ReviewItem {
  check: string;
  target: string;
  title: string;
  reason?: string;
  decision?: ReviewDecision;
}

const readResults = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as RunResults;

function readReviews(dir: string): ReviewDecision[] {
  const file = path.join(dir, REVIEWS_FILE);
  return existsSync(file) ? parseReviews(readFileSync(file, 'utf8')).reviews : [];
}

/** Every REVIEW check of the run's bundle, with its decision when it has one. */
export function reviewItems(bundleDir: string): ReviewItem[] {
  const reviews = readReviews(bundleDir);
  return readResults(bundleDir)
    .checks.filter((c) => c.verdict === 'REVIEW')
    .map((c) => {
      const decision = reviews.find((r) => r.check === c.id && r.target === c.target);
      return { check: c.id, target: c.target, title: c.title, ...(c.reason ? { reason: c.reason } : {}), ...(decision ? { decision } : {}) };
    });
}

/** Records one decision (replacing an earlier one on the same check) into the bundle: reviews.json, the report, the manifest. */
export function recordReview(bundleDir: string, input: ReviewInput, by: string): ReviewDecision {
  if (!(REVIEW_DECISIONS as readonly string[]).includes(input.decision)) throw new ServeError('invalid-request', `a decision is ${REVIEW_DECISIONS.join(' or ')}`);
  const results = readResults(bundleDir);
  const candidates = results.checks.filter((c) => c.verdict === 'REVIEW' && c.id === input.check && (input.target === undefined || c.target === input.target));
  if (!candidates.length) throw new ServeError('invalid-request', `${input.check}${input.target ? ` (${input.target})` : ''} gave no REVIEW in this run: only a REVIEW check takes a reviewer's decision`);
  if (candidates.length > 1) throw new ServeError('invalid-request', `${input.check} gave REVIEW on ${candidates.length} targets: name one (target)`);
  const decision: ReviewDecision = { check: input.check, target: candidates[0]!.target, decision: input.decision, note: input.note, by, at: new Date().toISOString() };
  const reviews = withDecision(readReviews(bundleDir), decision);
  writeFileSync(path.join(bundleDir, REVIEWS_FILE), `${JSON.stringify({ reviews }, null, 2)}\n`);
  writeFileSync(path.join(bundleDir, 'index.html'), renderHtml(results, { reviews }));
  try {
    rehashArtifacts(bundleDir);
  } catch (error) {
    throw new ServeError('conflict', (error as Error).message);
  }
  return decision;
}
