// One way to print a load figure (reports/load-figures.ts) in the job summary
// and the history page: shares as percentages, bytes as B, whole numbers
// without decimals.
import type { FigureUnit } from './load-figures.ts';

export function formatFigure(value: number | undefined, unit: FigureUnit): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (unit === 'share') return `${(value * 100).toFixed(1)} %`;
  const number = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${number} ${unit === 'bytes' ? 'B' : unit}`;
}
