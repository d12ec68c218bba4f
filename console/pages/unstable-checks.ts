// An implementation's unstable checks (GET /api/implementations/ID/unstable-checks,
// src/results/instability.ts): each check whose verdict differs between its
// runs of one suite version and profile, whose the instability is (on the
// bundled reference, the suite's own defect), and what the two runs observed,
// side by side: verdict, reason, the sentence it rests on, what the check
// said and its first exchanges.
import type { Observation, UnstableCheck, UnstableChecksAnswer } from '../../app/serve/console/api-types.ts';
import { getJson, messageOf } from '../api.ts';
import { h, link, notice, type Child } from '../dom.ts';
import { dateTime, shortId, verdictBadge } from '../format.ts';

function observationView(heading: string, o: Observation): HTMLElement {
  return h(
    'div',
    { class: 'observation', dataset: { run: o.run, verdict: o.verdict } },
    h('h4', null, `${heading}: `, link(`/console/runs/${encodeURIComponent(o.run)}`, h('code', null, shortId(o.run))), ' ', h('span', { class: 'date' }, dateTime(o.startedAt)), ' ', verdictBadge(o.verdict)),
    o.reason ? h('p', { class: 'reason' }, o.reason) : null,
    o.basis ? h('p', { class: 'basis' }, 'Rests on ', o.basis) : null,
    o.claims.length
      ? h('ul', { class: 'claims' }, ...o.claims.map((c) => h('li', null, h('b', null, c.level), ' ', c.message)))
      : h('p', { class: 'claims muted' }, 'The check said nothing beyond its verdict.'),
    o.evidence.length ? h('ul', { class: 'evidence' }, ...o.evidence.map((line) => h('li', null, h('code', null, line)))) : null,
  );
}

function unstableCheckView(c: UnstableCheck, showTarget: boolean): HTMLElement {
  const verdicts = c.verdicts.map((v) => `${v.verdict} ${v.count}×`).join(', ');
  return h(
    'div',
    { class: `unstable-check attribution-${c.attribution}`, dataset: { checkId: c.id, target: c.target, attribution: c.attribution } },
    h('h3', null, h('span', { class: 'badge unstable' }, 'unstable'), ' ', c.title, ' ', h('code', null, c.id), showTarget ? h('span', { class: 'muted' }, ` on ${c.target}`) : null),
    h('p', { class: 'attribution' }, 'Whose: ', c.attributed, '.'),
    h('p', { class: 'muted' }, `${verdicts} over the runs of ${c.sameRuns}.`),
    h('div', { class: 'side-by-side' }, observationView('Before', c.observations.earlier), observationView('Latest', c.observations.later)),
  );
}

/** The section of an implementation's page. */
export async function unstableChecksPart(implementationId: string): Promise<HTMLElement> {
  const section = (...children: Child[]) => h('section', { class: 'unstable', attrs: { id: 'unstable-checks' } }, h('h2', null, 'Unstable checks'), ...children);
  let answer: UnstableChecksAnswer;
  try {
    answer = await getJson<UnstableChecksAnswer>(`/api/implementations/${encodeURIComponent(implementationId)}/unstable-checks`);
  } catch (error) {
    return section(notice('warn', messageOf(error)));
  }
  if (!answer.checks.length) return section(h('p', { class: 'muted' }, 'No check gave two verdicts across runs of one suite version and profile.'));
  const showTarget = new Set(answer.checks.map((c) => c.target)).size > 1;
  return section(
    h('p', { class: 'hint' }, 'A check must give one verdict on one implementation. These gave two across runs of the same suite version and profile (for the bundled reference: the same faults, variants and conditions).'),
    ...answer.checks.map((c) => unstableCheckView(c, showTarget)),
  );
}
