// How the console shows times, durations and verdicts.
import type { RunVerdict, Verdict } from '../app/serve/console/api-types.ts';
import { h } from './dom.ts';

/** One formatter for every date (Date.toLocaleString makes one per call: a list's thousand sparkline titles would pay for it). */
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function dateTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}

export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${String(s % 60).padStart(2, '0')} s` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** A CSS class name for a verdict ("NOT CONFORMANT" → "not-conformant"). */
export function verdictClass(verdict: string): string {
  return verdict.toLowerCase().replace(/[^a-z]+/g, '-');
}

export function verdictBadge(verdict: RunVerdict | Verdict | string): HTMLElement {
  return h('span', { class: `badge verdict-${verdictClass(verdict)}`, dataset: { verdict } }, verdict);
}

/** "a1b2c3d4" of a long run id. */
export const shortId = (id: string): string => id.slice(0, 8);
