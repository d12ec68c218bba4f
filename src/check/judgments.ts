// Named judgments: what a check body decides of what it observed — a
// delivery's headers, a retry's timing, a token's claims — written as a pure
// function of that observation and registered under a name, where the check's
// suite defines it (suites/<area>/…). The check applies it through its
// context (CheckContext.judge), and its record keeps the name and the input,
// redacted, not the claims it made, so a later suite judges the same
// observation by its own version of the judgment (src/check/record.ts), as it
// does the rules of src/check/rules.ts. The registry fills as the suite's
// check files are loaded (defineCheck's files import their judgments), which
// every judging path does (the runner, `ptas rejudge`, `ptas verify`).
import type { BasisRef, Observation, RecordedClaim } from './model.ts';
import type { RuleJudgment } from './rules.ts';

/** What a claim rests on besides its message: the sentence (`on`: a catalogue id; default the requirement's quote), and the answer it read (a transient one decides nothing: src/check/outcome.ts). */
export interface SaysOptions {
  on?: string;
  observed?: Observation;
}

/** What a judgment may say, as a check's context says it; the basis is by reference, never the words. */
export interface JudgmentSays {
  /** A sentence is contradicted. Ends the check. */
  fail(message: string, details?: Record<string, unknown>, options?: SaysOptions): void;
  /** The profile's declaration (`profileKey`, whose value the input carries) is contradicted. Ends the check. */
  failDeclared(profileKey: string, declaredValue: unknown, message: string, details?: Record<string, unknown>, options?: Pick<SaysOptions, 'observed'>): void;
  /** A deviation that breaks no MUST; with `on`, a failed expectation on that sentence. */
  warn(message: string, details?: Record<string, unknown>, options?: SaysOptions): void;
  /** Something the spec does not show, for a human to look at. */
  review(message: string, details?: Record<string, unknown>): void;
  note(message: string, details?: Record<string, unknown>): void;
  /** What the judgment needs was not observed: ERROR, never a verdict on the implementation. Ends the check. */
  notObserved(reason: string, details?: Record<string, unknown>): void;
}

export interface NamedJudgment<I> {
  readonly name: string;
  /** The claims the judgment makes of this input, and whether they end the check. */
  judge(input: I): RuleJudgment;
}

const registry = new Map<string, NamedJudgment<unknown>>();

/** The claims of one judgment: the first claim that ends the check is its last. */
class Says implements JudgmentSays {
  readonly claims: RecordedClaim[] = [];
  ends = false;

  private say(level: RecordedClaim['level'], message: string, details: Record<string, unknown> | undefined, rests?: BasisRef, observed?: Observation, ends = false): void {
    // A judgment that goes on after a claim that ends the check says nothing more: the check would have ended there.
    if (this.ends) return;
    this.claims.push({ level, message, ...(details ? { details } : {}), ...(rests ? { rests } : {}), ...(observed ? { observed } : {}) });
    this.ends = ends;
  }

  fail(message: string, details?: Record<string, unknown>, { on, observed }: SaysOptions = {}): void {
    this.say('FAIL', message, details, { kind: 'sentence', ...(on ? { on } : {}) }, observed, true);
  }

  failDeclared(profileKey: string, declaredValue: unknown, message: string, details?: Record<string, unknown>, { observed }: Pick<SaysOptions, 'observed'> = {}): void {
    this.say('FAIL', message, details, { kind: 'declared', profileKey, ...(declaredValue === undefined ? {} : { declaredValue }) }, observed, true);
  }

  warn(message: string, details?: Record<string, unknown>, { on, observed }: SaysOptions = {}): void {
    this.say('WARN', message, details, on ? { kind: 'sentence', on } : undefined, observed);
  }

  review(message: string, details?: Record<string, unknown>): void {
    this.say('REVIEW', message, details);
  }

  note(message: string, details?: Record<string, unknown>): void {
    this.say('INFO', message, details);
  }

  notObserved(reason: string, details?: Record<string, unknown>): void {
    this.say('ERROR', `not observed: ${reason}`, details, undefined, undefined, true);
  }
}

/**
 * Registers a judgment under its name (unique across the suite: `<area>.<what>`).
 * `judge` must be pure: it reads its input and nothing else (no clock, no
 * request, no profile but what the input carries).
 */
export function defineJudgment<I>(name: string, judge: (input: I, says: JudgmentSays) => void): NamedJudgment<I> {
  if (registry.has(name)) throw new Error(`two judgments have the name ${name}`);
  const named: NamedJudgment<I> = {
    name,
    judge: (input) => {
      const says = new Says();
      judge(input, says);
      return { claims: says.claims, ends: says.ends };
    },
  };
  registry.set(name, named as NamedJudgment<unknown>);
  return named;
}

/**
 * What a claim rests on when its details name an exchange: the answer that
 * exchange got, as CheckContext derives it for a claim made inline (a FAIL
 * resting on a transient answer, a 503, stays ERROR). A judgment reads only
 * its input, so it says so itself: nothing when no exchange was recorded.
 */
export function answeredWith(status: number, exchange: number | undefined): Observation | undefined {
  return typeof exchange === 'number' ? { kind: 'answer', status } : undefined;
}

/** The judgment of this name in the installed suite, if it has one. */
export function judgmentNamed(name: string): NamedJudgment<unknown> | undefined {
  return registry.get(name);
}
