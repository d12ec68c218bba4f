// Polls until a terminal observation or a hard deadline, with exponential
// backoff between polls (bounded interval). Every poll becomes a timeline
// event, so a poll that never ends in a terminal state leaves a readable
// story — and the deadline holds even when a poll itself never answers.

export interface PollSettings {
  /** Hard limit from the first poll on; polling never runs past it. */
  deadlineMs: number;
  /** First wait between polls (default 100 ms). */
  initialIntervalMs?: number;
  /** Longest wait between polls (default 2000 ms). */
  maxIntervalMs?: number;
  /** Growth of the wait from one poll to the next (default 2). */
  multiplier?: number;
}

export const POLL_DEFAULTS = { initialIntervalMs: 100, maxIntervalMs: 2_000, multiplier: 2 } as const;

export interface PollObservation {
  /** Polling stops at the first terminal observation. */
  terminal: boolean;
  /**
   * Polling also stops here, without a terminal observation: the answer
   * settles what polling was for another way (e.g. the status operation
   * answered a code its declaration rules out, so further polls can only
   * repeat the contradiction).
   */
  final?: boolean;
  /** One line for the timeline, e.g. "status in_progress (HTTP 200)". */
  summary: string;
}

/** Where poll events go: a CheckContext in a check. */
export interface TimelineSink {
  event(name: string, detail?: string): void;
}

export interface PollOutcome<T extends PollObservation> {
  /** True when a terminal observation came before the deadline. */
  reached: boolean;
  /** True when a final (not terminal) observation ended polling before the deadline. */
  stopped?: boolean;
  /** The last observation, terminal or not (undefined when no poll answered). */
  last?: T;
  polls: number;
  elapsedMs: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before poll `n + 1` (n from 1): initial · multiplier^(n-1), at most max. */
export function backoffMs(n: number, settings: PollSettings): number {
  const initial = settings.initialIntervalMs ?? POLL_DEFAULTS.initialIntervalMs;
  const max = settings.maxIntervalMs ?? POLL_DEFAULTS.maxIntervalMs;
  const multiplier = settings.multiplier ?? POLL_DEFAULTS.multiplier;
  return Math.min(max, initial * multiplier ** (n - 1));
}

/** The last poll is sent this long (or half the time left, if less) before the deadline, so it can still answer. */
const FINAL_POLL_RESERVE_MS = 250;
/** Less time than this left: no further poll is worth sending. */
const MIN_FINAL_WINDOW_MS = 20;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Calls `poll` until it returns a terminal observation or `deadlineMs` has
 * passed. A poll still unanswered at the deadline is abandoned (its own
 * request timeout ends it). Errors thrown by `poll` propagate: a poll that can
 * fail transiently should turn the failure into a non-terminal observation.
 */
export async function pollUntilTerminal<T extends PollObservation>(
  poll: (n: number) => Promise<T>,
  settings: PollSettings,
  timeline: TimelineSink,
): Promise<PollOutcome<T>> {
  if (!(settings.deadlineMs > 0)) throw new RangeError(`poll deadline must be positive, got ${settings.deadlineMs}`);
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let last: T | undefined;
  let finalPoll = false;
  for (let n = 1; ; n++) {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), Math.max(0, settings.deadlineMs - elapsed()));
    });
    const pending = poll(n);
    // An abandoned poll may still fail later; that must not become an unhandled rejection.
    pending.catch(() => undefined);
    const answer = await Promise.race([pending, deadline]).finally(() => clearTimeout(timer));
    if (answer === 'deadline') {
      timeline.event(`poll ${n} unanswered`, `no answer before the ${seconds(settings.deadlineMs)} deadline`);
      return { reached: false, last, polls: n, elapsedMs: elapsed() };
    }
    last = answer;
    const at = elapsed();
    if (answer.terminal) {
      timeline.event(`poll ${n}`, `${answer.summary} after ${seconds(at)}: terminal`);
      return { reached: true, last, polls: n, elapsedMs: at };
    }
    if (answer.final) {
      timeline.event(`poll ${n}`, `${answer.summary} after ${seconds(at)}: polling stops`);
      return { reached: false, stopped: true, last, polls: n, elapsedMs: at };
    }
    const left = settings.deadlineMs - at;
    if (finalPoll || left < MIN_FINAL_WINDOW_MS) {
      timeline.event(`poll ${n}`, `${answer.summary} after ${seconds(at)}: still not terminal at the ${seconds(settings.deadlineMs)} deadline`);
      return { reached: false, last, polls: n, elapsedMs: at };
    }
    // When the next regular poll would come too late, one last poll goes out shortly before the deadline.
    const reserve = Math.min(FINAL_POLL_RESERVE_MS, left / 2);
    let wait = backoffMs(n, settings);
    if (wait > left - reserve) {
      wait = left - reserve;
      finalPoll = true;
    }
    timeline.event(`poll ${n}`, `${answer.summary} after ${seconds(at)}; ${finalPoll ? 'last' : 'next'} poll in ${Math.round(wait)} ms`);
    await sleep(wait);
  }
}
