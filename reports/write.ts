// Writes the three artifacts of a run into one directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../src/results/model.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';

export interface WrittenReport {
  dir: string;
  html: string;
  json: string;
  junit: string;
}

export function writeReport(results: RunResults, dir: string): WrittenReport {
  mkdirSync(dir, { recursive: true });
  const written = {
    dir,
    json: path.join(dir, 'results.json'),
    html: path.join(dir, 'index.html'),
    junit: path.join(dir, 'junit.xml'),
  };
  writeFileSync(written.json, JSON.stringify(results, null, 2) + '\n');
  writeFileSync(written.junit, renderJunit(results));
  writeFileSync(written.html, renderHtml(results));
  return written;
}
