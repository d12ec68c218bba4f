// The checks' evidence, embedded gzip-compressed (reports/html/page-data.ts
// says the format), expanded by the browser's own DecompressionStream the
// first time a check's evidence is opened or the text search needs it: the
// page is interactive before any of it is read. No request is made: the
// bytes come from the page itself.
import { EVIDENCE_ELEMENT_ID, type CheckEvidence } from '../page-data.ts';

function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (typeof DecompressionStream !== 'function') throw new Error('this browser has no DecompressionStream');
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

export class EvidenceStore {
  private lines: string[] | undefined;
  private loading: Promise<string[]> | undefined;
  /** Set when the evidence could not be expanded. */
  failure: Error | undefined;

  /** Expands every check's evidence, once; resolves when done (or failed: see `failure`). */
  load(): Promise<void> {
    this.loading ??= gunzip(bytesOfBase64(document.getElementById(EVIDENCE_ELEMENT_ID)?.textContent ?? '')).then((text) => text.split('\n'));
    return this.loading.then(
      (lines) => {
        this.lines = lines;
      },
      (error: unknown) => {
        this.failure = error instanceof Error ? error : new Error(String(error));
      },
    );
  }

  /** True once load() has finished, expanded or failed. */
  get settled(): boolean {
    return this.lines !== undefined || this.failure !== undefined;
  }

  /** The JSON line of the check at this index of results.checks, once loaded. */
  lineOf(index: number): string | undefined {
    return this.lines?.[index];
  }

  /** The evidence of the check at this index of results.checks, once loaded. */
  evidenceOf(index: number): CheckEvidence | undefined {
    const line = this.lineOf(index);
    return line ? (JSON.parse(line) as CheckEvidence) : undefined;
  }
}
