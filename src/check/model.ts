// The vocabulary of a conformance verdict, and what a check is as every consumer sees it.
import type { RecordedExchange } from '../http/exchange.ts';
import type { CheckAttempt } from '../results/run-parts.ts';
import type { CheckVerdict, Verdict } from './verdict-names.ts';
import type { WaivedBy } from '../results/waiver-model.ts';
import type { SpecOperation } from '../spec/status-codes.ts';
import type { Effect } from './server-error.ts';

/**
 * A check gives a CheckVerdict. WAIVED replaces a FAIL, ERROR or WARN that an
 * unexpired waiver expected (src/results/waivers.ts), and the check keeps the
 * verdict it gave in `waived`; `ptas merge` gives FLAKY to a check that FAILed
 * in one run of its part and passed in a later one (src/results/attempts.ts),
 * and its `attempts` list every run's verdict.
 */
export { VERDICTS, type CheckVerdict, type Verdict } from './verdict-names.ts';

/**
 * MUST: a violation is FAIL and makes the run NOT CONFORMANT.
 * SHOULD: a violation is WARN (a documented code or format deviates where the spec only implies it).
 * REVIEW: the spec says "not shown"; the check records what it observed for a human.
 */
export type Severity = 'MUST' | 'SHOULD' | 'REVIEW';

/**
 * The spec areas of schemas/requirements.json. 'errors': cross-cutting checks computed over
 * the exchanges every check of a target recorded (src/crosscut/); 'load': the load-stage probes.
 */
export const AREAS = ['auth', 'users', 'crypto-transfers', 'trading', 'webhooks', 'load', 'errors'] as const;
export type Area = (typeof AREAS)[number];

/**
 * A registered check as every consumer sees it. A check file states only id,
 * title and requirements; area and severity are derived from the catalogue
 * (src/check/registry.ts).
 */
export interface CheckMeta {
  /** Stable id, area-prefixed: "auth.refresh-token-single-use". */
  id: string;
  title: string;
  area: Area;
  /** Requirement ids from schemas/requirements.json. */
  requirements: string[];
  severity: Severity;
}

/**
 * What a check found, as the outcome function (src/check/outcome.ts) decided
 * it: FAIL and ERROR only come from there. A FAIL always carries the sentence
 * it rests on; a WARN does when it is a failed expectation.
 */
export interface Finding {
  level: 'FAIL' | 'ERROR' | 'WARN' | 'REVIEW' | 'INFO';
  message: string;
  details?: Record<string, unknown>;
  basis?: VerdictBasis;
}

export interface TimelineEntry {
  /** Milliseconds since the check started. */
  atMs: number;
  event: string;
  detail?: string;
}

/**
 * The sentence a finding rests on, of one of three kinds: a sentence of the
 * spec (clause and words, from the catalogue); a sentence of a standard the
 * spec names for that field or exchange ("standard": RFC 9530 for
 * Content-Digest, RFC 9110 for HTTP-date, …; section and words); or a
 * declaration of the implementation profile ("profile-declared": key and
 * value, where the spec leaves the behaviour open — clause and quote are then
 * the requirement's own, which says what the spec leaves open).
 */
export interface VerdictBasis {
  kind: 'spec' | 'standard' | 'profile-declared';
  requirement: string;
  /** spec and profile-declared: the spec's clause; standard: the standard's section. */
  clause: string;
  /** The words: the spec's, or the standard's. */
  quote: string;
  /** standard only: which one ("RFC 9530"). */
  standard?: string;
  /** standard only: the spec's word that names what the standard defines. */
  namedBy?: string;
  /** profile-declared only: the key, and what the profile declares there. */
  profileKey?: string;
  declaredValue?: unknown;
}

/** What a claim rests on, as far as the basis rules need to know. */
export type Observation =
  | {
      kind: 'answer';
      status: number;
      /** 'invented': the suite made up input outside the operation's domain (a hostile probe). */
      input?: 'invented';
      operation?: SpecOperation;
    }
  | { kind: 'no-answer'; failure: string }
  | { kind: 'late'; waitedMs: number; declaredBy?: string }
  | { kind: 'race-loser'; status: number }
  /** What the request did, read after its answer (a trade booked, a refresh token spent): whatever its status, the effect stands. */
  | { kind: 'effect' };

/* The record of a check (src/check/record.ts: observe, then judge). */

/**
 * The sentence a claim rests on, by reference: the check's requirement's
 * quote (`on` absent) or the catalogue sentence `on` names; or a profile
 * declaration, with the value the profile gave (redacted as evidence is).
 */
export type BasisRef = { kind: 'sentence'; on?: string } | { kind: 'declared'; profileKey: string; declaredValue?: unknown };

/** A claim as the record keeps it: its basis by reference. */
export interface RecordedClaim {
  level: Finding['level'];
  message: string;
  details?: Record<string, unknown>;
  rests?: BasisRef;
  observed?: Observation;
}

/** What every rule of src/check/rules.ts knows of the answer it judges. */
interface RuleAnswer {
  /** What the request was, in the check's words ("a refresh with a used token"). */
  what: string;
  status: number;
  /** The body's first 120 characters, as a reason quotes it (" (body: …)"), or ''. */
  bodyHint: string;
  /** The exchange's id in the check's evidence. */
  exchange?: number;
}

/** A rule applied to one answer, with everything its judgment reads (src/check/rules.ts judges it). */
export type RuleObservation =
  | (RuleAnswer & { rule: 'status'; expected: number[]; on?: string; observed?: Observation })
  | (RuleAnswer & { rule: 'refused'; operation: SpecOperation; alsoAllowed?: number[]; input?: 'invented'; on?: string; effect?: Effect })
  | (RuleAnswer & { rule: 'unauthorized'; operation?: SpecOperation; effect?: Effect })
  | (RuleAnswer & { rule: 'server-error'; operation?: SpecOperation; effect: Effect; input?: 'invented' })
  /** The Content-Type the answer declared (null: none). */
  | (RuleAnswer & { rule: 'json-content-type'; contentType: string | null; on?: string; observed?: Observation })
  /** The body (redacted) judged against the schema of what the spec documents; jsonError when it was no JSON. */
  | (RuleAnswer & { rule: 'schema'; schema: string; json?: unknown; jsonError?: string; on?: string; observed?: Observation });

/** A rule the check applied, as its record keeps it; `ended`: its judgment ended the check when it was observed. */
export interface RecordedRule {
  rule: RuleObservation;
  ended?: true;
}

/**
 * A named judgment of the check's suite applied to what the check observed
 * (src/check/judgments.ts), as its record keeps it: the name and the input,
 * redacted; `ended`: its judgment ended the check when it was observed.
 */
export interface RecordedJudgment {
  judgment: string;
  input: unknown;
  ended?: true;
}

/** One entry of a check's record: a claim it made, a rule it applied to an answer, or a named judgment it applied to what it observed. */
export type RecordEntry = RecordedClaim | RecordedRule | RecordedJudgment;

/** What a check observed and said: everything its judgment reads. */
export interface CheckRecord {
  /** What it said and the rules it applied, in order. */
  claims: RecordEntry[];
  skipped?: { reason: string; configKey?: string };
  stoppedBy?: string;
  interrupted?: string;
  /** A load probe's own account of what it measured: the reason of its PASS, and beside a WARN. */
  measured?: string;
  /** A load probe's figures, shown as the check's details whatever its verdict. */
  details?: Record<string, unknown>;
  /** Profile values the judgment read beyond its claims, by key (a cross-cutting check's base URL and declared intermediary). */
  profileValues?: Record<string, unknown>;
  /**
   * A load probe's measurements and the criteria it was held to (a 429
   * staircase: its steps, when its requests were sent and answered, whether
   * the generator held the plan; the 413 probe: the sizes it tried with their
   * answers, its range and what it cost; the offers read back after a 429
   * accept and the control offer; the first 429 of each staircase), which the load stage's judgment analyses
   * again (load/stage/probe-judgment.ts); the claims above are then that
   * analysis's, kept for a reader.
   */
  analysis?:
    | { kind: 'rate-limit'; run: unknown; criteria: unknown }
    | { kind: 'body-size'; steps: unknown; context: unknown; cost: unknown }
    | { kind: 'accept-not-executed'; captured: number; reads: unknown; control: unknown; extractsTradeId: boolean }
    | { kind: 'retry-advice'; probes: unknown };
}

/** What one check produced: attached by the check runtime, read by the reporter. */
export interface CheckOutcome {
  verdict: CheckVerdict;
  /** One line a human understands; required for every verdict but PASS. */
  reason?: string;
  /** On a SKIP: the profile key whose absence skipped the check, as the check named it (`ptas init` maps keys to the checks they unlock). */
  configKey?: string;
  /** The basis of the finding that decided the verdict (a FAIL's always; a WARN's when it is a failed expectation). */
  basis?: VerdictBasis;
  /** Structured expected/actual of the failure, OpenID-suite style. */
  details?: Record<string, unknown>;
  findings: Finding[];
  evidence: RecordedExchange[];
  timeline: TimelineEntry[];
  /** What the check observed and said, from which its verdict was judged and can be judged again offline (src/check/record.ts, ptas rejudge). */
  record?: CheckRecord;
}

export interface CheckResult extends CheckMeta, Omit<CheckOutcome, 'verdict'> {
  /** The check's own verdict, or the run's folding of it (WAIVED, FLAKY). */
  verdict: Verdict;
  /** Which target the check ran against (the run's target names: runner/run-targets.ts). */
  target: string;
  durationMs: number;
  /** Set when the verdict is WAIVED: the verdict the check gave and the waiver that expected it. */
  waived?: WaivedBy;
  /**
   * Set by `ptas merge` when the check's part ran more than once: every run's
   * verdict, in the order the runs started. The verdict, reason and evidence
   * above are those of the attempt the policy of src/results/attempts.ts
   * chose (for FLAKY: the failing one).
   */
  attempts?: CheckAttempt[];
}
