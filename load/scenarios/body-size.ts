// The 413 boundary scenario on the token endpoint (spec 4.1, 7, 8): bodies
// of exact byte sizes that are otherwise the valid client_credentials JSON,
// padded with insignificant whitespace, so only their size can decide 413.
import { tokenRequest } from './operations.ts';
import { fillJson, type Variables } from '../../src/template.ts';
import type { RequestTemplate } from './types.ts';

export type Framing = 'content-length' | 'chunked' | 'expect-100-continue';

export interface BodySizeScenario {
  name: 'token-body-size-boundary';
  description: string;
  operation: 'token';
  kind: 'body-size';
  request: RequestTemplate;
  /** Largest size probed: it must be refused, or there is no limit below it. */
  maxBytes: number;
  /** The size the profile expects to be the largest accepted (for INCONCLUSIVE when maxBytes is below it). */
  expectedLimitBytes?: number;
}

export const DEFAULT_MAX_PROBE_BYTES = 1024 * 1024;

export function tokenBodySizeBoundary(options: { maxBytes?: number; expectedLimitBytes?: number } = {}): BodySizeScenario {
  return {
    name: 'token-body-size-boundary',
    description: 'Bisection on the body size of POST /v1/oauth/token to the exact byte where 413 starts, then the boundary with chunked and Expect: 100-continue framing.',
    operation: 'token',
    kind: 'body-size',
    request: tokenRequest(),
    maxBytes: options.maxBytes ?? DEFAULT_MAX_PROBE_BYTES,
    expectedLimitBytes: options.expectedLimitBytes,
  };
}

/** Bisection to one byte takes ⌈log2(range)⌉ requests; the budget doubles that and adds the fixed probes. */
export function requestBudget(rangeBytes: number): number {
  return 2 * Math.ceil(Math.log2(Math.max(2, rangeBytes))) + 4;
}

/** UTF-8 length without Buffer or TextEncoder (k6 has neither everywhere). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The unpadded request body: the smallest size that can be probed. */
export function baseBody(request: RequestTemplate, values: Variables): string {
  return JSON.stringify(fillJson(request.json, values));
}

/** The body padded with spaces before its closing brace to exactly `size` bytes (undefined when the base is longer). */
export function paddedBody(base: string, size: number): string | undefined {
  const missing = size - utf8Length(base);
  if (missing < 0 || !base.endsWith('}')) return undefined;
  return base.slice(0, -1) + ' '.repeat(missing) + '}';
}

/**
 * Bisection on "is a body of this size refused?". Knows one size accepted
 * (low) and one refused (high); each answer halves the gap until they are
 * one byte apart: low is the largest accepted size, high the smallest refused.
 */
export class SizeBisection {
  low: number;
  high: number;

  constructor(acceptedBytes: number, refusedBytes: number) {
    this.low = acceptedBytes;
    this.high = refusedBytes;
  }

  /** The next size to probe, or undefined when the boundary is found. */
  next(): number | undefined {
    return this.high - this.low > 1 ? this.low + Math.floor((this.high - this.low) / 2) : undefined;
  }

  record(size: number, refused: boolean): void {
    if (refused) this.high = Math.min(this.high, size);
    else this.low = Math.max(this.low, size);
  }
}
