// The live progress line of load runs: offered and achieved rate, the
// shares of 2xx/429/5xx and p95 of the last second. On a terminal one line
// is rewritten in place, showing every run in progress side by side (the
// load stage runs two probes at once); in a log a line is printed every few
// seconds per run.
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

interface Board {
  live: Map<string, string>;
  drawn: boolean;
}

const boards = new WeakMap<NodeJS.WritableStream, Board>();

function redraw(out: NodeJS.WritableStream, board: Board): void {
  const line = [...board.live.values()].join('  |  ');
  const width = (out as NodeJS.WriteStream).columns;
  out.write(`\r\x1b[2K${width ? line.slice(0, width - 1) : line}`);
  board.drawn = line.length > 0;
}

export function progressPrinter(out: NodeJS.WritableStream, label: string, logEverySec = 5): ProgressPrinter {
  const tty = Boolean((out as NodeJS.WriteStream).isTTY);
  let board = boards.get(out);
  if (!board) boards.set(out, (board = { live: new Map(), drawn: false }));
  const shared = board;
  let lastLogged = -Infinity;
  return {
    onProgress(snapshot) {
      const line = formatProgress(label, snapshot);
      if (tty) {
        shared.live.set(label, line);
        redraw(out, shared);
      } else if (snapshot.elapsedSec - lastLogged >= logEverySec) {
        out.write(`${line}\n`);
        lastLogged = snapshot.elapsedSec;
      }
    },
    done() {
      if (!tty || !shared.live.delete(label)) return;
      // Clear the line so the caller's next output starts clean; the other runs redraw on their next tick.
      out.write('\r\x1b[2K');
      shared.drawn = false;
    },
  };
}

/** Prints a line of its own, clearing a progress line first (it is redrawn on the next tick). */
export function printLine(out: NodeJS.WritableStream, text: string): void {
  const board = boards.get(out);
  if (board?.drawn) {
    out.write('\r\x1b[2K');
    board.drawn = false;
  }
  out.write(text.endsWith('\n') ? text : `${text}\n`);
}
