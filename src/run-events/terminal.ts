// The terminal's view of a run's events: each log line printed as it comes,
// and the live progress of long activities. On a terminal one line is
// rewritten in place, showing every activity in progress side by side (the
// load stage runs two probes at once), and a log line clears it first (it is
// redrawn on the next progress); in a file or a pipe each activity's progress
// is a line of its own every few seconds (progressAsLog). Checks and staircase
// steps are not shown here: their lines are the log's (the runner prints one
// per check), the report has the rest.
import { progressAsLog, type RunEventSink } from './events.ts';

/** What a terminal shows live: each activity's latest progress, and whether a live line stands on the screen. */
interface LiveLine {
  progress: Map<string, string>;
  drawn: boolean;
}

// One per terminal, whoever writes to it: every sink of one stream shares its live line.
const liveLines = new WeakMap<NodeJS.WritableStream, LiveLine>();

function liveLineOf(out: NodeJS.WritableStream): LiveLine {
  let live = liveLines.get(out);
  if (!live) liveLines.set(out, (live = { progress: new Map(), drawn: false }));
  return live;
}

const CLEAR_LINE = '\r\x1b[2K';

function redraw(out: NodeJS.WritableStream, live: LiveLine): void {
  const line = [...live.progress.values()].join('  |  ');
  const width = (out as NodeJS.WriteStream).columns;
  out.write(`${CLEAR_LINE}${width ? line.slice(0, width - 1) : line}`);
  live.drawn = line.length > 0;
}

export function terminalSink(out: NodeJS.WritableStream): RunEventSink {
  if (!(out as NodeJS.WriteStream).isTTY) {
    return progressAsLog((event) => {
      if (event.kind === 'log') out.write(`${event.line}\n`);
    });
  }
  const live = liveLineOf(out);
  return (event) => {
    switch (event.kind) {
      case 'log':
        if (live.drawn) out.write(CLEAR_LINE);
        live.drawn = false;
        out.write(`${event.line}\n`);
        break;
      case 'progress':
        live.progress.set(event.source, event.line);
        redraw(out, live);
        break;
      case 'progress-end':
        // Cleared so that the next line starts clean; the other activities redraw on their next progress.
        if (!live.progress.delete(event.source)) break;
        out.write(CLEAR_LINE);
        live.drawn = false;
        break;
    }
  };
}
