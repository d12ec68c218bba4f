// The API a check body uses to say what it found. Each thing it says is a
// claim with the sentence it rests on (src/check/basis.ts) and, where it
// rests on an answer or a wait, what was observed; the outcome function
// (src/check/outcome.ts) decides the verdict from the claims, so the basis
// rules hold for every check without each check knowing them. A check ends
// with fail(), failDeclared(), late() or notObserved(); it records warnings
// and observations and carries on; it skips with the config key that would
// enable it. Everything it says is redacted before it is kept. The rules it
// applies to answers (expectStatus, expectRefused, expectUnauthorized,
// serverError, expectJsonContentType, expectSchema) are judged by
// src/check/rules.ts, and what it said and observed is its record (entries),
// from which src/check/record.ts judges its verdict, live and offline alike.
import type { RecordedExchange, ExchangeRecorder } from '../http/exchange.ts';
import type { HttpResponse } from '../http/client.ts';
import type { Redactor } from '../http/redact.ts';
import { validateAgainst, type SchemaError } from '../schemas/registry.ts';
import type { TimelineEntry } from './model.ts';
import type { SpecOperation } from '../spec/status-codes.ts';
import type { Profile } from '../config/profile.ts';
import { isUnset, profileValue, type ProfileKey, type ProfileValue } from '../config/key-path.ts';
import { resolveBasis, type BasisRef, type RecordEntry } from './record.ts';
import { judgeRule, type RuleJudgment, type RuleObservation } from './rules.ts';
import type { NamedJudgment } from './judgments.ts';
import type { Claim, Observation } from './outcome.ts';
import type { Effect } from './server-error.ts';

/** Thrown when the check has reached its outcome (fail, failDeclared, late, notObserved): control flow of a check, not a PtasError (src/errors.ts). */
export class CheckFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckFailure';
  }
}

/** Thrown by skip() and need(): a precondition is missing (control flow, as CheckFailure). */
export class CheckSkip extends Error {
  constructor(
    message: string,
    readonly configKey?: string,
  ) {
    super(message);
    this.name = 'CheckSkip';
  }
}

/** Wall-clock time of an exchange, HH:MM:SS (UTC), so a reason points at its evidence. */
export const clockOf = (res: HttpResponse): string => res.startedAt.toISOString().slice(11, 19);

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;
export const isServerError = (status: number): boolean => status >= 500;

/** What a claim may say besides its message and details. */
export interface ClaimOptions {
  /** The sentence it rests on: one of the check's requirement ids, or a catalogue sentence id; default the first requirement's quote. */
  on?: string;
  /** What it rests on; default the answer of the exchange its details name (`exchange`). */
  observed?: Observation;
}

/** What the context knows about its check: the requirements a finding's basis comes from, and the profile a declaration is read from. */
export interface CheckScope {
  requirements?: readonly string[];
  profile?: Profile;
}

export class CheckContext implements ExchangeRecorder {
  readonly evidence: RecordedExchange[] = [];
  readonly claims: Claim[] = [];
  /** The record of what the check said and observed, in order: its claims (basis by reference) and the rules it applied to answers (src/check/record.ts). */
  readonly entries: RecordEntry[] = [];
  readonly timeline: TimelineEntry[] = [];
  skipped?: { reason: string; configKey?: string };
  private readonly startedAt = performance.now();
  private readonly endHooks: Array<() => void | Promise<void>> = [];
  private readonly requirements: readonly string[];

  constructor(
    private readonly redactor: Redactor,
    private readonly scope: CheckScope = {},
  ) {
    this.requirements = scope.requirements ?? [];
  }

  /** Runs when the check ends, whatever its verdict (releasing a lock, a receiver session). */
  onEnd(hook: () => void | Promise<void>): void {
    this.endHooks.push(hook);
  }

  /** Called by the check fixture at teardown. */
  async runEndHooks(): Promise<void> {
    for (const hook of this.endHooks.splice(0).reverse()) await hook();
  }

  record(exchange: RecordedExchange): void {
    this.evidence.push(exchange);
  }

  private clean<T>(value: T): T {
    return this.redactor.redactJson(value) as T;
  }

  /** The answer an exchange named in details got, for the basis rules (a transient answer decides nothing). */
  private observedIn(details: Record<string, unknown> | undefined): Observation | undefined {
    const id = details?.exchange;
    if (typeof id !== 'number') return undefined;
    const exchange = this.evidence.find((e) => e.id === id);
    if (exchange?.response) return { kind: 'answer', status: exchange.response.status };
    if (exchange?.error) return { kind: 'no-answer', failure: exchange.error.code };
    return undefined;
  }

  /**
   * A claim, with its basis by reference (the record keeps that) and in the
   * catalogue's words (resolved now: a reference to no sentence the check may
   * rest on is a suite bug, thrown inside the check's body).
   */
  private claim(level: Claim['level'], message: string, details: Record<string, unknown> | undefined, extra: { rests?: BasisRef; observed?: Observation }, fromRule = false): Claim {
    const rests = extra.rests && this.clean(extra.rests);
    const basis = rests && resolveBasis(this.requirements, rests);
    const claim: Claim = {
      level,
      message: this.redactor.redactString(message),
      ...(details ? { details: this.clean(details) } : {}),
      ...(basis ? { basis, rests } : {}),
      ...(extra.observed ? { observed: extra.observed } : {}),
    };
    this.claims.push(claim);
    // A rule's claims are not recorded: the rule is, with its inputs, and the judgment makes them again.
    if (!fromRule) {
      const { basis: _basis, ...recorded } = claim;
      this.entries.push(recorded);
    }
    return claim;
  }

  /**
   * Applies a rule to an answer (src/check/rules.ts): records the rule with
   * what it reads, makes its claims, and ends the check when they do.
   */
  private apply(observation: RuleObservation): void {
    const rule = this.clean(observation);
    const judged = judgeRule(rule);
    this.entries.push({ rule, ...(judged.ends ? { ended: true as const } : {}) });
    this.claimsOf(judged);
  }

  /**
   * Applies a named judgment of the suite to what the check observed
   * (src/check/judgments.ts): records its name and the input, redacted (the
   * judgment is made of the redacted input, as offline), makes its claims,
   * and ends the check when they do.
   */
  judge<I>(judgment: NamedJudgment<I>, input: I): void {
    const kept = this.clean(input);
    const judged = judgment.judge(kept);
    this.entries.push({ judgment: judgment.name, input: kept, ...(judged.ends ? { ended: true as const } : {}) });
    this.claimsOf(judged);
  }

  /** A rule's or a judgment's claims as the check's, not recorded (the rule or judgment is); the check ends where they end it. */
  private claimsOf(judged: RuleJudgment): void {
    for (const c of judged.claims) this.claim(c.level, c.message, c.details, { rests: c.rests, observed: c.observed }, true);
    if (judged.ends) throw new CheckFailure(judged.claims.at(-1)!.message);
  }

  /** What every rule knows of the answer it judges. */
  private answer(res: HttpResponse, what: string) {
    return { what, status: res.status, bodyHint: bodyHint(res), ...(res.exchangeId !== undefined ? { exchange: res.exchangeId } : {}) };
  }

  private end(claim: Claim): never {
    throw new CheckFailure(claim.message);
  }

  /**
   * Ends the check: a response contradicts a sentence — the spec's (the
   * check's requirement's quote, or `on`), or a standard's the requirement
   * names. FAIL on a MUST check, WARN on a SHOULD or REVIEW one; ERROR when
   * what it rests on was a transient answer (src/check/outcome.ts).
   */
  fail(reason: string, details?: Record<string, unknown>, options: ClaimOptions = {}): never {
    const observed = options.observed ?? this.observedIn(details);
    return this.end(this.claim('FAIL', reason, details, { rests: { kind: 'sentence', ...(options.on ? { on: options.on } : {}) }, observed }));
  }

  /**
   * Ends the check with a profile-declared FAIL: the spec leaves the
   * behaviour open, the implementation profile states it (`profileKey`), and
   * the implementation contradicts its own declaration.
   */
  failDeclared(profileKey: string, reason: string, details?: Record<string, unknown>, options: Pick<ClaimOptions, 'observed'> = {}): never {
    const observed = options.observed ?? this.observedIn(details);
    return this.end(this.claim('FAIL', reason, details, { rests: this.declared(profileKey), observed }));
  }

  /** A profile declaration as a basis reference: the key, and the value the profile gives it (kept in the record: the judgment reads no profile). */
  private declared(profileKey: string): BasisRef {
    const value = this.declaredValue(profileKey);
    return { kind: 'declared', profileKey, ...(value === undefined ? {} : { declaredValue: value }) };
  }

  /** The value the profile declares at `profileKey`, as a claim's basis records it: for a named judgment's input (a judgment reads no profile). */
  declaredValue(profileKey: string): unknown {
    return this.scope.profile ? profileValue(this.scope.profile, profileKey as ProfileKey) : undefined;
  }

  /**
   * Ends the check: what it waited for did not come within `waitedMs`. A
   * FAIL against the profile when `declaredBy` names the key that declared
   * the wait; ERROR "not observed" after a default wait the profile did not declare.
   */
  late(reason: string, wait: { waitedMs: number; declaredBy?: string }, details?: Record<string, unknown>): never {
    const rests = wait.declaredBy ? this.declared(wait.declaredBy) : undefined;
    return this.end(this.claim('FAIL', reason, details, { rests, observed: { kind: 'late', ...wait } }));
  }

  /** Ends the check with ERROR: what the rule needs could not be observed (a transient answer, an answer that refuses for another reason). */
  notObserved(reason: string, details?: Record<string, unknown>): never {
    return this.end(this.claim('ERROR', `not observed: ${reason}`, details, {}));
  }

  /** Ends the check with SKIP: a fixture or profile entry is missing. */
  skip(reason: string, configKey?: string): never {
    const text = configKey ? `${reason} (set ${configKey} in the profile to run it)` : reason;
    this.skipped = { reason: this.redactor.redactString(text), configKey };
    throw new CheckSkip(this.skipped.reason, configKey);
  }

  /**
   * The profile's value at key, or SKIP naming the key: "<missing> (set key
   * in the profile to run it)". missing says what the check lacks without
   * it, e.g. 'no user to read' for users.existingUserId.
   */
  need<K extends ProfileKey>(profile: Profile, key: K, missing: string): ProfileValue<K> {
    const value = profileValue(profile, key);
    if (value === undefined || isUnset(value)) return this.skip(missing, key);
    return value;
  }

  /**
   * Fails unless the condition holds. Not an assertion signature: TypeScript
   * only narrows through explicitly typed names, and checks destructure their
   * fixtures; write `return check.fail(...)` where narrowing is needed.
   */
  assert(condition: unknown, reason: string, details?: Record<string, unknown>, options?: ClaimOptions): void {
    if (!condition) this.fail(reason, details, options);
  }

  /**
   * Records a deviation that does not break a MUST; the check goes on. With
   * `on`, it is a failed expectation and carries that sentence as its basis.
   */
  warn(message: string, details?: Record<string, unknown>, options: ClaimOptions = {}): void {
    const rests: BasisRef | undefined = options.on ? { kind: 'sentence', on: options.on } : undefined;
    this.claim('WARN', message, details, { rests, observed: options.observed ?? this.observedIn(details) });
  }

  /** Records an observation about something the spec does not show. */
  review(message: string, details?: Record<string, unknown>): void {
    this.claim('REVIEW', message, details, {});
  }

  note(message: string, details?: Record<string, unknown>): void {
    this.claim('INFO', message, details, {});
  }

  /** A timestamped step, for polling and retry timelines. */
  event(event: string, detail?: string): void {
    this.timeline.push({
      atMs: Math.round(performance.now() - this.startedAt),
      event,
      detail: detail === undefined ? undefined : this.redactor.redactString(detail),
    });
  }

  private attachSchemaErrors(res: HttpResponse, errors: SchemaError[]): void {
    const exchange = this.evidence.find((e) => e.id === res.exchangeId);
    if (exchange) exchange.schemaErrors = this.clean(errors);
  }

  expectStatus(res: HttpResponse, expected: number | readonly number[], what: string, options: ClaimOptions = {}): void {
    const codes = typeof expected === 'number' ? [expected] : [...expected];
    // Recorded when it holds too: a later suite's rule may judge the same answer otherwise.
    this.apply({ rule: 'status', ...this.answer(res, what), expected: codes, ...this.claimOptions(options) });
  }

  /** Fails unless the response declares application/json (or a +json type; parameters such as charset allowed): src/check/rules.ts. */
  expectJsonContentType(res: HttpResponse, what: string, options: ClaimOptions = {}): void {
    this.apply({ rule: 'json-content-type', ...this.answer(res, what), contentType: res.contentType ?? null, ...this.claimOptions(options) });
  }

  /**
   * Validates the JSON body against the schema of what the spec documents
   * (src/check/rules.ts): a contradiction of a type or format, or a
   * documented field left out, FAILs on the sentence `on` names; a documented
   * field that is null where its type has no null is a WARN. The record keeps
   * the body, redacted, so a later schema judges the same answer.
   */
  expectSchema(res: HttpResponse, schemaFile: string, what: string, options: ClaimOptions = {}): void {
    if (res.json !== undefined) {
      const errors = validateAgainst(schemaFile, res.json);
      if (errors.length) this.attachSchemaErrors(res, errors);
    }
    const body = res.json !== undefined ? { json: res.json } : { jsonError: res.jsonError ?? 'unparseable' };
    this.apply({ rule: 'schema', ...this.answer(res, what), schema: schemaFile, ...body, ...this.claimOptions(options) });
  }

  private claimOptions(options: ClaimOptions): Pick<ClaimOptions, 'on' | 'observed'> {
    return { ...(options.on ? { on: options.on } : {}), ...(options.observed ? { observed: options.observed } : {}) };
  }

  /**
   * A 5xx answered where a refusal was due, judged by what the request did
   * (src/check/rules.ts, src/check/server-error.ts): a FAIL — on the effect's
   * sentence or section 7's row — or an ERROR for a gateway or overload
   * answer ends the check; a WARN on RFC 9110 15.6 (a listed 5xx, nothing
   * executed or nothing to read) is recorded and the check goes on.
   */
  serverError(res: HttpResponse, options: ServerErrorOptions): void {
    const { operation, what, effect, input } = options;
    this.apply({ rule: 'server-error', ...this.answer(res, what), effect, ...(operation ? { operation } : {}), ...(input ? { input } : {}) });
  }

  /**
   * "Must be refused", where section 7 ties no code to the condition: a 2xx
   * or 3xx FAILs, a 5xx or a 202 is judged by `effect`, what the request did
   * (serverError); any 4xx the operation's section 7 list holds passes (plus
   * `alsoAllowed`, e.g. 404 "record not found" for an unknown record);
   * another 4xx is a WARN on the operation's section 7 row; a 429 or 413
   * refuses for another reason, so the rule's refusal was not observed
   * (src/check/rules.ts). `input: 'invented'` marks input the suite made up
   * outside the operation's domain (src/check/outcome.ts, rule 4).
   */
  expectRefused(
    res: HttpResponse,
    options: { operation: SpecOperation; what: string; alsoAllowed?: readonly number[]; input?: 'invented'; on?: string; effect?: Effect },
  ): void {
    const { operation, what, alsoAllowed, input, on, effect } = options;
    this.apply({
      rule: 'refused',
      ...this.answer(res, what),
      operation,
      ...(alsoAllowed ? { alsoAllowed: [...alsoAllowed] } : {}),
      ...(input ? { input } : {}),
      ...(on ? { on } : {}),
      ...(effect ? { effect } : {}),
    });
  }

  /**
   * A request without a valid bearer credential must be refused (5 rule 1:
   * "REST calls carry the header Authorization with a bearer access token"):
   * a 2xx or 3xx FAILs, a 5xx or a 202 is judged by what it did on
   * `operation`'s row (none for an operation the spec shows no codes for).
   * 401 is the code section 7 names "unauthorized", but it ties no condition
   * to it, so another 4xx is a WARN, not a FAIL.
   */
  expectUnauthorized(res: HttpResponse, what: string, options: { operation?: SpecOperation; effect?: Effect } = {}): void {
    this.apply({ rule: 'unauthorized', ...this.answer(res, what), ...(options.operation ? { operation: options.operation } : {}), ...(options.effect ? { effect: options.effect } : {}) });
  }
}

/** What serverError needs besides the answer. */
export interface ServerErrorOptions {
  /** The operation whose section 7 row applies; undefined for one the spec shows no codes for. */
  operation?: SpecOperation;
  what: string;
  /** What the request did, as the check read it (src/check/server-error.ts). */
  effect: Effect;
  input?: 'invented';
}

function bodyHint(res: HttpResponse): string {
  if (!res.text) return '';
  const oneLine = res.text.replace(/\s+/g, ' ').trim();
  return ` (body: ${oneLine.length > 120 ? `${oneLine.slice(0, 120)}…` : oneLine})`;
}
