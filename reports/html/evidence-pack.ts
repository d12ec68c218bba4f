// The checks' evidence for the page, compressed (reports/html/page-data.ts
// says the format): about a tenth of its JSON, so a report of a thousand
// checks stays small and its page parses fast. The page expands it only when
// a check's evidence is opened or searched.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RunResults } from '../../src/results/model.ts';
import type { CheckEvidence, PageCheck, PageResults } from './page-data.ts';

export interface PackedResults {
  /** The results without the checks' evidence: embedded as JSON. */
  page: PageResults;
  /** Each check's evidence, a JSON line per check, gzip-compressed, base64. */
  evidence: string;
}

export function packEvidence(results: RunResults): PackedResults {
  const lines: string[] = [];
  const checks = results.checks.map(({ evidence, timeline, record, ...check }): PageCheck => {
    // JSON.stringify escapes every line break inside strings: one line per check. The record (what the
    // judgment read: ptas rejudge's) rides with the evidence: the page shows neither until a check is opened.
    lines.push(JSON.stringify({ evidence, timeline, ...(record ? { record } : {}) } satisfies CheckEvidence));
    return check;
  });
  return { page: { ...results, checks }, evidence: gzipSync(lines.join('\n')).toString('base64') };
}

/** The results as written, from what the page embeds (the inverse of packEvidence). */
export function unpackEvidence(page: PageResults, evidence: string): RunResults {
  const lines = gunzipSync(Buffer.from(evidence, 'base64')).toString('utf8').split('\n');
  return { ...page, checks: page.checks.map((check, i) => ({ ...check, ...(JSON.parse(lines[i]!) as CheckEvidence) })) };
}
