// A byte stream read as lines, wherever its chunks are cut: a line split
// between two chunks is handed on whole, and so is a character whose bytes
// two chunks share (a check's reason may hold "—" or "±").
import { StringDecoder } from 'node:string_decoder';

export interface LineReader {
  write(chunk: Buffer | string): void;
  /** The stream is over: a last line without its newline is handed on too. */
  end(): void;
}

/** Hands on each line without its newline (\n, or \r\n). */
export function lineReader(onLine: (line: string) => void): LineReader {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const take = (text: string) => {
    pending += text;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      onLine(pending.slice(0, newline).replace(/\r$/, ''));
      pending = pending.slice(newline + 1);
    }
  };
  return {
    write: (chunk) => take(typeof chunk === 'string' ? chunk : decoder.write(chunk)),
    end() {
      take(decoder.end());
      if (pending) onLine(pending.replace(/\r$/, ''));
      pending = '';
    },
  };
}
