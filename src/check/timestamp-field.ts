// How the check of a documented timestamp field judges its value (2.2
// registered_at, 2.3 created_at; the trade time of 2.4 is judged by its
// schema's format alone): one reading of "ISO 8601" (src/schemas/iso8601.ts),
// and one rule for a value that is not there. A field left out is the schema
// check's finding (README "Verdicts", basis rule 5), so here it only says the
// format could not be checked. A null is a WARN, as every documented field's
// null is: the table types the field "string" and does not say it is never
// null, so a null does not contradict a sentence the way a wrong value does.
import { iso8601Problem, type TimestampRule } from '../schemas/iso8601.ts';
import type { CheckContext } from './context.ts';

export type TimestampJudgement = { verdict: 'PASS' } | { verdict: 'WARN' | 'FAIL'; message: string };

export interface TimestampField {
  /** The field's name, e.g. created_at. */
  name: string;
  /** Where the spec documents it, e.g. 2.3. */
  clause: string;
  rule: TimestampRule;
  /** The check that judges the body's shape (a field left out), named in the WARN. */
  schemaCheck: string;
}

export function judgeTimestamp(field: TimestampField, value: unknown): TimestampJudgement {
  const documented = `${field.clause} documents it as an "ISO 8601 timestamp ${field.rule}"`;
  if (value === undefined) return { verdict: 'WARN', message: `${field.name} is left out, so its format cannot be checked (${field.schemaCheck} judges the body)` };
  if (value === null) {
    return { verdict: 'WARN', message: `${field.name} is null where ${documented}: a documented field that is null is a WARN, not a contradiction of its format` };
  }
  if (typeof value !== 'string') return { verdict: 'FAIL', message: `${field.name} is ${Array.isArray(value) ? 'an array' : `a ${typeof value}`} (${JSON.stringify(value)}) where ${documented}` };
  const problem = iso8601Problem(value, field.rule);
  return problem ? { verdict: 'FAIL', message: `${field.name} ${JSON.stringify(value)} is not an ISO 8601 timestamp ${field.rule}: ${problem}` } : { verdict: 'PASS' };
}

/** Claims the judgement of `value` on the check (a FAIL ends it); `details` go with the finding (the exchange). */
export function expectTimestamp(check: CheckContext, field: TimestampField, value: unknown, details: Record<string, unknown> = {}): void {
  const judged = judgeTimestamp(field, value);
  if (judged.verdict === 'FAIL') check.fail(judged.message, { [field.name]: value, ...details });
  if (judged.verdict === 'WARN') check.warn(judged.message, { [field.name]: value ?? null, ...details });
}
