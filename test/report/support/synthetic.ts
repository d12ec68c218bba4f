// Synthetic results for the report's tests and benchmark: deterministic (a
// seeded generator), shaped like real runs (exchange counts, header sets and
// body sizes follow what `ptas run` records against the reference) and, for
// the load section, aggregated the way the load stage writes it.
import type { CheckRecord, RecordEntry } from '../../../src/check/record.ts';
import type { CheckResult, Verdict, Area, Severity } from '../../../src/check/model.ts';
import type { RecordedExchange } from '../../../src/http/exchange.ts';
import { curlLine } from '../../../src/http/exchange.ts';
import type { RunResults } from '../../../src/results/model.ts';
import type { LoadSection, ProfileRun, RateLimitProbe, BodySizeProbe, TimeBucket, LatencySummary } from '../../../src/results/load-model.ts';
import { buildResults } from '../../../src/results/build.ts';
import { catalogue } from '../../../src/requirements.ts';

/** mulberry32: small, fast and good enough to vary fixtures reproducibly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** Picks by weight: [[value, weight], …]. */
function weighted<T>(rng: Rng, table: ReadonlyArray<readonly [T, number]>): T {
  const total = table.reduce((a, [, w]) => a + w, 0);
  let r = rng() * total;
  for (const [value, w] of table) {
    r -= w;
    if (r <= 0) return value;
  }
  return table[table.length - 1]![0];
}

const BASE = 'http://127.0.0.1:40123';
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('');
const uuid = (rng: Rng) => `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-a${hex(rng, 3)}-${hex(rng, 12)}`;

function responseHeaders(length: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(length),
    'cache-control': 'no-store',
    date: 'Sun, 22 Nov 2026 21:13:47 GMT',
    connection: 'keep-alive',
    'keep-alive': 'timeout=5',
    ...extra,
  };
}

function userBody(rng: Rng): string {
  return JSON.stringify(
    {
      id: uuid(rng),
      firstName: pick(rng, ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara']),
      lastName: pick(rng, ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov']),
      email: `user${Math.floor(rng() * 1e6)}@example.test`,
      timestampOffset: '+01:00',
      journeys: [{ flow: 'BUY', assetGroup: 'CRYPTO' }, { flow: 'SELL', assetGroup: 'CRYPTO' }],
      terms: [{ id: uuid(rng), version: '2026-01', accepted: true }],
      createdAt: '2026-11-22T21:13:47.000Z',
    },
    null,
    2,
  );
}

function offerBody(rng: Rng): string {
  return JSON.stringify(
    {
      offerId: uuid(rng),
      status: pick(rng, ['ACCEPTED', 'PENDING', 'EXECUTED']),
      trade: { baseAsset: 'BTC', quoteAsset: 'EUR', side: pick(rng, ['BUY', 'SELL']), amount: (rng() * 2).toFixed(8), price: (50000 + rng() * 10000).toFixed(2) },
      externalTransactionId: uuid(rng),
      validUntil: '2026-11-22T21:14:17.000Z',
    },
    null,
    2,
  );
}

function listBody(rng: Rng): string {
  const items = Array.from({ length: 5 + Math.floor(rng() * 10) }, () => ({ id: uuid(rng), vasp: 'Example VASP', address: hex(rng, 40), network: 'ETH', createdAt: '2026-11-22T21:13:47.000Z' }));
  return JSON.stringify({ items }, null, 2);
}

const ERROR_BODY = JSON.stringify({ error: { code: 'unauthorized', message: 'missing bearer credential' } }, null, 2);

function tokenExchange(rng: Rng, id: number, label: string): RecordedExchange {
  const body = JSON.stringify({ grant_type: 'client_credentials', client_id: 'ptas-reference-client', client_secret: `«client_secret#${hex(rng, 8)}»` }, null, 2);
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const resBody = JSON.stringify({ expires_in: 300, access_token: `«access_token#${hex(rng, 8)}»`, refresh_token: `«refresh_token#${hex(rng, 8)}»` }, null, 2);
  return {
    id,
    label,
    startedAt: '2026-11-22T21:13:47.166Z',
    durationMs: Math.round(rng() * 300) / 10,
    request: { method: 'POST', url: `${BASE}/v1/oauth/token`, headers, body, bodyBytes: body.length },
    curl: curlLine('POST', `${BASE}/v1/oauth/token`, headers, body.replace(/«client_secret#[0-9a-f]+»/, '$PTAS_CLIENT_SECRET')),
    response: { status: 200, headers: responseHeaders(940), body: resBody, bodyBytes: 940, truncated: false },
  };
}

function apiExchange(rng: Rng, id: number, failing: boolean): RecordedExchange {
  const kind = weighted(rng, [['user', 4], ['offer', 3], ['list', 1], ['error', 2]] as const);
  const path = kind === 'user' ? `/v2/users/${uuid(rng)}` : kind === 'offer' ? `/v1/offers/${uuid(rng)}/accept` : kind === 'list' ? '/v1/crypto/withdrawal-addresses' : `/v2/users/${uuid(rng)}`;
  const method = kind === 'offer' ? 'POST' : 'GET';
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer «access_token#${hex(rng, 8)}»`, 'x-user-id': uuid(rng) };
  const status = kind === 'error' ? pick(rng, [401, 404, 422]) : failing && rng() < 0.5 ? pick(rng, [200, 500, 400]) : 200;
  const body = kind === 'user' ? userBody(rng) : kind === 'offer' ? offerBody(rng) : kind === 'list' ? listBody(rng) : ERROR_BODY;
  const exchange: RecordedExchange = {
    id,
    label: kind === 'error' ? 'request the suite expects to be rejected' : `${method} ${kind}`,
    startedAt: '2026-11-22T21:13:47.200Z',
    durationMs: Math.round(rng() * 800) / 10,
    request: { method, url: `${BASE}${path}`, headers, bodyBytes: 0 },
    curl: curlLine(method, `${BASE}${path}`, { ...headers, authorization: 'Bearer $ACCESS_TOKEN' }, undefined),
    response: { status, headers: responseHeaders(body.length), body, bodyBytes: body.length, truncated: false },
  };
  if (failing && rng() < 0.4) {
    exchange.schemaErrors = [
      { instancePath: '/trade/price', message: 'must be string', keyword: 'type', params: { type: 'string' }, kind: 'violation' },
      { instancePath: '', message: "must have required property 'externalTransactionId'", keyword: 'required', params: { missingProperty: 'externalTransactionId' }, kind: 'absent' },
    ];
  }
  if (failing && rng() < 0.1) {
    delete exchange.response;
    exchange.error = { code: 'CONNECTION_RESET', message: 'the connection was reset after 0 bytes of the response' };
  }
  return exchange;
}

const AREAS: Area[] = ['auth', 'users', 'crypto-transfers', 'trading', 'webhooks'];

const REASONS: Record<Exclude<Verdict, 'PASS'>, string[]> = {
  FAIL: ['refresh token reused at 21:13:47 was accepted: 200', 'GET /v2/users/{id} answered 500 to an unknown user; expected 404', 'response body does not match accepted-trade.schema.json: /trade/price must be string'],
  ERROR: ['the connection was reset while reading the response of POST /v1/offers/{id}/accept'],
  WARN: ['an unknown flow was rejected with 400; the spec documents 422'],
  REVIEW: ['expires_in 300 matches exp - iat = 300 s when read as seconds; the spec does not show the unit'],
  SKIP: ['no operation to create an offer is configured: set trading.createOffer'],
  // Never drawn: no check gives WAIVED, a waiver file does (src/results/waivers.ts).
  WAIVED: [],
  // Never drawn: no check gives FLAKY, ptas merge does (src/results/attempts.ts).
  FLAKY: [],
};

export function syntheticCheck(rng: Rng, index: number, requirementsByArea: Map<string, string[]>): CheckResult {
  const area = AREAS[index % AREAS.length]!;
  const verdict = weighted<Verdict>(rng, [['PASS', 80], ['FAIL', 6], ['WARN', 4], ['REVIEW', 4], ['SKIP', 5], ['ERROR', 1]]);
  const severity: Severity = verdict === 'WARN' ? 'SHOULD' : verdict === 'REVIEW' ? 'REVIEW' : 'MUST';
  const exchanges = verdict === 'SKIP' ? 0 : weighted(rng, [[1, 35], [2, 25], [3, 15], [4, 10], [8, 10], [12, 5]] as const);
  const failing = verdict === 'FAIL' || verdict === 'ERROR';
  const evidence: RecordedExchange[] = [];
  for (let i = 0; i < exchanges; i++) evidence.push(i === 0 ? tokenExchange(rng, index * 20 + i, 'obtain a token pair (client_credentials)') : apiExchange(rng, index * 20 + i, failing));
  const ids = requirementsByArea.get(area) ?? ['TOKEN-CC-ISSUES-PAIR'];
  const polling = exchanges === 12;
  return {
    id: `${area}.synthetic-check-${String(index).padStart(4, '0')}`,
    title: `Synthetic ${area} check number ${index} modelled on a real one`,
    area,
    requirements: [ids[index % ids.length]!],
    severity,
    verdict,
    reason: verdict === 'PASS' ? undefined : pick(rng, REASONS[verdict]),
    details: failing ? { expected: 404, actual: 500 } : undefined,
    findings: verdict === 'REVIEW' || verdict === 'WARN' ? [{ level: verdict, message: 'Retry-After: 1 (seconds)', details: { header: 'retry-after' } }] : [],
    evidence,
    timeline: polling ? Array.from({ length: 10 }, (_, i) => ({ atMs: 200 * 2 ** i, event: 'poll', detail: i < 9 ? '202 PENDING' : '200 EXECUTED' })) : [],
    target: 'target',
    durationMs: Math.round(rng() * 400),
    record: syntheticRecord(verdict, evidence),
  };
}

/**
 * The record a check of this shape keeps (src/check/record.ts): a rule for
 * each answer it judged (what the request was, its status, the body's first
 * 120 characters on a failure), and the claims its verdict comes from.
 */
function syntheticRecord(verdict: Verdict, evidence: readonly RecordedExchange[]): CheckRecord {
  const rules: RecordEntry[] = evidence.slice(1).map((e) => ({
    rule: { rule: 'status', what: `${e.request.method} ${new URL(e.request.url).pathname}`, status: e.response?.status ?? 0, bodyHint: e.response && e.response.status >= 400 ? ` (body: ${(e.response.body ?? '').slice(0, 120)})` : '', exchange: e.id, expected: [200] },
  }));
  const claim: Partial<Record<Verdict, RecordEntry>> = {
    WARN: { level: 'WARN', message: 'Retry-After: 1 (seconds)', details: { header: 'retry-after' }, rests: { kind: 'sentence', on: 'SPEC-7-TOKEN-CODES' } },
    REVIEW: { level: 'REVIEW', message: 'Retry-After: 1 (seconds)', details: { header: 'retry-after' } },
    FAIL: { level: 'FAIL', message: 'the refresh token reused was accepted: 200', details: { expected: 404, actual: 500, exchange: evidence.at(-1)?.id }, rests: { kind: 'sentence' }, observed: { kind: 'answer', status: 500 } },
  };
  return {
    claims: [...rules, ...(claim[verdict] ? [claim[verdict]!] : [])],
    ...(verdict === 'SKIP' ? { skipped: { reason: 'no second client (set auth.otherClientId in the profile to run it)', configKey: 'auth.otherClientId' } } : {}),
    ...(verdict === 'ERROR' ? { stoppedBy: 'the check could not run: connect ECONNREFUSED 127.0.0.1:8080' } : {}),
  };
}

// ---- load section ------------------------------------------------------

function latency(base: number): LatencySummary {
  return { p50Ms: base, p90Ms: base * 1.8, p95Ms: base * 2.4, p99Ms: base * 4.1, maxMs: base * 9 };
}

/** One bucket per second of a run at `rate(t)` with a limiter at `limit` req/s. */
function series(seconds: number, rate: (t: number) => number, limit: number, rng: Rng, start = 0): TimeBucket[] {
  const out: TimeBucket[] = [];
  for (let t = 0; t < seconds; t++) {
    const offered = Math.round(rate(t));
    const sent = Math.max(0, offered - (rng() < 0.02 ? Math.floor(offered * 0.01) : 0));
    const status5xx = rng() < 0.01 ? Math.ceil(sent * 0.002) : 0;
    const status2xx = Math.min(sent - status5xx, limit);
    const status429 = sent - status5xx - status2xx;
    out.push({ tSec: start + t, offered, sent, status2xx, status429, status5xx, other: 0, p95Ms: 8 + rng() * 4 + (offered > limit ? 3 : 0) });
  }
  return out;
}

function rateLimitProbe(rng: Rng, checkId: string, operation: string, limit: number): RateLimitProbe {
  const rates = [20, 40, 60, 80, 100, 120, 140, 160, 200, 240];
  const steps = rates.map((offeredRps) => {
    const sent = offeredRps * 5;
    const accepted = Math.min(sent, limit * 5 + (offeredRps > limit ? 50 : 0));
    const rateLimited = sent - accepted;
    return {
      offeredRps,
      durationSec: 5,
      sent,
      dropped: 0,
      accepted,
      acceptedRps: accepted / 5,
      rateLimited,
      serverErrors: 0,
      transportErrors: 0,
      otherStatus: 0,
      share429: rateLimited / sent,
      latencyAccepted: latency(4 + rng()),
      latency429: rateLimited ? latency(1 + rng()) : undefined,
    };
  });
  const onset = steps.find((s) => s.share429 > 0.05)?.offeredRps;
  return {
    kind: 'rate-limit',
    checkId,
    operation,
    engine: 'embedded',
    steps,
    onsetRps: onset,
    estimatedLimitRps: limit,
    capRps: 240,
    expectedLimitRps: limit,
    headers: { retryAfter: '1', fields: { 'ratelimit-policy': `"default";q=${limit};w=1`, ratelimit: '"default";r=0;t=1' } },
    recovered: true,
    timeSeries: rates.flatMap((r, i) => series(5, () => r, limit, rng, i * 7)),
    verdict: 'PASS',
  };
}

function bodySizeProbe(limit: number): BodySizeProbe {
  const steps: BodySizeProbe['steps'] = [];
  let lo = 1024;
  let hi = 16 * 1024 * 1024;
  steps.push({ sizeBytes: lo, framing: 'content-length', outcome: 'accepted', status: 422, durationMs: 3 });
  steps.push({ sizeBytes: hi, framing: 'expect-100-continue', outcome: '413', status: 413, durationMs: 4 });
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const rejected = mid > limit;
    steps.push({ sizeBytes: mid, framing: steps.length % 3 === 0 ? 'chunked' : 'content-length', outcome: rejected ? '413' : 'accepted', status: rejected ? 413 : 422, durationMs: 2 + (mid / 1e6) * 3 });
    if (rejected) hi = mid;
    else lo = mid;
  }
  return { kind: 'body-size', checkId: 'load.token-body-size-limit', operation: 'POST /v1/oauth/token', steps, largestAcceptedBytes: lo, smallestRejectedBytes: hi, requests: steps.length, requestBudget: 2 * 24 + 4, verdict: 'PASS' };
}

function profile(rng: Rng, scenario: string, seconds: number, rate: (t: number) => number, limit: number): ProfileRun {
  const timeSeries = series(seconds, rate, limit, rng);
  const requests = timeSeries.reduce((a, b) => a + b.sent, 0);
  const sum = (k: 'status2xx' | 'status429' | 'status5xx') => timeSeries.reduce((a, b) => a + b[k], 0);
  return {
    kind: 'profile',
    scenario,
    operation: 'GET /v2/users/{id}',
    engine: 'embedded',
    targetRps: Math.round(rate(seconds - 1)),
    achievedRps: Math.round((requests / seconds) * 10) / 10,
    durationSec: seconds,
    requests,
    dropped: timeSeries.reduce((a, b) => a + b.offered - b.sent, 0),
    statusCounts: { '200': sum('status2xx'), '429': sum('status429'), '500': sum('status5xx') },
    latency: latency(6 + rng()),
    thresholds: [
      { name: 'p95 < 250 ms', ok: true },
      { name: 'error share < 1 %', ok: sum('status5xx') / requests < 0.01 },
    ],
    timeSeries,
  };
}

/** A load section whose requests add up to `totalRequests` (the stress profile takes what is left). */
export function syntheticLoad(rng: Rng, totalRequests: number): LoadSection {
  const probes = [rateLimitProbe(rng, 'load.token-rate-limit', 'POST /v1/oauth/token', 100), rateLimitProbe(rng, 'load.offer-rate-limit', 'POST /v1/offers/{id}/accept', 60), bodySizeProbe(65_536)];
  // Profile rates are those of a one-million-request run, scaled to the total asked for.
  const scale = totalRequests / 1_000_000;
  const rate = (full: number) => Math.max(1, Math.round(full * scale));
  const smoke = profile(rng, 'smoke', 60, () => rate(20), 10_000);
  const average = profile(rng, 'average-load', 600, () => rate(500), 10_000);
  const used = probes.reduce((a, p) => a + (p.kind === 'rate-limit' ? p.steps.reduce((x, s) => x + s.sent, 0) : p.requests), 0) + smoke.requests + average.requests;
  const left = totalRequests - used;
  const seconds = 900;
  // A linear ramp whose integral over the run is exactly what is left.
  const start = rate(200);
  const peak = (2 * left) / seconds - start;
  if (peak < start) throw new Error(`syntheticLoad: ${totalRequests} requests are too few for the probes and profiles (use at least 50,000)`);
  let stress = profile(rng, 'stress', seconds, (t) => start + ((peak - start) * t) / (seconds - 1), rate(900));
  const drift = left - stress.requests;
  if (drift !== 0) {
    const last = stress.timeSeries[stress.timeSeries.length - 1]!;
    last.offered += drift;
    last.sent += drift;
    last.status429 += drift;
    stress = { ...stress, requests: stress.requests + drift, statusCounts: { ...stress.statusCounts, '429': stress.statusCounts['429']! + drift } };
  }
  return { engine: 'embedded', startedAt: '2026-11-22T21:20:00.000Z', durationMs: (60 + 600 + 900 + 200) * 1000, probes, profiles: [smoke, average, stress] };
}

export function loadRequestTotal(load: LoadSection): number {
  return (
    load.probes.reduce((a, p) => a + (p.kind === 'rate-limit' ? p.steps.reduce((x, s) => x + s.sent, 0) : p.requests), 0) +
    load.profiles.reduce((a, r) => a + r.requests, 0)
  );
}

export interface SyntheticOptions {
  checks: number;
  /** Requests aggregated in the load section; 0 for none. */
  loadRequests?: number;
  seed?: number;
}

export function syntheticResults(options: SyntheticOptions): RunResults {
  const rng = seededRandom(options.seed ?? 1);
  const requirementsByArea = new Map<string, string[]>();
  for (const r of catalogue().requirements) requirementsByArea.set(r.area, [...(requirementsByArea.get(r.area) ?? []), r.id]);
  const checks = Array.from({ length: options.checks }, (_, i) => syntheticCheck(rng, i, requirementsByArea));
  const load = options.loadRequests ? syntheticLoad(rng, options.loadRequests) : undefined;
  return buildResults({
    run: {
      target: BASE,
      implementation: 'Synthetic implementation',
      suiteVersion: '0.1.0',
      specVersion: catalogue().specVersion,
      profileHash: 'sha256:0123456789ab',
      startedAt: '2026-11-22T21:13:43.194Z',
      finishedAt: '2026-11-22T21:49:48.822Z',
      durationMs: 2_165_628,
      insecureTls: false,
    },
    checks,
    load,
  });
}
