// "Compare with…": the baseline diff of this run against another finished run
// of the same implementation, as `ptas report --baseline` computes it.
import type { CheckChangeView, RunComparison, RunRecord } from '../../app/serve/console/api-types.ts';
import { getJson, messageOf } from '../api.ts';
import { fill, h, notice } from '../dom.ts';
import { dateTime, shortId, verdictBadge } from '../format.ts';

function changes(title: string, list: CheckChangeView[], kind: string): HTMLElement | null {
  if (!list.length) return null;
  return h(
    'div',
    { class: `changes changes-${kind}` },
    h('h3', null, `${title} (${list.length})`),
    h(
      'table',
      { class: 'list' },
      h('thead', null, h('tr', null, ...['Check', 'Target', 'Before', 'After', 'Reason'].map((t) => h('th', null, t)))),
      h(
        'tbody',
        null,
        ...list.map((c) =>
          h(
            'tr',
            { dataset: { checkId: c.id } },
            h('td', null, h('span', { class: 'check-title' }, c.title), h('br'), h('code', null, c.id)),
            h('td', null, c.target),
            h('td', null, c.before ? verdictBadge(c.before) : h('span', { class: 'muted' }, 'not run')),
            h('td', null, c.after ? verdictBadge(c.after) : h('span', { class: 'muted' }, 'not run')),
            h('td', null, c.reason ?? ''),
          ),
        ),
      ),
    ),
  );
}

export function comparisonView(diff: RunComparison, baseline: RunRecord): HTMLElement {
  return h(
    'div',
    { class: 'comparison', attrs: { id: 'comparison' } },
    h('p', null, 'Baseline ', h('code', null, shortId(baseline.id)), ` (${dateTime(baseline.finishedAt)}): `, verdictBadge(diff.verdict.before), ' → this run: ', verdictBadge(diff.verdict.after)),
    h('p', { class: diff.regressions ? 'regressions' : 'muted' }, diff.regressions ? `${diff.regressions} regression${diff.regressions === 1 ? '' : 's'}` : 'No regression.'),
    ...diff.notes.map((n) => notice('warn', n)),
    changes('Newly failing', diff.newlyFailing, 'failing'),
    changes('Newly passing', diff.newlyPassing, 'passing'),
    changes('Other changes', diff.otherChanges, 'other'),
    !diff.newlyFailing.length && !diff.newlyPassing.length && !diff.otherChanges.length ? h('p', { class: 'muted' }, 'No check changed its verdict.') : null,
  );
}

/** The "Compare with…" picker of the other finished runs, and where the diff appears. */
export async function comparePart(run: RunRecord): Promise<HTMLElement> {
  const result = h('div', { class: 'compare-result' });
  let others: RunRecord[];
  try {
    others = (await getJson<RunRecord[]>(`/api/runs?implementation=${encodeURIComponent(run.implementation)}`)).filter((r) => r.id !== run.id && r.status === 'finished');
  } catch (error) {
    return h('section', { class: 'compare' }, h('h2', null, 'Compare with…'), notice('warn', messageOf(error)));
  }
  if (!others.length) return h('section', { class: 'compare' }, h('h2', null, 'Compare with…'), h('p', { class: 'muted' }, 'No other finished run of this implementation yet.'));
  const select = h(
    'select',
    { attrs: { id: 'compare-with', 'aria-label': 'Baseline run' } },
    ...others.map((r) => h('option', { attrs: { value: r.id } }, `${dateTime(r.finishedAt)} — ${r.verdict ?? r.status} — ${shortId(r.id)}`)),
  );
  const button = h('button', { attrs: { type: 'button', id: 'compare' } }, 'Compare');
  button.addEventListener('click', () => {
    const baseline = others.find((r) => r.id === select.value)!;
    button.disabled = true;
    fill(result, h('p', { class: 'muted' }, 'Comparing…'));
    getJson<RunComparison>(`/api/runs/${encodeURIComponent(run.id)}/compare/${encodeURIComponent(baseline.id)}`)
      .then((diff) => fill(result, comparisonView(diff, baseline)))
      .catch((error: unknown) => fill(result, notice('danger', messageOf(error))))
      .finally(() => (button.disabled = false));
  });
  return h('section', { class: 'compare' }, h('h2', null, 'Compare with…'), h('div', { class: 'toolbar' }, select, button), result);
}
