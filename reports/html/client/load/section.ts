// The load section: the 429 staircase, the 413 bisection and the load
// profiles, as figures, inline SVG charts and step tables.
import type { LoadSection, ProfileRun } from '../../../../src/results/load-model.ts';
import { formatDuration, formatInt, formatMs, formatNumber, formatShare, formatTimestamp } from '../../../format.ts';
import type { PageResults } from '../../page-data.ts';
import { h } from '../dom.ts';
import { bodySizeProbe } from './body-size.ts';
import { latencyBars, p95OverTimeChart, rateOverTimeChart, statusShareChart } from './over-time.ts';
import { figures, table } from './parts.ts';
import { rateLimitProbe } from './rate-limit.ts';

function profileFigures(run: ProfileRun, ok: number): HTMLDListElement {
  return figures([
    ['target rate', `${formatNumber(run.targetRps)} req/s`],
    ['achieved rate', `${formatNumber(run.achievedRps)} req/s`, run.achievedRps < run.targetRps * 0.95 ? 'fig-bad' : 'fig-key'],
    ['requests', formatInt(run.requests)],
    ['dropped arrivals', formatInt(run.dropped), run.dropped ? 'fig-bad' : ''],
    ['duration', formatDuration(run.durationSec * 1000)],
    ['2xx share', formatShare(run.requests ? ok / run.requests : 0)],
    ['p50 / p95 / p99', `${formatMs(run.latency.p50Ms)} / ${formatMs(run.latency.p95Ms)} / ${formatMs(run.latency.p99Ms)}`],
    ['engine', run.engine],
  ]);
}

function profileRun(run: ProfileRun): HTMLElement {
  const statuses = Object.entries(run.statusCounts).sort(([a], [b]) => a.localeCompare(b));
  const ok = statuses.filter(([code]) => code.startsWith('2')).reduce((a, [, n]) => a + n, 0);
  return h(
    'article',
    { class: 'probe' },
    h('header', { class: 'probe-head' }, h('h3', null, `Profile ${run.scenario} `, h('span', { class: 'muted' }, run.operation))),
    profileFigures(run, ok),
    h(
      'p',
      { class: 'status-counts' },
      statuses.map(([code, n]) => h('span', { class: 'mini' }, `${code}: ${formatInt(n)}`)),
      run.thresholds.map((t) => h('span', { class: `mini ${t.ok ? 'v-PASS' : 'v-FAIL'}` }, `${t.ok ? '✓' : '✗'} ${t.name}`)),
    ),
    h(
      'div',
      { class: 'charts' },
      rateOverTimeChart('Offered vs achieved rate over time', run.timeSeries),
      statusShareChart('2xx / 429 / 5xx share over time', run.timeSeries),
      p95OverTimeChart('p95 latency over time', run.timeSeries),
      latencyBars('Latency percentiles', run.latency),
    ),
  );
}

const PROFILE_COLUMNS = ['scenario', 'operation', 'engine', 'target/s', 'achieved/s', 'duration', 'requests', 'dropped', 'p50', 'p95', 'p99', 'max', 'thresholds'];

function profilesTable(profiles: readonly ProfileRun[]): HTMLDivElement {
  return table(
    PROFILE_COLUMNS,
    profiles.map((r) => [
      r.scenario,
      r.operation,
      r.engine,
      r.targetRps,
      r.achievedRps,
      formatDuration(r.durationSec * 1000),
      r.requests,
      r.dropped,
      formatMs(r.latency.p50Ms),
      formatMs(r.latency.p95Ms),
      formatMs(r.latency.p99Ms),
      formatMs(r.latency.maxMs),
      `${r.thresholds.filter((t) => t.ok).length}/${r.thresholds.length} ok`,
    ]),
  );
}

function totalRequests(load: LoadSection): number {
  const probeRequests = load.probes.reduce((acc, p) => acc + (p.kind === 'rate-limit' ? p.steps.reduce((a, st) => a + st.sent, 0) : p.requests), 0);
  return probeRequests + load.profiles.reduce((acc, r) => acc + r.requests, 0);
}

export function renderLoad(container: HTMLElement, results: PageResults): void {
  const load = results.load;
  if (!load) {
    container.appendChild(h('p', { class: 'muted' }, 'This run has no load stage (it was skipped with --no-load, or the profile enables no probe).'));
    return;
  }
  const checksById = new Map(results.checks.map((c) => [c.id, c]));
  container.appendChild(
    figures([
      ['engine', load.engine],
      ['started', formatTimestamp(load.startedAt)],
      ['duration', formatDuration(load.durationMs)],
      ['requests (aggregated)', formatInt(totalRequests(load)), 'fig-key'],
    ]),
  );
  for (const probe of load.probes) container.appendChild(probe.kind === 'rate-limit' ? rateLimitProbe(probe, checksById) : bodySizeProbe(probe, checksById));
  if (!load.profiles.length) return;
  container.appendChild(h('h3', null, 'Load profiles'));
  container.appendChild(profilesTable(load.profiles));
  for (const run of load.profiles) container.appendChild(profileRun(run));
}
