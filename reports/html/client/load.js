// The load section: the 429 staircase, the 413 bisection and the load
// profiles, as figures, inline SVG charts and step tables. Time series are
// merged into at most MAX_POINTS buckets for drawing; tables keep every step.

const MAX_POINTS = 480;

const STATUS_KEYS = [
  { key: 'status2xx', name: '2xx', cls: 'c-2xx' },
  { key: 'status429', name: '429', cls: 'c-429' },
  { key: 'status5xx', name: '5xx', cls: 'c-5xx' },
  { key: 'other', name: 'other / transport', cls: 'c-other' },
];

const OUTCOME_CLASS = { 413: 'c-413', accepted: 'c-2xx', 'other-4xx': 'c-4xx', '5xx': 'c-5xx', reset: 'c-other', timeout: 'c-other' };

/** The bucket size: the smallest step between buckets (a staircase has pauses between its steps). */
function bucketWidth(series) {
  let width = Infinity;
  for (let i = 1; i < series.length; i++) {
    const step = series[i].tSec - series[i - 1].tSec;
    if (step > 0 && step < width) width = step;
  }
  return Number.isFinite(width) ? width : 1;
}

/** Merges neighbouring buckets so a long run draws with a bounded number of points. */
function downsample(series) {
  const width = bucketWidth(series);
  const group = Math.max(1, Math.ceil(series.length / MAX_POINTS));
  const merged = [];
  for (let i = 0; i < series.length; i += group) {
    const slice = series.slice(i, i + group);
    const sum = (k) => slice.reduce((acc, b) => acc + (b[k] || 0), 0);
    const p95s = slice.map((b) => b.p95Ms).filter((v) => v !== undefined);
    merged.push({
      tSec: slice[0].tSec,
      width: width * slice.length,
      offered: sum('offered'),
      sent: sum('sent'),
      status2xx: sum('status2xx'),
      status429: sum('status429'),
      status5xx: sum('status5xx'),
      other: sum('other'),
      // The worst second of a merged bucket, so a spike is not averaged away.
      p95Ms: p95s.length ? Math.max(...p95s) : undefined,
    });
  }
  return merged;
}

function rateOverTimeChart(title, series) {
  const b = downsample(series);
  const rate = (k) => b.map((x) => [x.tSec, x[k] / x.width]);
  return lineChart(
    title,
    [
      { name: 'offered', cls: 'c-offered', points: rate('offered'), dashed: true },
      { name: 'achieved (sent)', cls: 'c-sent', points: rate('sent') },
      { name: '2xx', cls: 'c-2xx', points: rate('status2xx') },
      { name: '429', cls: 'c-429', points: rate('status429') },
    ],
    {
      xLabel: 'seconds since start',
      yLabel: 'requests / s',
      readout: {
        xs: b.map((x) => x.tSec),
        describe: (i) => `t=${fmtNum(b[i].tSec, 0)} s: offered ${fmtNum(b[i].offered / b[i].width)}/s, sent ${fmtNum(b[i].sent / b[i].width)}/s, 2xx ${fmtNum(b[i].status2xx / b[i].width)}/s, 429 ${fmtNum(b[i].status429 / b[i].width)}/s`,
      },
    },
  );
}

function statusShareChart(title, series) {
  const b = downsample(series).map((x) => ({ t: x.tSec, parts: x }));
  return shareChart(title, b, STATUS_KEYS, { xLabel: 'seconds since start', yLabel: 'share of answers' });
}

function p95OverTimeChart(title, series) {
  const b = downsample(series).filter((x) => x.p95Ms !== undefined);
  if (!b.length) return null;
  return lineChart(title, [{ name: 'p95', cls: 'c-latency', points: b.map((x) => [x.tSec, x.p95Ms]) }], {
    xLabel: 'seconds since start',
    yLabel: 'ms',
    readout: { xs: b.map((x) => x.tSec), describe: (i) => `t=${fmtNum(b[i].tSec, 0)} s: p95 ${fmtMs(b[i].p95Ms)}` },
  });
}

function latencyBars(title, latency) {
  return barChart(
    title,
    [
      ['p50', latency.p50Ms],
      ['p90', latency.p90Ms],
      ['p95', latency.p95Ms],
      ['p99', latency.p99Ms],
      ['max', latency.maxMs],
    ].map(([label, value]) => ({ label, value, cls: label === 'max' ? 'c-max' : 'c-latency', text: fmtMs(value) })),
    { yLabel: 'ms' },
  );
}

function figures(pairs) {
  return h(
    'dl',
    { class: 'figures' },
    pairs.filter(Boolean).map(([term, value, cls]) => h('div', { class: cls || '' }, h('dt', null, term), h('dd', null, value))),
  );
}

function table(headers, rows, cls) {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: `steps ${cls || ''}` },
      h('thead', null, h('tr', null, headers.map((x) => h('th', null, x)))),
      h('tbody', null, rows.map((cells) => h('tr', null, cells.map((c) => h('td', { class: typeof c === 'number' ? 'num' : '' }, typeof c === 'number' ? fmtNum(c) : c))))),
    ),
  );
}

function probeHeading(probe, title, checksById) {
  const check = checksById.get(probe.checkId);
  return h(
    'header',
    { class: 'probe-head' },
    h('h3', null, badge(probe.verdict), ' ', title, ' ', h('span', { class: 'muted' }, probe.operation)),
    h(
      'p',
      null,
      check ? h('a', { href: `#${checkAnchor(check, false)}`, class: 'check-link', dataset: { check: checkAnchor(check, false) } }, probe.checkId) : h('code', null, probe.checkId),
      probe.reason ? [' — ', probe.reason] : '',
    ),
  );
}

function rateLimitProbe(probe, checksById) {
  const steps = probe.steps;
  const shareOf = (n, st) => (st.sent ? n / st.sent : 0);
  const stepTitles = steps.map((st) => `${fmtNum(st.offeredRps)} req/s offered: ${fmtNum(st.acceptedRps)} accepted/s, 429 ${fmtPct(st.share429)}`);
  const header = probe.headers
    ? [
        ['Retry-After', probe.headers.retryAfter || 'not sent'],
        ...Object.entries(probe.headers.fields).map(([name, value]) => [name, value]),
      ]
    : [];
  const vMarkers = [];
  if (probe.onsetRps !== undefined) vMarkers.push({ x: probe.onsetRps, label: `429 onset ${fmtNum(probe.onsetRps)} req/s`, cls: 'm-onset' });
  vMarkers.push({ x: probe.capRps, label: `cap ${fmtNum(probe.capRps)} req/s`, cls: 'm-cap' });
  const hMarkers = [];
  if (probe.estimatedLimitRps !== undefined) hMarkers.push({ y: probe.estimatedLimitRps, label: `estimated limit ≈ ${fmtNum(probe.estimatedLimitRps)} req/s`, cls: 'm-limit' });
  if (probe.expectedLimitRps !== undefined) hMarkers.push({ y: probe.expectedLimitRps, label: `profile: ${fmtNum(probe.expectedLimitRps)} req/s`, cls: 'm-expected' });
  const offered = steps.map((st) => st.offeredRps);
  return h(
    'article',
    { class: 'probe' },
    probeHeading(probe, 'Rate limit (429) staircase', checksById),
    figures([
      ['429 onset', probe.onsetRps !== undefined ? `${fmtNum(probe.onsetRps)} req/s` : 'none up to the cap', 'fig-key'],
      ['estimated limit', probe.estimatedLimitRps !== undefined ? `${fmtNum(probe.estimatedLimitRps)} req/s` : '—', 'fig-key'],
      probe.estimatedBurst !== undefined && ['estimated burst', `${fmtInt(probe.estimatedBurst)} requests`],
      probe.estimateMethod && ['estimated from', probe.estimateMethod === 'completion-timeline' ? 'answers per second under 429s' : 'per-step counts'],
      ['expected (profile)', probe.expectedLimitRps !== undefined ? `${fmtNum(probe.expectedLimitRps)} req/s` : 'not set'],
      ['rate cap', `${fmtNum(probe.capRps)} req/s`],
      ['steps', fmtInt(steps.length)],
      ['requests', fmtInt(steps.reduce((a, st) => a + st.sent, 0))],
      ['recovered after back-off', probe.recovered === undefined ? '—' : `${probe.recovered ? 'yes' : 'no'}${probe.backoffSec !== undefined ? ` (waited ${fmtNum(probe.backoffSec)} s)` : ''}`, probe.recovered === false ? 'fig-bad' : ''],
      ['engine', probe.engine],
    ]),
    probe.generatorNote ? h('p', { class: 'notice notice-warn' }, `Load generator: ${probe.generatorNote}`) : null,
    header.length ? h('div', { class: 'rl-headers' }, h('h5', null, 'Rate-limit headers seen (REVIEW)'), table(['header', 'value'], header)) : null,
    h(
      'div',
      { class: 'charts' },
      lineChart(
        'Offered vs accepted rate per step',
        [
          { name: 'offered', cls: 'c-offered', points: steps.map((st) => [st.offeredRps, st.offeredRps]), dashed: true },
          { name: 'accepted', cls: 'c-2xx', points: steps.map((st) => [st.offeredRps, st.acceptedRps]), dots: true, titles: stepTitles },
        ],
        { xLabel: 'offered rate (req/s)', yLabel: 'accepted (req/s)', xMin: 0, vMarkers, hMarkers },
      ),
      lineChart(
        '429 and 5xx share per step',
        [
          { name: '429', cls: 'c-429', points: steps.map((st) => [st.offeredRps, st.share429]), dots: true, titles: stepTitles },
          { name: '5xx', cls: 'c-5xx', points: steps.map((st) => [st.offeredRps, shareOf(st.serverErrors, st)]), dots: true },
          { name: 'transport', cls: 'c-other', points: steps.map((st) => [st.offeredRps, shareOf(st.transportErrors, st)]) },
        ],
        { xLabel: 'offered rate (req/s)', yLabel: 'share of answers', xMin: 0, yMax: 1, yFormat: (v) => `${Math.round(v * 100)}%`, vMarkers: vMarkers.filter((m) => m.cls === 'm-onset') },
      ),
      lineChart(
        'Latency per step: accepted vs 429 (a limiter sheds, it does not queue)',
        [
          { name: 'accepted p50', cls: 'c-p50', points: steps.filter((st) => st.latencyAccepted).map((st) => [st.offeredRps, st.latencyAccepted.p50Ms]), dashed: true },
          { name: 'accepted p95', cls: 'c-2xx', points: steps.filter((st) => st.latencyAccepted).map((st) => [st.offeredRps, st.latencyAccepted.p95Ms]), dots: true },
          { name: '429 p95', cls: 'c-429', points: steps.filter((st) => st.latency429).map((st) => [st.offeredRps, st.latency429.p95Ms]), dots: true },
        ],
        { xLabel: 'offered rate (req/s)', yLabel: 'ms', xMin: 0 },
      ),
      probe.timeSeries.length ? rateOverTimeChart('Offered vs achieved rate over time', probe.timeSeries) : null,
      probe.timeSeries.length ? statusShareChart('2xx / 429 / 5xx share over time', probe.timeSeries) : null,
    ),
    h('h5', null, 'Steps'),
    table(
      ['offered req/s', 's', 'sent', 'dropped', 'accepted', 'accepted/s', '429', '429 share', '5xx', 'transport', 'other', 'p95 accepted', 'p95 429'],
      steps.map((st) => [
        st.offeredRps,
        st.durationSec,
        st.sent,
        st.dropped,
        st.accepted,
        st.acceptedRps,
        st.rateLimited,
        fmtPct(st.share429),
        st.serverErrors,
        st.transportErrors,
        st.otherStatus,
        st.latencyAccepted ? fmtMs(st.latencyAccepted.p95Ms) : '—',
        st.latency429 ? fmtMs(st.latency429.p95Ms) : '—',
      ]),
    ),
    offered.length ? null : h('p', { class: 'muted' }, 'The probe recorded no steps.'),
  );
}

function stepNotes(step) {
  const notes = [];
  if (step.answeredBeforeBodyComplete) notes.push('answered before the body was complete');
  if (step.resetAfterResponse) notes.push('reset after the answer');
  if (step.errorCode) notes.push(step.errorCode);
  return notes.join('; ') || '—';
}

function bodySizeProbe(probe, checksById) {
  const steps = probe.steps;
  const sizes = steps.map((st) => st.sizeBytes).filter((x) => x > 0);
  const log = sizes.length > 0 && Math.max(...sizes) / Math.max(1, Math.min(...sizes)) > 64;
  const boundary =
    probe.largestAcceptedBytes !== undefined && probe.smallestRejectedBytes !== undefined
      ? `largest accepted ${fmtInt(probe.largestAcceptedBytes)} B, smallest rejected ${fmtInt(probe.smallestRejectedBytes)} B`
      : 'not bracketed';
  const hMarkers = [];
  const { largestAcceptedBytes: accepted, smallestRejectedBytes: rejected } = probe;
  if (accepted !== undefined && rejected !== undefined && rejected - accepted <= Math.max(16, accepted * 0.01)) {
    // Found to (nearly) the byte: one line, or the two labels would sit on each other.
    hMarkers.push({ y: rejected, label: `limit: ${fmtInt(accepted)} B accepted, ${fmtInt(rejected)} B → 413`, cls: 'm-onset' });
  } else {
    if (accepted !== undefined) hMarkers.push({ y: accepted, label: `largest accepted ${compactBytes(accepted)}`, cls: 'm-limit' });
    if (rejected !== undefined) hMarkers.push({ y: rejected, label: `smallest 413 ${compactBytes(rejected)}`, cls: 'm-onset' });
  }
  return h(
    'article',
    { class: 'probe' },
    probeHeading(probe, 'Body size (413) bisection', checksById),
    figures([
      ['largest accepted', fmtBytes(probe.largestAcceptedBytes), 'fig-key'],
      ['smallest rejected (413)', fmtBytes(probe.smallestRejectedBytes), 'fig-key'],
      ['boundary', boundary],
      ['requests', `${fmtInt(probe.requests)} of a budget of ${fmtInt(probe.requestBudget)}`],
    ]),
    h(
      'div',
      { class: 'charts' },
      lineChart(
        '413 bisection: body size per step',
        [
          {
            name: 'probed size',
            cls: 'c-size',
            points: steps.map((st, i) => [i + 1, Math.max(1, st.sizeBytes)]),
            dots: true,
            dotClasses: steps.map((st) => OUTCOME_CLASS[st.outcome] || 'c-other'),
            titles: steps.map((st, i) => `step ${i + 1}${st.purpose ? ` (${st.purpose})` : ''}: ${fmtInt(st.sizeBytes)} B, ${st.framing} → ${st.outcome}${st.status ? ` ${st.status}` : ''} in ${fmtMs(st.durationMs)}`),
          },
        ],
        { xLabel: 'step', yLabel: log ? 'bytes (log scale)' : 'bytes', yLog: log, xMin: 1, yFormat: compactBytes, xFormat: (v) => (Number.isInteger(v) ? String(v) : ''), hMarkers },
      ),
      h(
        'div',
        { class: 'outcome-legend' },
        Object.entries(OUTCOME_CLASS).map(([outcome, cls]) => h('span', null, s('svg', { width: 10, height: 10, class: 'legend-dot' }, s('circle', { cx: 5, cy: 5, r: 4, class: cls })), ` ${outcome}`)),
      ),
    ),
    h('h5', null, 'Steps'),
    table(
      ['#', 'purpose', 'size (bytes)', 'sent (bytes)', 'framing', 'outcome', 'status', 'Connection', 'notes', 'time'],
      steps.map((st, i) => [
        i + 1,
        st.purpose || '—',
        st.sizeBytes,
        st.sentBytes ?? '—',
        st.framing,
        h('span', { class: `outcome ${OUTCOME_CLASS[st.outcome] || ''}` }, st.outcome),
        st.status ?? '—',
        st.connection || '—',
        stepNotes(st),
        fmtMs(st.durationMs),
      ]),
    ),
  );
}

function profileRun(run) {
  const statuses = Object.entries(run.statusCounts).sort(([a], [b]) => a.localeCompare(b));
  const ok = statuses.filter(([code]) => code.startsWith('2')).reduce((a, [, n]) => a + n, 0);
  return h(
    'article',
    { class: 'probe' },
    h('header', { class: 'probe-head' }, h('h3', null, `Profile ${run.scenario} `, h('span', { class: 'muted' }, run.operation))),
    figures([
      ['target rate', `${fmtNum(run.targetRps)} req/s`],
      ['achieved rate', `${fmtNum(run.achievedRps)} req/s`, run.achievedRps < run.targetRps * 0.95 ? 'fig-bad' : 'fig-key'],
      ['requests', fmtInt(run.requests)],
      ['dropped arrivals', fmtInt(run.dropped), run.dropped ? 'fig-bad' : ''],
      ['duration', fmtDuration(run.durationSec * 1000)],
      ['2xx share', fmtPct(run.requests ? ok / run.requests : 0)],
      ['p50 / p95 / p99', `${fmtMs(run.latency.p50Ms)} / ${fmtMs(run.latency.p95Ms)} / ${fmtMs(run.latency.p99Ms)}`],
      ['engine', run.engine],
    ]),
    h(
      'p',
      { class: 'status-counts' },
      statuses.map(([code, n]) => h('span', { class: 'mini' }, `${code}: ${fmtInt(n)}`)),
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

function totalRequests(load) {
  const probeRequests = load.probes.reduce((acc, p) => acc + (p.kind === 'rate-limit' ? p.steps.reduce((a, st) => a + st.sent, 0) : p.requests), 0);
  return probeRequests + load.profiles.reduce((acc, r) => acc + r.requests, 0);
}

function renderLoad(container, results) {
  const load = results.load;
  if (!load) {
    container.appendChild(h('p', { class: 'muted' }, 'This run has no load stage (it was skipped with --no-load, or the profile enables no probe).'));
    return;
  }
  const checksById = new Map(results.checks.map((c) => [c.id, c]));
  container.appendChild(
    figures([
      ['engine', load.engine],
      ['started', fmtTimestamp(load.startedAt)],
      ['duration', fmtDuration(load.durationMs)],
      ['requests (aggregated)', fmtInt(totalRequests(load)), 'fig-key'],
    ]),
  );
  for (const probe of load.probes) container.appendChild(probe.kind === 'rate-limit' ? rateLimitProbe(probe, checksById) : bodySizeProbe(probe, checksById));
  if (load.profiles.length) {
    container.appendChild(h('h3', null, 'Load profiles'));
    container.appendChild(
      table(
        ['scenario', 'operation', 'engine', 'target/s', 'achieved/s', 'duration', 'requests', 'dropped', 'p50', 'p95', 'p99', 'max', 'thresholds'],
        load.profiles.map((r) => [
          r.scenario,
          r.operation,
          r.engine,
          r.targetRps,
          r.achievedRps,
          fmtDuration(r.durationSec * 1000),
          r.requests,
          r.dropped,
          fmtMs(r.latency.p50Ms),
          fmtMs(r.latency.p95Ms),
          fmtMs(r.latency.p99Ms),
          fmtMs(r.latency.maxMs),
          `${r.thresholds.filter((t) => t.ok).length}/${r.thresholds.length} ok`,
        ]),
      ),
    );
    for (const run of load.profiles) container.appendChild(profileRun(run));
  }
}
