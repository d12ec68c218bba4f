// An implementation's trend (its latest run verdicts, oldest first) as an
// inline SVG: one bar per run, taller the better the verdict, coloured by the
// stylesheet from its verdict class (no inline style: the policy has none).
import type { ImplementationSummary } from '../app/serve/console/api-types.ts';
import { svg } from './dom.ts';
import { dateTime, verdictClass } from './format.ts';

const HEIGHT: Record<string, number> = { CONFORMANT: 16, 'CONFORMANT WITH WAIVERS': 13, INCOMPLETE: 8, 'NOT CONFORMANT': 5 };
const BAR = 5;
const GAP = 2;
const TOP = 18;

export function sparkline(trend: ImplementationSummary['trend']): SVGSVGElement {
  const width = Math.max(1, trend.length * (BAR + GAP) - GAP);
  const label = trend.length ? `${trend.length} runs, last ${trend[trend.length - 1]!.verdict}` : 'no runs yet';
  return svg(
    'svg',
    { class: 'sparkline', width, height: TOP, viewBox: `0 0 ${width} ${TOP}`, role: 'img', 'aria-label': label },
    ...trend.map((point, i) => {
      const height = HEIGHT[point.verdict] ?? 8;
      return svg(
        'rect',
        { x: i * (BAR + GAP), y: TOP - height, width: BAR, height, class: `spark verdict-${verdictClass(point.verdict)}` },
        svg('title', {}, `${point.verdict} — ${dateTime(point.finishedAt)}`),
      );
    }),
  );
}
