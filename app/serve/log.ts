// `ptas serve`'s log: one entry per call, each line of it on stderr starting
// "ptas serve: ", which an operator and a log shipper take as the server's
// word. So a value a client chose (a grep, an implementation id, a note made
// from an error message) is written into an entry as JSON (`logValue`:
// quoted, its newlines and control characters escaped), and the sink itself
// indents whatever line an entry still spans (a stack trace), so no text
// inside an entry can begin a line of its own.

/** A client's value in a log entry: JSON, so it cannot break the line or pass for the server's words. */
export const logValue = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** An entry as written: the prefix, and any further line of it indented under the first. */
export function logEntry(line: string): string {
  return `ptas serve: ${line.replace(/\r\n|[\r\n\u2028\u2029]/g, '\n    ')}\n`;
}

/** The server's default log: stderr. */
export const stderrLog = (line: string): void => void process.stderr.write(logEntry(line));
