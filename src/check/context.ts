// The API a check body uses to reach its verdict. A check fails with one
// human-readable reason and structured details; it can record warnings and
// observations for review and carry on; it skips with the config key that
// would enable it. Everything it says is redacted before it is kept.
import type { RecordedExchange, ExchangeRecorder } from '../http/exchange.ts';
import type { HttpResponse } from '../http/client.ts';
import type { Redactor } from '../http/redact.ts';
import { describeSchemaErrors, validateAgainst, type SchemaError } from '../schemas/registry.ts';
import type { Finding, TimelineEntry } from './model.ts';
import { isJsonMediaType } from '../http/media-type.ts';
import { OPERATION_NAMES, documentedRefusals, type SpecOperation } from '../spec/status-codes.ts';
import type { Profile } from '../config/profile.ts';
import { isUnset, profileValue, type ProfileKey, type ProfileValue } from '../config/key-path.ts';

/** Thrown by fail(): the check has reached its verdict (control flow of a check, not a PtasError: src/errors.ts). */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
    /** The profile key whose declaration was contradicted; absent when the spec's text was. */
    readonly declaredBy?: string,
  ) {
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

function statusList(codes: readonly number[]): string {
  return codes.length === 1 ? String(codes[0]) : codes.join('/');
}

export class CheckContext implements ExchangeRecorder {
  readonly evidence: RecordedExchange[] = [];
  readonly findings: Finding[] = [];
  readonly timeline: TimelineEntry[] = [];
  failure?: { reason: string; details?: Record<string, unknown>; declaredBy?: string };
  skipped?: { reason: string; configKey?: string };
  private readonly startedAt = performance.now();
  private readonly endHooks: Array<() => void | Promise<void>> = [];

  constructor(private readonly redactor: Redactor) {}

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

  /**
   * Ends the check: a response contradicts the spec sentence the check's
   * requirement quotes. FAIL on a MUST check, WARN on a SHOULD or REVIEW one.
   * Where the spec is silent, use warn() or review(), or failDeclared().
   */
  fail(reason: string, details?: Record<string, unknown>): never {
    this.failure = { reason: this.redactor.redactString(reason), details: details && this.clean(details) };
    throw new CheckFailure(this.failure.reason, this.failure.details);
  }

  /**
   * Ends the check with a profile-declared FAIL: the spec leaves the
   * behaviour open, the implementation profile states it (`profileKey`), and
   * the implementation contradicts its own declaration.
   */
  failDeclared(profileKey: string, reason: string, details?: Record<string, unknown>): never {
    this.failure = { reason: this.redactor.redactString(reason), details: details && this.clean(details), declaredBy: profileKey };
    throw new CheckFailure(this.failure.reason, this.failure.details, profileKey);
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
  assert(condition: unknown, reason: string, details?: Record<string, unknown>): void {
    if (!condition) this.fail(reason, details);
  }

  /** Records a deviation that does not break a MUST; the check goes on. */
  warn(message: string, details?: Record<string, unknown>): void {
    this.findings.push({ level: 'WARN', message: this.redactor.redactString(message), details: details && this.clean(details) });
  }

  /** Records an observation about something the spec does not show. */
  review(message: string, details?: Record<string, unknown>): void {
    this.findings.push({ level: 'REVIEW', message: this.redactor.redactString(message), details: details && this.clean(details) });
  }

  note(message: string, details?: Record<string, unknown>): void {
    this.findings.push({ level: 'INFO', message: this.redactor.redactString(message), details: details && this.clean(details) });
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

  expectStatus(res: HttpResponse, expected: number | readonly number[], what: string): void {
    const codes = typeof expected === 'number' ? [expected] : expected;
    if (!codes.includes(res.status)) {
      this.fail(`${what}: expected ${statusList(codes)}, got ${res.status}${bodyHint(res)}`, {
        expected: codes,
        actual: res.status,
        exchange: res.exchangeId,
      });
    }
  }

  /** Fails unless the response declares application/json (or a +json type; parameters such as charset allowed). */
  expectJsonContentType(res: HttpResponse, what: string): void {
    if (!isJsonMediaType(res.contentType ?? undefined)) {
      this.fail(`${what}: Content-Type is ${res.contentType ?? 'missing'}, expected application/json`, {
        expected: 'application/json',
        actual: res.contentType ?? null,
      });
    }
  }

  /**
   * Validates the JSON body. A value that contradicts its type or format
   * FAILs; a listed field left out or null is a WARN (the spec's tables do
   * not say every field is always present and non-null; see SchemaError.kind).
   */
  expectSchema(res: HttpResponse, schemaFile: string, what: string): void {
    if (res.json === undefined) {
      this.fail(`${what}: body is not JSON (${res.jsonError ?? 'unparseable'})`, { exchange: res.exchangeId });
    }
    const errors = validateAgainst(schemaFile, res.json);
    if (!errors.length) return;
    this.attachSchemaErrors(res, errors);
    const violations = errors.filter((e) => e.kind === 'violation');
    if (violations.length) {
      this.fail(`${what}: body does not match ${schemaFile}: ${describeSchemaErrors(violations)}`, {
        schema: schemaFile,
        errors: violations.slice(0, 20),
      });
    }
    this.warn(`${what}: fields the spec lists are left out or null: ${describeSchemaErrors(errors)} (the spec does not say they are always present and non-null)`, {
      schema: schemaFile,
      errors: errors.slice(0, 20),
    });
  }

  /** A refusal is a 4xx: a 2xx (accepted), 3xx or 5xx (server error) FAILs. */
  private failUnlessClientError(res: HttpResponse, what: string, expected: string): void {
    const details = { expected, actual: res.status, exchange: res.exchangeId };
    if (isSuccess(res.status)) this.fail(`${what} was accepted: ${res.status}`, details);
    if (isServerError(res.status)) this.fail(`${what} caused a server error: ${res.status}${bodyHint(res)}`, details);
    if (res.status < 400) this.fail(`${what}: expected a 4xx refusal, got ${res.status}`, details);
  }

  /**
   * "Must be refused", where section 7 ties no code to the condition: a 2xx,
   * 3xx or 5xx FAILs; any 4xx the operation's section 7 list holds passes
   * (plus `alsoAllowed`, e.g. 404 "record not found" for an unknown record);
   * another 4xx is a WARN, since the operation does not document it.
   */
  expectRefused(res: HttpResponse, options: { operation: SpecOperation; what: string; alsoAllowed?: readonly number[] }): void {
    const allowed = [...documentedRefusals(options.operation), ...(options.alsoAllowed ?? [])];
    this.failUnlessClientError(res, options.what, `a 4xx refusal (${OPERATION_NAMES[options.operation]} documents ${statusList(allowed)})`);
    if (!allowed.includes(res.status)) {
      this.warn(`${options.what} was refused with ${res.status}, a code section 7 does not list for ${OPERATION_NAMES[options.operation]} (${statusList(allowed)})`, {
        expected: allowed,
        actual: res.status,
      });
    }
  }

  /**
   * A request without a valid bearer credential must be refused (5 rule 1:
   * "REST calls carry the header Authorization with a bearer access token"):
   * a 2xx, 3xx or 5xx FAILs. 401 is the code section 7 names "unauthorized",
   * but it ties no condition to it, so another 4xx is a WARN, not a FAIL.
   */
  expectUnauthorized(res: HttpResponse, what: string): void {
    this.failUnlessClientError(res, what, 'a 4xx refusal, 401 (unauthorized)');
    if (res.status !== 401) this.warn(`${what} was refused with ${res.status}, not 401 (unauthorized)`, { expected: 401, actual: res.status });
  }
}

function bodyHint(res: HttpResponse): string {
  if (!res.text) return '';
  const oneLine = res.text.replace(/\s+/g, ' ').trim();
  return ` (body: ${oneLine.length > 120 ? `${oneLine.slice(0, 120)}…` : oneLine})`;
}
