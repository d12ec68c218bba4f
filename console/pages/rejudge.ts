// "Re-judge stored runs with this version" (GET /api/rejudge-preview): what
// the installed suite would change in every stored run, judged again offline.
// The runs whose verdict or certifiability would change come first, then
// those where only some checks would, each opening onto its changed checks
// (verdict, reason and basis before and after); a check the catalogue says
// is newer than the suite that judged the run carries a "new in <version>"
// badge, so a certifier tells the flips of new checks from those of changed
// judgments. The runs nothing changes in are a count.
import type { ChangedCheck, JudgedSide, Newness, RejudgeOverview, StoredRunPreview } from '../../app/serve/console/api-types.ts';
import { getJson } from '../api.ts';
import { fill, h, link, notice, type Child } from '../dom.ts';
import { dateTime, shortId, verdictBadge } from '../format.ts';
import { markReady } from '../router.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The badge of a check newer than the suite that judged the run; nothing for the others. */
const newBadge = (check: Newness): HTMLElement | null => (check.new ? h('span', { class: 'badge new-check' }, `new in ${check.since}`) : null);

function certifiableBadge(certifiable: boolean | null): HTMLElement {
  if (certifiable === null) return h('span', { class: 'badge certification' }, 'certifiability not recorded');
  return h('span', { class: `badge certification ${certifiable ? 'certifiable' : 'not-certifiable'}` }, certifiable ? 'certifiable' : 'not certifiable');
}

function sideCell(judged: JudgedSide | undefined, missing: string): HTMLElement {
  if (!judged) return h('td', null, h('span', { class: 'muted' }, missing));
  return h(
    'td',
    { class: 'judged' },
    verdictBadge(judged.verdict),
    judged.reason ? h('div', { class: 'reason' }, judged.reason) : null,
    judged.basis ? h('div', { class: 'basis' }, 'Rests on ', judged.basis) : null,
  );
}

function changedChecksTable(checks: ChangedCheck[]): HTMLElement {
  return h(
    'table',
    { class: 'list changed-checks' },
    h('thead', null, h('tr', null, ...['Check', 'Target', 'Before', 'After'].map((t) => h('th', null, t)))),
    h(
      'tbody',
      null,
      ...checks.map((c) =>
        h(
          'tr',
          { class: 'changed-check', dataset: { checkId: c.id, new: String(c.new) } },
          h('td', null, h('span', { class: 'check-title' }, c.title), ' ', newBadge(c), h('br'), h('code', null, c.id)),
          h('td', null, c.target),
          sideCell(c.before, 'no verdict in the stored run'),
          sideCell(c.after, 'not in this suite'),
        ),
      ),
    ),
  );
}

/** A long list of check ids, folded: the new checks and the certification's gaps can run to hundreds. */
function folded(summary: string, className: string, items: Child[]): HTMLElement {
  return h('details', { class: className }, h('summary', null, summary), h('ul', null, ...items.map((item) => h('li', null, item))));
}

function runDetails(run: StoredRunPreview): HTMLElement {
  const { checks, newChecks, gaps, notJudged } = run;
  const newGaps = gaps.filter((g) => g.new).length;
  return h(
    'div',
    { class: 'rejudged-body' },
    checks.length ? changedChecksTable(checks) : h('p', { class: 'muted' }, 'No check of the run changes its verdict or basis.'),
    // Why it would not verify, unless it did not verify before either: then the gaps are no news of this suite.
    gaps.length && run.certifiable.before !== false
      ? folded(
          `Would not verify: ${plural(gaps.length, 'gap')}${newGaps ? `, ${newGaps} of them ${newGaps === 1 ? 'a check' : 'checks'} new in this suite` : ''}`,
          'gaps',
          gaps.map((g) => h('span', { dataset: { checkId: g.check } }, newBadge(g), ' ', g.problem)),
        )
      : null,
    newChecks.length
      ? folded(
          `${plural(newChecks.length, 'check')} new in this suite, never observed in this run (only a new run gives them a verdict)`,
          'new-checks',
          newChecks.map((c) => h('span', { dataset: { checkId: c.id } }, newBadge({ since: c.since, new: true }), ' ', c.title, ' ', h('code', null, c.id))),
        )
      : null,
    ...notJudged.map((n) => h('p', { class: 'not-judged muted' }, `Not judged again, ${n.checks.length}: ${n.description}.`)),
  );
}

function runView(run: StoredRunPreview): HTMLElement {
  const changed = run.checks.length;
  const newOnes = run.checks.filter((c) => c.new).length;
  return h(
    'details',
    { class: `rejudged-run change-${run.change}`, dataset: { run: run.run, change: run.change } },
    h(
      'summary',
      null,
      link(`/console/runs/${encodeURIComponent(run.run)}`, h('code', null, shortId(run.run))),
      ' ',
      run.implementation,
      ' ',
      h('span', { class: 'date' }, dateTime(run.startedAt)),
      h('span', { class: 'judged-by muted' }, ` judged by ptas ${run.judgedBy} `),
      h('span', { class: 'verdicts' }, verdictBadge(run.verdict.before), ' → ', verdictBadge(run.verdict.after)),
      ' ',
      h('span', { class: 'certifiability' }, certifiableBadge(run.certifiable.before), ' → ', certifiableBadge(run.certifiable.after)),
      h('span', { class: 'muted' }, ` ${plural(changed, 'check')} changed${newOnes ? `, ${newOnes} new in this suite` : ''}`),
    ),
    runDetails(run),
  );
}

function group(id: string, title: string, runs: StoredRunPreview[]): HTMLElement | null {
  if (!runs.length) return null;
  return h('section', { class: 'rejudge-group', attrs: { id } }, h('h2', null, `${title} (${runs.length})`), ...runs.map(runView));
}

export async function rejudgePage(main: HTMLElement): Promise<void> {
  const overview = await getJson<RejudgeOverview>('/api/rejudge-preview');
  const byChange = (change: StoredRunPreview['change']) => overview.runs.filter((r) => r.change === change);
  fill(
    main,
    h('div', { class: 'page-head' }, h('h1', null, 'Re-judge stored runs with this version')),
    h(
      'p',
      { class: 'muted' },
      `Every stored run judged again by ptas ${overview.suiteVersion} from what it recorded, offline: nothing is sent to any implementation and nothing is stored. `,
      'A check marked “new in …” is newer than the suite that judged the run: its change comes from a new check, not from a changed judgment.',
    ),
    ...overview.unreadable.map((u) => notice('warn', `Run ${shortId(u.run)} (${u.implementation}) could not be judged again: ${u.problem}.`)),
    group('rejudge-verdict', 'Verdict or certifiability would change', byChange('verdict')),
    group('rejudge-checks', 'Checks would change, verdict and certifiability would not', byChange('checks')),
    h('p', { class: 'rejudge-unchanged', attrs: { id: 'rejudge-unchanged' } }, `${plural(overview.unchanged, 'run')} unchanged.`),
  );
  markReady();
}
