// A written file as a search for a leaked secret must see it: index.html
// keeps each check's exchanges gzip-compressed (reports/html/page-data.ts),
// so its text is searched with them expanded beside it.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { EVIDENCE_ELEMENT_ID } from '../../reports/html/page-data.ts';

const EVIDENCE = new RegExp(`<script type="application/gzip" data-encoding="base64" id="${EVIDENCE_ELEMENT_ID}">([A-Za-z0-9+/=]*)</script>`);

export function artifactText(file: string, encoding: BufferEncoding = 'utf8'): string {
  const text = readFileSync(file, encoding);
  const packed = EVIDENCE.exec(text)?.[1];
  return packed === undefined ? text : `${text}\n${gunzipSync(Buffer.from(packed, 'base64')).toString(encoding)}`;
}
