// The live progress line of load runs: offered and achieved rate, the
// shares of 2xx/429/5xx and p95 of the last second, as a run's progress
// events (src/run-events/events.ts) carry it. `ptas load` prints its own
// straight to its terminal (progressPrinter, printLine), which shows it as
// every run's terminal does (src/run-events/terminal.ts).
import { terminalSink } from '../../src/run-events/terminal.ts';
import type { ProgressSnapshot } from './options.ts';

const pct = (share: number) => `${(share * 100).toFixed(0)}%`;

export function formatProgress(label: string, p: ProgressSnapshot): string {
  return (
    `${label} ${p.elapsedSec.toFixed(0)}s ${p.phase}: offered ${p.offeredRps.toFixed(0)}/s achieved ${p.achievedRps.toFixed(0)}/s ` +
    `2xx ${pct(p.share2xx)} 429 ${pct(p.share429)} 5xx ${pct(p.share5xx)} p95 ${p.p95Ms === undefined ? '-' : `${p.p95Ms.toFixed(1)} ms`}` +
    `${p.dropped ? ` dropped ${p.dropped}` : ''}`
  );
}

export interface ProgressPrinter {
  onProgress(snapshot: ProgressSnapshot): void;
  /** This run is over: its part of the line goes (call before printing anything else). */
  done(): void;
}

export function progressPrinter(out: NodeJS.WritableStream, label: string): ProgressPrinter {
  const terminal = terminalSink(out);
  return {
    onProgress: (snapshot) => terminal({ kind: 'progress', source: label, line: formatProgress(label, snapshot), elapsedSec: snapshot.elapsedSec }),
    done: () => terminal({ kind: 'progress-end', source: label }),
  };
}

/** Prints a line of its own, clearing a progress line first (it is redrawn on the next tick). */
export function printLine(out: NodeJS.WritableStream, text: string): void {
  terminalSink(out)({ kind: 'log', line: text.replace(/\n$/, '') });
}
