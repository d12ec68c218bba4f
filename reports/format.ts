// The one set of formatters: the report's server-rendered parts, the page's
// script (reports/html/client/, bundled for the browser, so this module
// imports nothing), the terminal summary and the baseline comparison.

const numberFormat = new Intl.NumberFormat('en-US');

/** Timestamps in UTC: a report is read in other time zones than it was written in. */
export function formatTimestamp(iso: string | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 100) / 10;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  return h ? `${h} h ${m} min ${s} s` : `${m} min ${s} s`;
}

/** A count, rounded, with thousands separators ("1,000,000"); — when absent. */
export function formatInt(n: number | undefined | null): string {
  return n === undefined || n === null ? '—' : numberFormat.format(Math.round(n));
}

/** Whole numbers with thousands separators, others with `digits` decimals; — when absent. */
export function formatNumber(n: number | undefined | null, digits = 1): string {
  if (n === undefined || n === null || Number.isNaN(n)) return '—';
  return Number.isInteger(n) ? numberFormat.format(n) : n.toFixed(digits);
}

/** A latency: one decimal below 10 ms, whole milliseconds above. */
export function formatMs(ms: number | undefined | null): string {
  if (ms === undefined || ms === null) return '—';
  return ms < 9.95 ? `${ms.toFixed(1)} ms` : `${numberFormat.format(Math.round(ms))} ms`;
}

/** A share (0..1) as a percentage: one decimal below 10 %. */
export function formatShare(share: number | undefined | null): string {
  if (share === undefined || share === null) return '—';
  const pct = share * 100;
  return `${pct < 10 && pct > 0 ? pct.toFixed(1) : Math.round(pct)} %`;
}

/** Bytes exactly, and in KiB or MiB beside them from 1 KiB on. */
export function formatBytes(bytes: number | undefined | null): string {
  if (bytes === undefined || bytes === null) return '—';
  if (bytes < 1024) return `${numberFormat.format(bytes)} B`;
  const [unit, size] = bytes < 1024 * 1024 ? ['KiB', 1024] : ['MiB', 1024 * 1024];
  return `${numberFormat.format(bytes)} B (${(bytes / size).toFixed(bytes % size === 0 ? 0 : 2)} ${unit})`;
}

/** A chart's axis label: 1.2G, 3.4M, 12.5k, 0.25. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${+(n / 1e9).toFixed(1)}G`;
  if (abs >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${+(n / 1e3).toFixed(1)}k`;
  return `${+n.toFixed(2)}`;
}

/** A chart's axis label for bytes: 1.5 MiB, 12 KiB, 300 B. */
export function compactBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/** A body as the implementer wants to read it: pretty JSON when it parses, as received otherwise. */
export function prettyBody(text: string): string {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}
