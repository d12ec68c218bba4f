// `ptas verify`, first of all: the bundle folder holds only regular files and
// folders. An entry is judged by lstat, never followed: a symbolic link to an
// identical copy elsewhere would hash as listed while the folder a certifier
// archives or forwards does not hold the bytes (or holds a link to anything
// by the time it is read again), and a FIFO or device would block or feed a
// reader. So a link (to a file or a folder), a FIFO, a socket or a device
// anywhere below the bundle is refused, naming its path, before any file is
// read or hashed. The folder given on the command line may itself be a link:
// that is the caller's choice, not the bundle's content.
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { VerifyStep } from './steps.ts';

/** What an entry is when it is neither a regular file nor a folder, for the refusal. */
function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isBlockDevice() || stats.isCharacterDevice()) return 'a device';
  return 'not a regular file';
}

export function verifyEntries(dir: string): VerifyStep {
  const name = 'entries';
  let files = 0;
  // Depth first, in name order, so the first problem named is the same every time.
  const pending: string[] = [''];
  while (pending.length) {
    const relative = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(path.join(dir, relative)).sort().reverse();
    } catch (error) {
      return { name, ok: false, detail: `${relative || dir}: cannot be read as a folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
    }
    for (const entry of names) {
      const child = relative ? `${relative}/${entry}` : entry;
      const stats = lstatSync(path.join(dir, child));
      if (stats.isDirectory()) pending.push(child);
      else if (stats.isFile()) files++;
      else return { name, ok: false, detail: `${child}: ${kindOf(stats)}, not a regular file or folder: a bundle holds its bytes itself (nothing is followed)` };
    }
  }
  return { name, ok: true, detail: `${files} regular files, no link, FIFO, socket or device` };
}
