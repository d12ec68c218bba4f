// What a 429 tells the client about retrying, which the spec does not show
// (7, 8): Retry-After (RFC 9110 10.2.3: delta-seconds or an HTTP-date) and
// rate-limit fields of any of three generations —
//   1. RateLimit + RateLimit-Policy structured fields (draft-ietf-httpapi-ratelimit-headers ≥ 08):
//      RateLimit-Policy: "name";q=100;w=60   RateLimit: "name";r=0;t=5
//   2. the earlier drafts: RateLimit-Limit / -Remaining / -Reset (and the
//      dictionary form RateLimit: limit=100, remaining=0, reset=5 of draft 07);
//   3. the de-facto X-RateLimit-Limit / -Remaining / -Reset.
// Each is parsed and checked for consistency; nothing here is a MUST.
import { parseDictionary, parseList, Token, type Item, type Parameters } from 'structured-headers';

export interface RetryAdvice {
  /** Seconds to wait, as parsed (undefined when absent). */
  retryAfterSec?: number;
  generation: Array<'structured' | 'draft-fields' | 'x-ratelimit'>;
  /** Parsed values: limit, remaining, reset seconds, window seconds, by generation. */
  fields: Record<string, number | string>;
  /** Problems: unparsable values, contradictions. */
  problems: string[];
}

const sf = (value: unknown): number | string | undefined =>
  typeof value === 'number' ? value : typeof value === 'string' ? value : value instanceof Token ? value.toString() : undefined;

/** Retry-After: delta-seconds, or an HTTP-date relative to the answer's Date (or now). */
export function parseRetryAfter(value: string, dateHeader?: string): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/GMT$/.test(text)) return undefined;
  const reference = dateHeader ? Date.parse(dateHeader) : Date.now();
  return Math.max(0, Math.round((at - (Number.isNaN(reference) ? Date.now() : reference)) / 1000));
}

function integer(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined;
}

function itemParams(item: Item | [Item[], Parameters]): Parameters {
  return item[1];
}

export function analyzeRetryAdvice(headers: Record<string, string>, status = 429): RetryAdvice {
  const advice: RetryAdvice = { generation: [], fields: {}, problems: [] };
  const h = (name: string) => headers[name.toLowerCase()];

  const retryAfter = h('retry-after');
  if (retryAfter !== undefined) {
    const seconds = parseRetryAfter(retryAfter, h('date'));
    if (seconds === undefined) advice.problems.push(`Retry-After "${retryAfter}" is neither delta-seconds nor an HTTP-date`);
    else {
      advice.retryAfterSec = seconds;
      if (seconds > 86_400) advice.problems.push(`Retry-After of ${seconds} s (over a day) is not a plausible wait for a rate limit`);
    }
  }

  const policy = h('ratelimit-policy');
  const limit = h('ratelimit');
  if (policy !== undefined || (limit !== undefined && !/(^|,)\s*limit\s*=/.test(limit))) {
    advice.generation.push('structured');
    try {
      const quotas = new Map<string, { q?: number; w?: number }>();
      for (const member of policy ? parseList(policy) : []) {
        const params = itemParams(member);
        const name = String(sf(Array.isArray(member[0]) ? undefined : member[0]) ?? '');
        const q = sf(params.get('q'));
        const w = sf(params.get('w'));
        if (typeof q !== 'number') advice.problems.push(`RateLimit-Policy "${name}" has no numeric quota q`);
        quotas.set(name, { q: typeof q === 'number' ? q : undefined, w: typeof w === 'number' ? w : undefined });
        if (typeof q === 'number') advice.fields[`policy ${name} q`] = q;
        if (typeof w === 'number') advice.fields[`policy ${name} w`] = w;
      }
      for (const member of limit ? parseList(limit) : []) {
        const params = itemParams(member);
        const name = String(sf(Array.isArray(member[0]) ? undefined : member[0]) ?? '');
        const r = sf(params.get('r'));
        const t = sf(params.get('t'));
        if (typeof r === 'number') advice.fields[`ratelimit ${name} r`] = r;
        if (typeof t === 'number') advice.fields[`ratelimit ${name} t`] = t;
        const quota = quotas.get(name);
        if (typeof r === 'number' && quota?.q !== undefined && r > quota.q) advice.problems.push(`RateLimit "${name}" says ${r} remaining, more than its quota of ${quota.q}`);
        if (typeof r === 'number' && status === 429 && r > 0) advice.problems.push(`a 429 says ${r} requests remain (RateLimit "${name}" r=${r})`);
        if (typeof t === 'number' && quota?.w !== undefined && t > quota.w) advice.problems.push(`RateLimit "${name}" resets in ${t} s, longer than its ${quota.w} s window`);
        if (typeof t === 'number' && advice.retryAfterSec !== undefined && Math.abs(t - advice.retryAfterSec) > Math.max(1, t)) {
          advice.problems.push(`Retry-After (${advice.retryAfterSec} s) and RateLimit reset (${t} s) disagree`);
        }
      }
    } catch (error) {
      advice.problems.push(`RateLimit fields are not valid structured fields (RFC 9651): ${(error as Error).message}`);
    }
  }

  const draft = { limit: h('ratelimit-limit'), remaining: h('ratelimit-remaining'), reset: h('ratelimit-reset') };
  if (limit !== undefined && /(^|,)\s*limit\s*=/.test(limit)) {
    try {
      const dict = parseDictionary(limit);
      const get = (k: string) => {
        const entry = dict.get(k);
        return entry && !Array.isArray(entry[0]) ? sf(entry[0]) : undefined;
      };
      draft.limit ??= String(get('limit') ?? '');
      draft.remaining ??= String(get('remaining') ?? '');
      draft.reset ??= String(get('reset') ?? '');
    } catch (error) {
      advice.problems.push(`RateLimit "${limit}" is not a valid dictionary: ${(error as Error).message}`);
    }
  }
  checkTriple(advice, 'draft-fields', 'RateLimit', draft, status);
  checkTriple(advice, 'x-ratelimit', 'X-RateLimit', { limit: h('x-ratelimit-limit'), remaining: h('x-ratelimit-remaining'), reset: h('x-ratelimit-reset') }, status);
  return advice;
}

function checkTriple(
  advice: RetryAdvice,
  generation: 'draft-fields' | 'x-ratelimit',
  prefix: string,
  triple: { limit?: string; remaining?: string; reset?: string },
  status: number,
): void {
  if (triple.limit === undefined && triple.remaining === undefined && triple.reset === undefined) return;
  advice.generation.push(generation);
  const limit = integer(triple.limit);
  const remaining = integer(triple.remaining);
  const reset = integer(triple.reset);
  for (const [name, raw, parsed] of [
    ['Limit', triple.limit, limit],
    ['Remaining', triple.remaining, remaining],
    ['Reset', triple.reset, reset],
  ] as const) {
    if (raw !== undefined && raw !== '' && parsed === undefined) advice.problems.push(`${prefix}-${name} "${raw}" is not a non-negative integer`);
    if (parsed !== undefined) advice.fields[`${prefix}-${name}`] = parsed;
  }
  if (limit !== undefined && remaining !== undefined && remaining > limit) advice.problems.push(`${prefix}-Remaining (${remaining}) exceeds ${prefix}-Limit (${limit})`);
  if (remaining !== undefined && remaining > 0 && status === 429) advice.problems.push(`a 429 says ${remaining} requests remain (${prefix}-Remaining)`);
  // X-RateLimit-Reset is often an epoch time, RateLimit-Reset delta seconds: both are plausible, anything else is not.
  if (reset !== undefined && reset > 86_400 && Math.abs(reset - Date.now() / 1000) > 86_400) {
    advice.problems.push(`${prefix}-Reset (${reset}) is neither seconds to wait nor a Unix time near now`);
  }
}
