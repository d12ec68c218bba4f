// A finished run's REVIEW checks and a reviewer's decision on each (issue 30
// item 7), on its page: accepted or rejected, with a note; the server keeps
// it in the run's bundle (reviews.json, the report, the manifest re-hashed:
// app/serve/reviews.ts), records who decided, and the report frame is
// reloaded to show it. Through the API for CI with the session, asked for
// only when the section is opened.
import type { ReviewItem, RunRecord } from '../../app/serve/console/api-types.ts';
import { getJson, messageOf, send } from '../api.ts';
import { fill, h, notice } from '../dom.ts';
import { dateTime } from '../format.ts';

export function reviewsPart(run: RunRecord, reportChanged: () => void): HTMLElement {
  const base = `/api/runs/${encodeURIComponent(run.id)}/reviews`;
  const body = h('div', { attrs: { id: 'review-list' } });
  const details = h('details', { class: 'reviews', attrs: { id: 'reviews' } }, h('summary', null, 'Reviewer decisions'), h('p', { class: 'hint' }, 'Where the spec leaves the judgement to a person, the check says REVIEW: record whether you accept what it found. The decision goes into the run’s report and bundle, with your name; the verdict stays as the suite gave it.'), body);

  const refresh = async (): Promise<void> => {
    try {
      const { checks } = await getJson<{ checks: ReviewItem[] }>(base);
      fill(body, checks.length ? h('table', { class: 'list review-checks' }, h('tbody', null, ...checks.map(row))) : h('p', { class: 'muted' }, 'This run has no REVIEW check.'));
    } catch (error) {
      fill(body, notice('danger', messageOf(error)));
    }
  };

  const row = (item: ReviewItem): HTMLElement => {
    const decision = h('select', { attrs: { 'aria-label': `Decision on ${item.check}` } }, h('option', { attrs: { value: 'accepted' } }, 'accept'), h('option', { attrs: { value: 'rejected' } }, 'reject'));
    if (item.decision) decision.value = item.decision.decision;
    const note = h('input', { attrs: { type: 'text', class: 'review-note', maxlength: '4000', placeholder: 'why (kept with the decision)', 'aria-label': `Note on ${item.check}` } });
    const record = h('button', { attrs: { type: 'button', class: 'record-review' } }, item.decision ? 'Change' : 'Record');
    const problem = h('span');
    record.addEventListener('click', () => {
      record.disabled = true;
      send('POST', base, { check: item.check, target: item.target, decision: decision.value, note: note.value.trim() })
        .then(async () => {
          await refresh();
          reportChanged();
        })
        .catch((error: unknown) => {
          record.disabled = false;
          fill(problem, notice('danger', messageOf(error)));
        });
    });
    const decided = item.decision
      ? h('div', { class: 'decided' }, h('strong', { class: `review-${item.decision.decision}` }, item.decision.decision), ` by ${item.decision.by}, ${dateTime(item.decision.at)}`, item.decision.note ? h('div', { class: 'muted' }, item.decision.note) : null)
      : h('div', { class: 'muted' }, 'undecided');
    return h(
      'tr',
      { class: 'review-row', dataset: { check: item.check, decision: item.decision?.decision ?? 'undecided' } },
      h('td', null, h('span', { class: 'check-title' }, item.title), h('br'), h('code', null, item.check), item.reason ? h('div', { class: 'muted small' }, item.reason) : null),
      h('td', null, decided),
      h('td', { class: 'review-form' }, decision, ' ', note, ' ', record, problem),
    );
  };

  details.addEventListener('toggle', () => {
    if (details.open && !body.childElementCount) void refresh();
  });
  return details;
}
