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
  /** How long past the deadline a poll may take to answer (default 2000 ms): polling never runs longer than the deadline and this. */
  answerGraceMs?: number;
}

export const POLL_DEFAULTS = { initialIntervalMs: 100, maxIntervalMs: 2_000, multiplier: 2, answerGraceMs: 2_000 } as const;

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
  /**
   * Not reached: true when the last observation was answered at or after the
   * deadline, so "not terminal at the deadline" is what it shows; false when
   * the polls at the deadline went unanswered and the last answer came earlier.
   */
  answeredAtDeadline?: boolean;
  /** The last observation, terminal or not (undefined when no poll answered). */
  last?: T;
  polls: number;
  elapsedMs: number;
}

/**
 * A timer that fires once performance.now() has reached `end`, never before:
 * a timeout counts from the event loop's cached clock, which can be a little
 * behind, so a timeout alone may fire a fraction of a millisecond (more under
 * load) early — and a poll sent early is not a poll at the deadline.
 */
function timerUntil(end: number): { done: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    const wait = () => {
      const left = end - performance.now();
      if (left <= 0) return resolve();
      timer = setTimeout(wait, Math.ceil(left));
    };
    wait();
  });
  return { done, cancel: () => clearTimeout(timer) };
}

/** The wait before poll `n + 1` (n from 1): initial · multiplier^(n-1), at most max. */
export function backoffMs(n: number, settings: PollSettings): number {
  const initial = settings.initialIntervalMs ?? POLL_DEFAULTS.initialIntervalMs;
  const max = settings.maxIntervalMs ?? POLL_DEFAULTS.maxIntervalMs;
  const multiplier = settings.multiplier ?? POLL_DEFAULTS.multiplier;
  return Math.min(max, initial * multiplier ** (n - 1));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Calls `poll` until it returns a terminal observation or `deadlineMs` has
 * passed: the last poll is sent at the deadline at the latest, and each poll
 * may answer until the deadline and answerGraceMs; one still unanswered then
 * is abandoned (its own request timeout ends it). Errors thrown by `poll`
 * propagate: a poll that can fail transiently should turn the failure into a
 * non-terminal observation.
 */
export async function pollUntilTerminal<T extends PollObservation>(
  poll: (n: number) => Promise<T>,
  settings: PollSettings,
  timeline: TimelineSink,
): Promise<PollOutcome<T>> {
  if (!(settings.deadlineMs > 0)) throw new RangeError(`poll deadline must be positive, got ${settings.deadlineMs}`);
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const graceMs = settings.answerGraceMs ?? POLL_DEFAULTS.answerGraceMs;
  const giveUpMs = settings.deadlineMs + graceMs;
  let last: T | undefined;
  for (let n = 1; ; n++) {
    const giveUp = timerUntil(started + giveUpMs);
    const pending = poll(n);
    // An abandoned poll may still fail later; that must not become an unhandled rejection.
    pending.catch(() => undefined);
    const answer = await Promise.race([pending, giveUp.done.then(() => 'unanswered' as const)]).finally(giveUp.cancel);
    if (answer === 'unanswered') {
      timeline.event(`poll ${n} unanswered`, `no answer by ${seconds(giveUpMs)}: the ${seconds(settings.deadlineMs)} deadline and ${seconds(graceMs)} for the answer`);
      return { reached: false, last, polls: n, elapsedMs: elapsed(), answeredAtDeadline: false };
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
    if (left <= 0) {
      timeline.event(`poll ${n}`, `${answer.summary} after ${seconds(at)}: still not terminal at the ${seconds(settings.deadlineMs)} deadline`);
      return { reached: false, last, polls: n, elapsedMs: at, answeredAtDeadline: true };
    }
    // The next poll at the deadline at the latest: its answer is the one the deadline is judged on.
    const atDeadline = backoffMs(n, settings) >= left;
    const wait = Math.min(backoffMs(n, settings), left);
    timeline.event(`poll ${n}`, `${answer.summary} after ${seconds(at)}; ${atDeadline ? 'last poll, at the deadline,' : 'next poll'} in ${Math.round(wait)} ms`);
    await timerUntil(started + at + wait).done;
  }
}
