// Writes the three artifacts of a run into one directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResults } from '../src/results/model.ts';
import { renderHtml, type HtmlOptions } from './html.ts';
import { renderJunit } from './junit.ts';

export interface WrittenReport {
  dir: string;
  html: string;
  json: string;
  junit: string;
}

export function writeReport(results: RunResults, dir: string, options: HtmlOptions = {}): WrittenReport {
  mkdirSync(dir, { recursive: true });
  const written = {
    dir,
    json: path.join(dir, 'results.json'),
    html: path.join(dir, 'index.html'),
    junit: path.join(dir, 'junit.xml'),
  };
  // Compact: a thousand checks with their evidence stay under 5 MB (pretty-printing adds a third); use jq to read it.
  writeFileSync(written.json, JSON.stringify(results) + '\n');
  writeFileSync(written.junit, renderJunit(results));
  writeFileSync(written.html, renderHtml(results, options));
  return written;
}
