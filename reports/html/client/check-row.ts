// A check's row: a <details> whose summary says the verdict, the title, the
// requirements and why; its evidence is added when it is first opened
// (checks.ts).
import type { WaivedBy } from '../../../src/results/waiver-model.ts';
import type { CheckAttempt } from '../../../src/results/run-parts.ts';
import { formatMs, formatTimestamp } from '../../format.ts';
import type { PageCheck } from '../page-data.ts';
import { basisLine } from './basis.ts';
import { checkAnchor } from './check-order.ts';
import type { DiffMark } from './diff.ts';
import { anchorId, badge, h, withMarkers } from './dom.ts';

/**
 * A check of a part that ran more than once (ptas merge): every attempt's
 * verdict, oldest first, and which one the verdict and evidence come from
 * (for FLAKY: the failing one). src/results/attempts.ts states the policy.
 */
function attemptsLine(attempts: readonly CheckAttempt[]): HTMLDivElement {
  return h(
    'div',
    { class: 'check-attempts' },
    h('span', { class: 'attempts-label' }, `${attempts.length} attempt${attempts.length === 1 ? '' : 's'}:`),
    attempts.map((a) =>
      h(
        'span',
        {
          class: `attempt${a.decisive ? ' decisive' : ''}`,
          title: `part ${a.run.index}/${a.run.total}, run started ${a.run.startedAt}, manifest sha256:${a.run.manifestSha256}${a.reason ? `\n${a.reason}` : ''}`,
        },
        `#${a.run.attempt} `,
        badge(a.verdict),
        ` ${formatTimestamp(a.run.startedAt)}`,
        a.decisive ? ' (evidence below)' : '',
      ),
    ),
  );
}

/** On a WAIVED check: which waiver accepts the verdict it gave, whose, until when, and where the fix is tracked. */
function waivedLine(waived: WaivedBy): HTMLDivElement {
  const w = waived.waiver;
  const safeLink = /^https?:\/\//i.test(w.tracking);
  return h(
    'div',
    { class: 'check-waived' },
    h('span', { class: 'waiver-label' }, `waived (${waived.verdict} expected by ${w.selector.kind} waiver ${w.pointer})`),
    ': ',
    h('span', { class: 'waiver-reason' }, w.reason),
    ` — ${w.owner}, valid through ${w.expires} UTC, `,
    safeLink ? h('a', { href: w.tracking, rel: 'noopener noreferrer', target: '_blank', class: 'tracking' }, w.tracking) : h('code', null, w.tracking),
  );
}

/** The first line of the summary: verdict, id, title, diff mark, requirements, severity, target, duration. */
function checkLine(check: PageCheck, multiTarget: boolean, diffMark: DiffMark | undefined): HTMLDivElement {
  return h(
    'div',
    { class: 'check-line' },
    badge(check.verdict),
    check.waived ? h('span', { class: `badge gave v-${check.waived.verdict}`, title: 'the verdict the check gave, which a waiver accepts' }, `gave ${check.waived.verdict}`) : null,
    h('span', { class: 'check-id' }, check.id),
    h('span', { class: 'check-title' }, check.title),
    diffMark ? h('span', { class: `diff-mark ${diffMark.kind}` }, diffMark.text) : null,
    h(
      'span',
      { class: 'check-meta' },
      check.requirements.map((id) => h('a', { class: 'req', href: `#${anchorId('req', id)}`, title: 'show in the traceability matrix' }, id)),
      h('span', { class: `sev sev-${check.severity}` }, check.severity),
      multiTarget ? h('span', { class: 'target' }, check.target) : null,
      h('span', { class: 'duration muted' }, formatMs(check.durationMs)),
    ),
  );
}

export function checkRow(check: PageCheck, multiTarget: boolean, diffMark: DiffMark | undefined): HTMLDetailsElement {
  return h(
    'details',
    { class: `check verdict-${check.verdict}`, id: checkAnchor(check, multiTarget) },
    h(
      'summary',
      null,
      checkLine(check, multiTarget, diffMark),
      check.reason ? h('div', { class: 'check-reason' }, withMarkers(check.reason)) : null,
      check.basis ? basisLine(check.basis) : null,
      check.waived ? waivedLine(check.waived) : null,
      check.attempts && check.attempts.length ? attemptsLine(check.attempts) : null,
    ),
  );
}
