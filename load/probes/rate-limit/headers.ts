// What a 429 tells the client about retrying, which the spec does not show
// (7, 8): Retry-After (RFC 9110 10.2.3: delta-seconds or an HTTP-date) and
// rate-limit fields of any of three generations —
//   1. RateLimit + RateLimit-Policy structured fields (draft-ietf-httpapi-ratelimit-headers ≥ 08):
//      RateLimit-Policy: "name";q=100;w=60   RateLimit: "name";r=0;t=5
//   2. the earlier drafts: RateLimit-Limit / -Remaining / -Reset (and the
//      dictionary form RateLimit: limit=100, remaining=0, reset=5 of draft 07);
//   3. the de-facto X-RateLimit-Limit / -Remaining / -Reset.
// Each is parsed and checked for consistency; nothing here is a MUST, and
// an answer with none of them is no problem at all: 7 and 8 do not show what
// a 429 carries. A problem is only what is present and cannot be right: a
// value that does not parse, or fields that contradict each other.
// Several quota policies may be listed at once (a per-second and a per-hour
// quota): a 429 is explained when any one of them is exhausted.
import { parseDictionary, parseList, Token, type Item, type Parameters } from 'structured-headers';

export interface RetryAdvice {
  /** Seconds to wait, as parsed (undefined when absent). */
  retryAfterSec?: number;
  generation: Array<'structured' | 'draft-fields' | 'x-ratelimit'>;
  /** Parsed values: limit, remaining, reset seconds, window seconds, by generation. */
  fields: Record<string, number | string>;
  /** Seconds until the quota that refused resets, from rate-limit fields (a wait when Retry-After is absent). */
  resetSec?: number;
  /** The sustained rate the exhausted quota advertises (quota per window), when the fields say which quota refused. */
  advertisedRps?: number;
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
  // RateLimit as a dictionary (limit=, remaining=, reset=) is draft 07's form, read with the draft fields below.
  const dictionaryForm = limit !== undefined && /(^|,)\s*limit\s*=/.test(limit);
  if (policy !== undefined || (limit !== undefined && !dictionaryForm)) {
    advice.generation.push('structured');
    try {
      checkStructured(advice, policy, dictionaryForm ? undefined : limit, status);
    } catch (error) {
      advice.problems.push(`RateLimit fields are not valid structured fields (RFC 9651): ${(error as Error).message}`);
    }
  }

  const draft = { limit: h('ratelimit-limit'), remaining: h('ratelimit-remaining'), reset: h('ratelimit-reset') };
  if (limit !== undefined && dictionaryForm) {
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

interface Quota {
  q?: number;
  w?: number;
}

/**
 * RateLimit-Policy and RateLimit as structured lists. A policy item is a
 * name with q (quota) and w (window seconds) — draft-ietf-httpapi-ratelimit-headers
 * 08 and later — or, in the drafts before, the quota itself as a bare integer
 * with w. A RateLimit item names its policy with r (remaining) and t (seconds
 * to reset); t of a policy that still has quota is not a wait for this answer.
 */
function checkStructured(advice: RetryAdvice, policy: string | undefined, limit: string | undefined, status: number): void {
  const quotas = new Map<string, Quota>();
  for (const [index, member] of (policy ? parseList(policy) : []).entries()) {
    const params = itemParams(member);
    const value = Array.isArray(member[0]) ? undefined : sf(member[0]);
    const bareQuota = typeof value === 'number';
    const name = bareQuota ? `#${index + 1}` : String(value ?? '');
    const q = bareQuota ? value : sf(params.get('q'));
    const w = sf(params.get('w'));
    if (typeof q !== 'number') advice.problems.push(`RateLimit-Policy "${name}" has no numeric quota q`);
    quotas.set(name, { q: typeof q === 'number' ? q : undefined, w: typeof w === 'number' ? w : undefined });
    if (typeof q === 'number') advice.fields[`policy ${name} q`] = q;
    if (typeof w === 'number') advice.fields[`policy ${name} w`] = w;
  }
  const remaining: Array<{ name: string; r: number; t?: number }> = [];
  for (const member of limit ? parseList(limit) : []) {
    const params = itemParams(member);
    const name = String(sf(Array.isArray(member[0]) ? undefined : member[0]) ?? '');
    const r = sf(params.get('r'));
    const t = sf(params.get('t'));
    if (typeof r === 'number') advice.fields[`ratelimit ${name} r`] = r;
    if (typeof t === 'number') advice.fields[`ratelimit ${name} t`] = t;
    const quota = quotas.get(name);
    if (typeof r === 'number' && quota?.q !== undefined && r > quota.q) advice.problems.push(`RateLimit "${name}" says ${r} remaining, more than its quota of ${quota.q}`);
    if (typeof t === 'number' && quota?.w !== undefined && t > quota.w) advice.problems.push(`RateLimit "${name}" resets in ${t} s, longer than its ${quota.w} s window`);
    if (typeof r === 'number') remaining.push({ name, r, t: typeof t === 'number' ? t : undefined });
  }
  const exhausted = remaining.filter((p) => p.r === 0);
  if (status === 429 && remaining.length && exhausted.length === 0) {
    advice.problems.push(`a 429 says requests remain under every quota it lists (${remaining.map((p) => `RateLimit "${p.name}" r=${p.r}`).join(', ')})`);
  }
  const resets = exhausted.map((p) => p.t).filter((t): t is number => t !== undefined);
  if (resets.length) {
    const reset = Math.max(...resets);
    advice.resetSec = reset;
    if (advice.retryAfterSec !== undefined && Math.abs(reset - advice.retryAfterSec) > Math.max(1, reset)) {
      advice.problems.push(`Retry-After (${advice.retryAfterSec} s) and RateLimit reset (${reset} s) disagree`);
    }
  }
  // The quota that refused advertises the sustained rate, when exactly one did and its window is known.
  const refusing = exhausted.length === 1 ? quotas.get(exhausted[0]!.name) : quotas.size === 1 ? [...quotas.values()][0] : undefined;
  if (refusing?.q !== undefined) advice.advertisedRps = refusing.q / (refusing.w !== undefined && refusing.w > 0 ? refusing.w : 1);
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
  if (reset !== undefined && advice.resetSec === undefined) {
    // Seconds to wait, or a Unix time (X-RateLimit-Reset often is one).
    const seconds = reset > 86_400 ? Math.round(reset - Date.now() / 1000) : reset;
    if (seconds >= 0 && seconds <= 86_400) advice.resetSec = seconds;
  }
  if (remaining !== undefined && remaining > 0 && status === 429) advice.problems.push(`a 429 says ${remaining} requests remain (${prefix}-Remaining)`);
  // X-RateLimit-Reset is often an epoch time, RateLimit-Reset delta seconds: both are plausible, anything else is not.
  if (reset !== undefined && reset > 86_400 && Math.abs(reset - Date.now() / 1000) > 86_400) {
    advice.problems.push(`${prefix}-Reset (${reset}) is neither seconds to wait nor a Unix time near now`);
  }
}

/** Seconds a 429 asks the client to wait: Retry-After, else the reset of the quota that refused (undefined when it says neither). */
export function advisedWaitSec(headers: Record<string, string>, status = 429): number | undefined {
  const advice = analyzeRetryAdvice(headers, status);
  return advice.retryAfterSec ?? advice.resetSec;
}
