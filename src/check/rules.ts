// The rules a check applies to one answer through its context — the status it
// expects, a refusal, a request without a valid bearer, a server error where a
// refusal was due, a JSON Content-Type, the schema of what the spec documents
// — as pure judgments of what was observed. The check's record
// keeps the observation (the rule and its inputs: the answer's status, the
// operation, what the request did), not the claims the rule made of it, so a
// later suite judges the same answer by its own rules (src/check/record.ts).
// Live, the context applies the same judgment to decide whether the check
// goes on.
import { OPERATION_NAMES, SECTION_7_CODES, SECTION_7_SENTENCE, documentedRefusals, type SpecOperation } from '../spec/status-codes.ts';
import type { BasisRef, Observation, RecordedClaim, RuleObservation } from './model.ts';
import { effectUnknown, judgeServerError, type Effect } from './server-error.ts';
import { isJsonMediaType } from '../http/media-type.ts';
import { describeSchemaErrors, validateAgainst } from '../schemas/registry.ts';

export type { RuleObservation } from './model.ts';

/** What every rule knows of the answer it judges. */
type Answer = Pick<RuleObservation, 'what' | 'status' | 'bodyHint' | 'exchange'>;

/** What a rule made of its answer: the claims, and whether they end the check. */
export interface RuleJudgment {
  claims: RecordedClaim[];
  ends: boolean;
}

const isSuccess = (status: number): boolean => status >= 200 && status < 300;
const statusList = (codes: readonly number[]): string => (codes.length === 1 ? String(codes[0]) : codes.join('/'));
const sentence = (on?: string): BasisRef => ({ kind: 'sentence', ...(on ? { on } : {}) });

/** The claims of one judgment, built as the context's fail, warn and notObserved build theirs. */
class Judgment implements RuleJudgment {
  claims: RecordedClaim[] = [];
  ends = false;

  constructor(private readonly answer: Answer) {}

  /** The answer this rule judged, as the basis rules need it (src/check/outcome.ts), unless a claim names another. */
  private answered(observed?: Observation): Observation | undefined {
    return observed ?? (this.answer.exchange !== undefined ? { kind: 'answer', status: this.answer.status } : undefined);
  }

  fail(message: string, details: Record<string, unknown>, on?: string, observed?: Observation): RuleJudgment {
    const seen = this.answered(observed);
    this.claims.push({ level: 'FAIL', message, details, rests: sentence(on), ...(seen ? { observed: seen } : {}) });
    this.ends = true;
    return this;
  }

  warn(message: string, details: Record<string, unknown>, on?: string, observed?: Observation): RuleJudgment {
    const seen = this.answered(observed);
    this.claims.push({ level: 'WARN', message, details, ...(on ? { rests: sentence(on) } : {}), ...(seen ? { observed: seen } : {}) });
    return this;
  }

  notObserved(reason: string, details: Record<string, unknown>): RuleJudgment {
    this.claims.push({ level: 'ERROR', message: `not observed: ${reason}`, details });
    this.ends = true;
    return this;
  }
}

/**
 * A 5xx answered where a refusal was due, judged by what the request did
 * (src/check/server-error.ts): a FAIL — on the effect's sentence or section
 * 7's row — or an ERROR for a gateway or overload answer ends the check; a
 * WARN on RFC 9110 15.6 is recorded and the check goes on.
 */
function serverError(j: Judgment, o: Answer & { operation?: SpecOperation; effect: Effect; input?: 'invented' }): RuleJudgment {
  const judged = judgeServerError({ status: o.status, operation: o.operation, effect: o.effect });
  const message = `${o.what} caused a server error ${o.status}${o.bodyHint}: ${judged.why}`;
  const details = { expected: 'a 4xx refusal', actual: o.status, exchange: o.exchange };
  if (judged.level === 'ERROR') return j.notObserved(message, details);
  const answer: Observation = { kind: 'answer', status: o.status, ...(o.operation ? { operation: o.operation } : {}), ...(o.input ? { input: o.input } : {}) };
  if (judged.level === 'FAIL') return j.fail(message, details, judged.on, o.effect.kind === 'executed' ? { kind: 'effect' } : answer);
  return j.warn(message, details, judged.on, answer);
}

/**
 * A 202 ("received and still being processed") where a refusal was due,
 * judged by where the request ended: it executed (FAIL on the effect's
 * sentence), it ended without executing (a WARN: the refusal never came as an
 * answer), or where it ended cannot be read (ERROR).
 */
function receivedForProcessing(j: Judgment, o: Answer, effect: Effect, on: string | undefined): RuleJudgment {
  const details = { expected: 'a 4xx refusal', actual: o.status, exchange: o.exchange };
  const answered = `${o.what} was answered 202 (received, still being processed) instead of a refusal`;
  if (effect.kind === 'executed') return j.fail(`${answered}, and it ${effect.what}`, details, effect.on, { kind: 'effect' });
  if (effect.kind === 'unknown') return j.notObserved(`${answered}; whether it executed in the end cannot be read (${effect.why})`, details);
  return j.warn(`${answered}; ${effect.how}, so nothing executed`, details, on);
}

/**
 * A refusal is a 4xx: a 2xx (accepted) or 3xx FAILs; a 5xx is judged by what
 * the request did, and a 202 of an operation whose section 7 row lists it by
 * where the request ended. A 429 or 413 refuses for another reason (a rate or
 * size limit) than the rule's, so the rule's refusal was not observed. True
 * when the answer is a 4xx, whose code the caller weighs next.
 */
function refusedWith4xx(
  j: Judgment,
  o: Answer & { operation?: SpecOperation; effect?: Effect; input?: 'invented'; on?: string },
  expected: string,
  observed?: Observation,
): boolean {
  const details = { expected, actual: o.status, exchange: o.exchange };
  if (o.status === 429 || o.status === 413) {
    j.notObserved(`${o.what} was answered ${o.status} (a ${o.status === 429 ? 'rate' : 'size'} limit), not the refusal the rule demands`, details);
    return false;
  }
  const effect = o.effect ?? effectUnknown('the check reads nothing that shows what the request did');
  const listsAccepted = o.operation !== undefined && (SECTION_7_CODES[o.operation] as readonly number[]).includes(202);
  if (o.status === 202 && listsAccepted) {
    receivedForProcessing(j, o, effect, o.on);
    return false;
  }
  if (isSuccess(o.status)) {
    j.fail(`${o.what} was accepted: ${o.status}`, details, o.on, observed);
    return false;
  }
  if (o.status >= 500) {
    serverError(j, { ...o, effect });
    return false;
  }
  if (o.status < 400) {
    j.fail(`${o.what}: expected a 4xx refusal, got ${o.status}`, details, o.on, observed);
    return false;
  }
  return true;
}

/** The one judgment of a rule applied to an answer: live (the context) and offline (the record) alike. */
export function judgeRule(o: RuleObservation): RuleJudgment {
  const j = new Judgment(o);
  switch (o.rule) {
    case 'status':
      if (o.expected.includes(o.status)) return j;
      return j.fail(`${o.what}: expected ${statusList(o.expected)}, got ${o.status}${o.bodyHint}`, { expected: o.expected, actual: o.status, exchange: o.exchange }, o.on, o.observed);
    case 'refused': {
      const allowed = [...documentedRefusals(o.operation), ...(o.alsoAllowed ?? [])];
      const observed: Observation = { kind: 'answer', status: o.status, operation: o.operation, ...(o.input ? { input: o.input } : {}) };
      const expected = `a 4xx refusal (${OPERATION_NAMES[o.operation]} documents ${statusList(allowed)})`;
      if (refusedWith4xx(j, o, expected, observed) && !allowed.includes(o.status)) {
        j.warn(`${o.what} was refused with ${o.status}, a code section 7 does not list for ${OPERATION_NAMES[o.operation]} (${statusList(allowed)})`, { expected: allowed, actual: o.status }, SECTION_7_SENTENCE[o.operation], observed);
      }
      return j;
    }
    case 'unauthorized':
      if (refusedWith4xx(j, o, 'a 4xx refusal, 401 (unauthorized)') && o.status !== 401) {
        j.warn(`${o.what} was refused with ${o.status}, not 401 (unauthorized)`, { expected: 401, actual: o.status, exchange: o.exchange });
      }
      return j;
    case 'server-error':
      return serverError(j, o);
    case 'json-content-type':
      if (isJsonMediaType(o.contentType ?? undefined)) return j;
      return j.fail(`${o.what}: Content-Type is ${o.contentType ?? 'missing'}, expected application/json`, { expected: 'application/json', actual: o.contentType, exchange: o.exchange }, o.on, o.observed);
    case 'schema':
      return schema(j, o);
  }
}

/**
 * The body against the schema of what the spec documents: a value that
 * contradicts its type or format, or a documented field left out
 * (src/schemas/registry.ts: the spec's tables list the fields; those it
 * makes conditional are not required), FAILs on the sentence `on` names; a
 * documented field that is null where its type has no null is a WARN.
 */
function schema(j: Judgment, o: Extract<RuleObservation, { rule: 'schema' }>): RuleJudgment {
  if (o.json === undefined) return j.fail(`${o.what}: body is not JSON (${o.jsonError ?? 'unparseable'})`, { exchange: o.exchange }, o.on, o.observed);
  const errors = validateAgainst(o.schema, o.json);
  if (!errors.length) return j;
  const violations = errors.filter((e) => e.kind !== 'null');
  if (violations.length) {
    return j.fail(`${o.what}: body does not match ${o.schema}: ${describeSchemaErrors(violations)}`, { schema: o.schema, errors: violations.slice(0, 20), exchange: o.exchange }, o.on, o.observed);
  }
  return j.warn(`${o.what}: fields the spec documents are null, which their types do not allow: ${describeSchemaErrors(errors)}`, { schema: o.schema, errors: errors.slice(0, 20), exchange: o.exchange }, o.on, o.observed);
}
