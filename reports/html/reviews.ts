// The report's "Reviewer decisions" section (src/results/reviews.ts), rendered
// when the report is written, as the waivers are: each decision on a REVIEW
// check, accepted or rejected, with its note, who and when; and how many
// REVIEW checks are still undecided. Static HTML: it shows where scripts are
// blocked.
import type { RunResults } from '../../src/results/model.ts';
import { reviewChecks, type ReviewDecision } from '../../src/results/reviews.ts';
import { escapeXml as esc } from '../escape.ts';
import { formatTimestamp } from '../format.ts';

export function renderReviews(results: RunResults, reviews: readonly ReviewDecision[] | undefined): string {
  if (!reviews?.length) return '';
  const open = reviewChecks(results).size;
  const rows = reviews
    .map(
      (r) => `<tr class="review" data-check="${esc(r.check)}" data-decision="${esc(r.decision)}">
<td><code>${esc(r.check)}</code> <span class="muted small">${esc(r.target)}</span></td>
<td><span class="review-decision rd-${esc(r.decision)}">${esc(r.decision)}</span></td>
<td>${esc(r.note)}</td>
<td>${esc(r.by)}<div class="muted small">${esc(formatTimestamp(r.at))}</div></td>
</tr>`,
    )
    .join('\n');
  return `<section id="reviews"><h2>Reviewer decisions</h2>
<p class="muted">${reviews.length} of ${open} REVIEW check${open === 1 ? '' : 's'} decided by a reviewer after the run; a decision records a person's conclusion and leaves the suite's verdict as it was.</p>
<table class="waivers reviews"><thead><tr><th>Check</th><th>Decision</th><th>Note</th><th>Who, when</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
}
