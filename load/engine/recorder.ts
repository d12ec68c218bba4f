// What the embedded engine counts while it runs: per phase (k6 scenario)
// answers by outcome and status, latency histograms by outcome, dropped
// arrivals; per second of completion time a bucket for the time series and
// the live progress line; and the headers of the first few refused answers.
import { OUTCOMES, type Outcome } from '../scenarios/metrics.ts';
import { emptyAnswers, type HeaderSample, type LatencyStats, type PhaseResult, type TimeBucket } from '../result/normalized.ts';
import { latencyStats, merged, newHistogram, percentileMs, recordMs, type Histogram } from './histogram.ts';

export class PhaseRecorder {
  readonly answers = emptyAnswers();
  readonly statusCounts: Record<string, number> = {};
  readonly errors: Record<string, number> = {};
  /** Iterations that ended in their set-up, by the set-up answer's status or "unreadable" (PhaseResult.setupFailed). */
  readonly setupFailed: Record<string, number> = {};
  readonly histograms = new Map<Outcome, Histogram>();
  sent = 0;
  dropped = 0;
  /** Of the dropped arrivals, those the engine could not start on time. */
  late = 0;
  /** Milliseconds (run clock) of the first and last started iteration. */
  firstStartMs?: number;
  lastStartMs?: number;
  headerSamples = 0;

  constructor(
    readonly name: string,
    readonly tags: Record<string, string>,
    readonly offeredRps: number,
    readonly startSec: number,
    readonly durationSec: number,
  ) {}

  latency(outcomes: readonly Outcome[] = OUTCOMES): LatencyStats | undefined {
    const selected = outcomes.map((o) => this.histograms.get(o)).filter((h): h is Histogram => Boolean(h));
    if (selected.length === 1) return latencyStats(selected[0]);
    const sum = merged(selected);
    const stats = latencyStats(sum);
    sum.destroy();
    return stats;
  }

  result(): PhaseResult {
    const span = this.firstStartMs === undefined || this.lastStartMs === undefined ? 0 : (this.lastStartMs - this.firstStartMs) / 1000;
    // n arrivals spaced evenly span (n-1) intervals; the planned duration is the fair denominator unless we ran late.
    const achievedSpan = Math.max(this.durationSec, span + (this.sent > 1 ? span / (this.sent - 1) : 0));
    return {
      name: this.name,
      tags: this.tags,
      offeredRps: this.offeredRps,
      startSec: this.startSec,
      durationSec: this.durationSec,
      sent: this.sent,
      dropped: this.dropped,
      ...(this.late ? { late: this.late } : {}),
      answers: { ...this.answers },
      statusCounts: { ...this.statusCounts },
      latency: { all: this.latency(), '2xx': this.latency(['2xx']), '429': this.latency(['429']) },
      achievedRps: achievedSpan > 0 ? this.sent / achievedSpan : 0,
      ...(Object.keys(this.errors).length ? { errors: { ...this.errors } } : {}),
      ...(Object.keys(this.setupFailed).length ? { setupFailed: { ...this.setupFailed } } : {}),
    };
  }
}

interface OpenBucket {
  bucket: TimeBucket;
  histogram: Histogram;
}

/** Per-second buckets by completion time; each is closed (p95 computed, histogram freed) once it is two seconds old. */
export class TimeSeries {
  private readonly open = new Map<number, OpenBucket>();
  readonly closed: TimeBucket[] = [];

  private at(second: number): OpenBucket {
    let entry = this.open.get(second);
    if (!entry) {
      entry = { bucket: { tSec: second, offered: 0, sent: 0, status2xx: 0, status429: 0, status5xx: 0, other: 0 }, histogram: newHistogram() };
      this.open.set(second, entry);
    }
    return entry;
  }

  arrival(ms: number, started: boolean): void {
    const b = this.at(Math.floor(ms / 1000)).bucket;
    b.offered++;
    if (started) b.sent++;
  }

  answer(ms: number, outcome: Outcome, latencyMs: number): void {
    const entry = this.at(Math.floor(ms / 1000));
    if (outcome === '2xx') entry.bucket.status2xx++;
    else if (outcome === '429') entry.bucket.status429++;
    else if (outcome === '5xx') entry.bucket.status5xx++;
    else entry.bucket.other++;
    recordMs(entry.histogram, latencyMs);
  }

  /** The bucket of a second, open or closed (for progress lines). */
  peek(second: number): { bucket: TimeBucket; p95Ms?: number } | undefined {
    const entry = this.open.get(second);
    if (entry) return { bucket: entry.bucket, p95Ms: entry.histogram.totalCount ? percentileMs(entry.histogram, 95) : undefined };
    const done = this.closed.find((b) => b.tSec === second);
    return done ? { bucket: done, p95Ms: done.p95Ms } : undefined;
  }

  closeBefore(second: number): void {
    for (const [s, entry] of [...this.open]) {
      if (s >= second) continue;
      if (entry.histogram.totalCount) entry.bucket.p95Ms = percentileMs(entry.histogram, 95);
      entry.histogram.destroy();
      this.closed.push(entry.bucket);
      this.open.delete(s);
    }
  }

  finish(): TimeBucket[] {
    this.closeBefore(Infinity);
    return this.closed.sort((a, b) => a.tSec - b.tSec);
  }
}

export class HeaderSampler {
  readonly samples: HeaderSample[] = [];

  constructor(private readonly perPhase: number) {}

  /** The statuses whose headers are sampled: refused answers (429, 5xx). Transports keep the headers of no others. */
  static samples(status: number): boolean {
    return status === 429 || status >= 500;
  }

  /** Would an answer with this status be kept? Asked before the headers are parsed: most refused answers are not sampled. */
  wants(phase: PhaseRecorder, status: number): boolean {
    return HeaderSampler.samples(status) && phase.headerSamples < this.perPhase;
  }

  /** Keeps the headers of the first refused (429/5xx) answers of each phase. */
  offer(phase: PhaseRecorder, status: number, headers: Record<string, string | string[] | undefined>): void {
    if (!this.wants(phase, status)) return;
    phase.headerSamples++;
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    this.samples.push({ phase: phase.name, status, headers: flat });
  }
}
