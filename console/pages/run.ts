// A run's page: live while it is queued or running (server-sent events from
// /api/runs/:id/events, read with the session's bearer by
// event-stream.ts: each check as it finishes, the counts ("n of N checks"
// once the run says how many it reports), the elapsed time,
// the queue position while queued), with Cancel; once finished, its report
// framed from the console (sandboxed, with its own policy), the bundle to
// download, "run again" of what failed or did not run (rerun.ts), its
// reviewer decisions (reviews.ts), its share links (share.ts),
// and "Compare with…" another run of
// the implementation. A
// finished run's page replays its events the same way. The frame and the
// download are navigations, which cannot carry the bearer: each first asks
// for a one-use ticket and goes to the URL it names.
import type { ImplementationRecord, RunEvent, RunRecord, TicketAnswer, Verdict } from '../../app/serve/console/api-types.ts';
import { ApiError, getJson, messageOf, send } from '../api.ts';
import { followEvents, type EventFollower } from '../event-stream.ts';
import { authorization, signInAgain } from '../session.ts';
import { fill, h, link, notice } from '../dom.ts';
import { dateTime, duration, shortId, verdictBadge } from '../format.ts';
import { markReady, type Cleanup } from '../router.ts';
import { comparePart } from './compare.ts';
import { sharePart } from './share.ts';
import { reviewsPart } from './reviews.ts';
import { rerunPart } from './rerun.ts';

type CheckEvent = Extract<RunEvent, { type: 'check' }>;

const COUNT_ORDER: Verdict[] = ['PASS', 'FAIL', 'ERROR', 'WARN', 'REVIEW', 'SKIP', 'WAIVED', 'FLAKY'];
const ACTIVE = new Set(['queued', 'running']);

interface View {
  status: HTMLElement;
  counts: HTMLElement;
  elapsed: HTMLElement;
  cancel: HTMLButtonElement;
  checks: HTMLTableSectionElement;
  log: HTMLElement;
  finished: HTMLElement;
}

function checkRow(e: CheckEvent): HTMLTableRowElement {
  const c = e.check;
  return h(
    'tr',
    { class: 'check-row', dataset: { checkId: c.id, target: c.target, verdict: c.verdict } },
    h('td', null, verdictBadge(c.verdict)),
    h('td', null, h('span', { class: 'check-title' }, c.title), h('br'), h('code', null, c.id)),
    h('td', null, c.target),
    h('td', { class: 'num' }, duration(c.durationMs)),
    h('td', { class: 'reason' }, c.reason ?? ''),
  );
}

/** Beside the verdict: whether ptas verify accepts the bundle (src/certify/certifiability.ts), each gap and its fix on hover and below. */
function certificationBadge(run: RunRecord): HTMLElement | null {
  const certification = run.certification;
  if (!certification) return null;
  const gaps = certification.gaps.map((g) => `${g.problem}: ${g.fix}`);
  return h(
    'span',
    { class: `badge certification ${certification.certifiable ? 'certifiable' : 'not-certifiable'}`, attrs: { id: 'run-certification', title: certification.certifiable ? 'ptas verify accepts the bundle' : gaps.join('\n') }, dataset: { certifiable: String(certification.certifiable) } },
    certification.certifiable ? 'certifiable' : `not certifiable: ${certification.gaps.length} of ${certification.required} required checks`,
  );
}

/** Under a finished run: what keeps its bundle from verifying, each with its fix. */
function certificationGaps(run: RunRecord): HTMLElement | null {
  const gaps = run.certification?.gaps ?? [];
  if (!gaps.length) return null;
  return h(
    'div',
    { class: 'notice notice-danger', attrs: { id: 'certification-gaps', role: 'alert' } },
    'ptas verify refuses this bundle:',
    h('ul', null, ...gaps.map((g) => h('li', null, `${g.problem}. Fix: ${g.fix}`))),
  );
}

function showStatus(view: View, run: RunRecord): void {
  view.status.dataset.status = run.status;
  fill(
    view.status,
    h('span', { class: `badge status-${run.status}` }, run.status),
    run.status === 'queued' && run.queuePosition ? h('span', { class: 'queue', attrs: { id: 'queue-position' } }, ` position ${run.queuePosition} in the queue`) : null,
    run.verdict ? h('span', { attrs: { id: 'run-verdict' } }, ' ', verdictBadge(run.verdict)) : null,
    certificationBadge(run),
    run.note ? h('span', { class: 'note' }, ` ${run.note}`) : null,
  );
  view.cancel.hidden = !ACTIVE.has(run.status);
  view.cancel.dataset.status = run.status;
}

/** The counts by verdict; while the run runs, "n of N checks" when the run said how many it reports in all. */
function showCounts(view: View, counts: Partial<Record<Verdict, number>> | undefined, expected?: number): void {
  const present = COUNT_ORDER.filter((v) => counts?.[v]);
  const total = present.reduce((a, v) => a + counts![v]!, 0);
  const label = expected && expected >= total ? `${total} of ${expected} checks` : `${total} check${total === 1 ? '' : 's'}`;
  fill(view.counts, h('span', { class: 'total', dataset: expected ? { expected: String(expected) } : {} }, label), ...present.map((v) => h('span', { class: 'count', dataset: { verdict: v } }, ' ', verdictBadge(v), ` ${counts![v]}`)));
}

/** Elapsed time: the last event's figure, ticking on locally while the run runs. */
function elapsedClock(view: View): { set(run: RunRecord, elapsedMs?: number): void; stop(): void } {
  let base = 0;
  let at = performance.now();
  let running = false;
  const draw = () => fill(view.elapsed, duration(base + (running ? performance.now() - at : 0)));
  const timer = setInterval(() => running && draw(), 1000);
  return {
    set(run, elapsedMs) {
      running = run.status === 'running';
      if (elapsedMs !== undefined) base = elapsedMs;
      else if (run.startedAt) base = (run.finishedAt ? Date.parse(run.finishedAt) : Date.now()) - Date.parse(run.startedAt);
      at = performance.now();
      draw();
    },
    stop: () => clearInterval(timer),
  };
}

/** A one-use URL of the run's report or bundle (app/serve/tickets.ts). */
async function ticketUrl(runId: string, kind: 'report' | 'bundle'): Promise<string> {
  return (await send<TicketAnswer>('POST', `/api/runs/${encodeURIComponent(runId)}/tickets`, { kind })).url;
}

async function showFinished(view: View, run: RunRecord, implementation: ImplementationRecord | undefined): Promise<void> {
  const ended = notice('warn', `This run was ${run.status}: ${run.verdict ?? 'INCOMPLETE'}${run.note ? ` (${run.note})` : ''}.`);
  // A run that wrote no bundle (never started, failed before its checks, its server killed under it) has nothing to
  // show or download; one cancelled while running wrote a partial bundle. (Records from before `bundle` was kept: by status.)
  const wroteBundle = run.bundle ?? (run.status === 'finished' || Boolean(run.startedAt));
  if (!wroteBundle) {
    const whatIsLeft = view.checks.childElementCount ? ' The checks it finished are listed below; it wrote no bundle, so there is no report and nothing to download.' : ' It wrote no bundle: there is no report and nothing to download.';
    return void fill(view.finished, run.status === 'finished' && !run.note ? null : ended, notice('info', whatIsLeft.trim()));
  }
  const partial = run.status !== 'finished';
  const problem = h('div', { class: 'ticket-problem' });
  const failed = (error: unknown) => fill(problem, notice('danger', messageOf(error)));
  const download = h('button', { class: 'button', attrs: { type: 'button', id: 'download-bundle' } }, partial ? 'Download the partial bundle' : 'Download bundle');
  download.addEventListener('click', () => {
    download.disabled = true;
    ticketUrl(run.id, 'bundle')
      .then((url) => {
        // A link with download: the archive is saved, the page stays.
        const a = h('a', { attrs: { href: url, download: '', hidden: '' } });
        document.body.append(a);
        a.click();
        a.remove();
      })
      .catch(failed)
      .finally(() => (download.disabled = false));
  });
  const alone = h('a', { attrs: { href: '#', id: 'open-report' } }, 'Open the report on its own');
  alone.addEventListener('click', (event) => {
    event.preventDefault();
    ticketUrl(run.id, 'report')
      .then((url) => void window.open(url, '_blank', 'noopener'))
      .catch(failed);
  });
  const frame = h('iframe', { class: 'report', attrs: { id: 'report', title: 'The run’s report', sandbox: 'allow-scripts allow-downloads' } });
  // A new ticket each time: a reviewer's decision re-renders the report, and the frame shows it again.
  const loadReport = async () => {
    frame.src = await ticketUrl(run.id, 'report').catch((error: unknown) => {
      failed(error);
      return 'about:blank';
    });
  };
  const reviews = reviewsPart(run, () => void loadReport());
  fill(view.finished, partial ? ended : null, certificationGaps(run), h('div', { class: 'toolbar' }, download, alone), problem, rerunPart(run, implementation), reviews, sharePart(run), partial ? null : await comparePart(run), h('h2', null, partial ? 'Partial report' : 'Report'), frame);
  await loadReport();
}

function subscribe(run: RunRecord, implementation: ImplementationRecord | undefined, view: View, clock: ReturnType<typeof elapsedClock>): EventFollower {
  const handlers: { [T in RunEvent['type']]: (event: Extract<RunEvent, { type: T }>) => void } = {
    status: (e) => {
      showStatus(view, e.run);
      clock.set(e.run);
    },
    check: (e) => {
      // A check told again (the cross-cutting ones, judged over the load stage's answers too) takes its row's place.
      const row = checkRow(e);
      const earlier = [...view.checks.querySelectorAll<HTMLTableRowElement>('tr.check-row')].find((r) => r.dataset.checkId === e.check.id && r.dataset.target === e.check.target);
      if (earlier) earlier.replaceWith(row);
      else view.checks.append(row);
      showCounts(view, e.counts, e.expected);
      clock.set({ ...run, status: 'running' }, e.elapsedMs);
    },
    'load-step': (e) => view.log.append(h('li', null, `${e.probe}${e.climb > 1 ? ` (climb ${e.climb})` : ''}: ${e.ratePerSecond}/s, ${e.sent} sent, ${e.refused} refused`)),
    log: (e) => view.log.append(h('li', null, e.line)),
    end: (e) => {
      showStatus(view, e.run);
      showCounts(view, e.run.counts);
      clock.set(e.run);
      void showFinished(view, e.run, implementation);
    },
  };
  return followEvents(`/api/runs/${encodeURIComponent(run.id)}/events`, {
    headers: authorization,
    onEvent: ({ event, data }) => {
      const handle = handlers[event as RunEvent['type']] as ((e: RunEvent) => void) | undefined;
      handle?.(JSON.parse(data) as RunEvent);
    },
    onUnauthorized: signInAgain,
    onLost: (why) => view.finished.prepend(notice('warn', `The live view lost its connection (${why}): reload the page.`)),
  });
}

export async function runPage(main: HTMLElement, params: string[]): Promise<Cleanup> {
  const id = params[0]!;
  const run = await getJson<RunRecord>(`/api/runs/${encodeURIComponent(id)}`);
  const implementation = await getJson<ImplementationRecord>(`/api/implementations/${encodeURIComponent(run.implementation)}`).catch(() => undefined);
  const view: View = {
    status: h('div', { class: 'run-status', attrs: { id: 'run-status' } }),
    counts: h('div', { class: 'counts', attrs: { id: 'counts' } }),
    elapsed: h('span', { attrs: { id: 'elapsed' } }),
    cancel: h('button', { attrs: { type: 'button', id: 'cancel' } }, 'Cancel'),
    checks: h('tbody'),
    log: h('ul', { class: 'log' }),
    finished: h('div', { class: 'finished', attrs: { id: 'finished' } }),
  };
  view.cancel.addEventListener('click', () => {
    const question =
      view.cancel.dataset.status === 'queued'
        ? 'Cancel this run? It has not started: it leaves the queue.'
        : 'Cancel this run? The checks in flight stop and the run ends INCOMPLETE; what finished stays, in a partial bundle you can download.';
    if (!confirm(question)) return;
    view.cancel.disabled = true;
    send<RunRecord>('POST', `/api/runs/${encodeURIComponent(run.id)}/cancel`)
      // 409: the run ended as Cancel was clicked, which is no error: its end comes with the live view.
      .catch((error: unknown) => (error instanceof ApiError && error.status === 409 ? undefined : view.finished.prepend(notice('danger', messageOf(error)))))
      .finally(() => (view.cancel.disabled = false));
  });
  const clock = elapsedClock(view);
  showStatus(view, run);
  showCounts(view, run.counts);
  clock.set(run);

  fill(
    main,
    h(
      'div',
      { class: 'page-head' },
      h('h1', null, 'Run ', h('code', null, shortId(run.id))),
      implementation ? link(`/console/implementations/${encodeURIComponent(implementation.id)}`, implementation.name) : h('span', null, run.implementation),
    ),
    h(
      'p',
      { class: 'run-meta muted' },
      `Queued ${dateTime(run.createdAt)}`,
      run.options.rerunOf ? h('span', null, ' · a re-run of ', link(`/console/runs/${encodeURIComponent(run.options.rerunOf)}`, shortId(run.options.rerunOf)), ' joined to it') : null,
      run.options.rerunOf ? '' : run.options.grep ? ` · grep ${run.options.grep}` : ' · every area',
      run.options.load ? ' · with the load stage' : ' · no load stage',
      run.options.nonce ? ` · nonce ${run.options.nonce}` : '',
    ),
    h('div', { class: 'live' }, view.status, h('div', { class: 'elapsed' }, 'Elapsed ', view.elapsed), view.counts, view.cancel),
    view.finished,
    h(
      'section',
      { class: 'checks' },
      h('h2', null, 'Checks'),
      h('table', { class: 'list checks', attrs: { id: 'checks' } }, h('thead', null, h('tr', null, ...['Verdict', 'Check', 'Target', 'Time', 'Reason'].map((t) => h('th', null, t)))), view.checks),
    ),
    h('details', { class: 'run-log' }, h('summary', null, 'Log'), view.log),
  );
  const events = subscribe(run, implementation, view, clock);
  markReady();
  return () => {
    events.close();
    clock.stop();
  };
}
