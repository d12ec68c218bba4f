// A run's bundle as one download: a gzip'd tar whose one folder is the
// bundle as ptasRun wrote it (manifest.json, the reports, the signature), so
// `tar xzf` then `ptas verify FOLDER` checks it. Only regular files are
// packed: a link in the folder never brings in a file from elsewhere.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';

/** The bundle's regular files, relative to it, sorted; and its sub-folders. */
function contents(dir: string): { files: string[]; folders: string[] } {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  const relative = (e: (typeof entries)[number]) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
  return {
    files: entries.filter((e) => e.isFile()).map(relative).sort(),
    folders: entries.filter((e) => e.isDirectory()).map(relative).sort(),
  };
}

/** The archive of `dir`, its files under `folder/`. */
export function bundleArchive(dir: string, folder: string): Readable {
  const pack = tar.pack();
  const gzip = createGzip();
  const { files, folders } = contents(dir);
  pack.pipe(gzip as unknown as NodeJS.WritableStream);
  pack.on('error', (error: Error) => gzip.destroy(error));
  // The download closed early (the client went away): the packing behind it ends quietly.
  gzip.on('close', () => pack.destroy());
  const add = async () => {
    const mtime = statSync(dir).mtime;
    pack.entry({ name: `${folder}/`, type: 'directory', mode: 0o755, mtime });
    for (const sub of folders) pack.entry({ name: `${folder}/${sub}/`, type: 'directory', mode: 0o755, mtime });
    for (const file of files) {
      // A client that went away closed the download: stop packing.
      if (gzip.destroyed) return;
      const full = path.join(dir, file);
      const data = readFileSync(full);
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name: `${folder}/${file}`, type: 'file', mode: 0o644, size: data.length, mtime: statSync(full).mtime }, data, (error) => (error ? reject(error) : resolve()));
        // The entry's own stream fails too when the download is closed mid-file; unheard, that error would end the server.
        entry.on('error', reject);
      });
    }
    pack.finalize();
  };
  add().catch((error: Error) => gzip.destroy(error));
  return gzip;
}
