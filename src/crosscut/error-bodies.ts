// errors.error-bodies-are-json: every error answer (status 400 or above) that
// the four specified operations gave during the run, to any check, is JSON —
// one verdict over every recorded exchange of a target, not one sample
// (spec 1: "All request and response bodies are JSON (application/json)").
// What counts and how each body is judged: error-answers.ts. The base URL is
// the system under test (README "Verdicts"): a body that is not JSON FAILs,
// a proxy's page included, unless it is excused (at most a WARN: invented
// input, an attempt a retry got past, a status the declared intermediary
// answers); a gateway status the operation's row does not list is never judged.
import { EVIDENCE_BODY_LIMIT, type RecordedExchange } from '../http/exchange.ts';
import { describeIntermediary } from '../http/intermediary.ts';
import type { CheckResult } from '../check/model.ts';
import type { Claim } from '../check/outcome.ts';
import { judgeRecord, recordOf } from '../check/record.ts';
import { registerCheck } from '../check/registry.ts';
import { OPERATION_NAMES, type SpecOperation } from '../spec/status-codes.ts';
import { surveyErrorAnswers, type CrossCutScope, type ErrorAnswer, type ErrorAnswerSurvey, type Excuse } from './error-answers.ts';

export const ERROR_BODIES_ARE_JSON = registerCheck(
  {
    id: 'errors.error-bodies-are-json',
    title: 'Every error answer of the specified operations seen during the run has a JSON body (application/json), or none',
    requirements: ['ERROR-BODIES-JSON'],
  },
  'crosscut',
);

/** How many offending exchanges a FAIL keeps as evidence (all are named in its details). */
const EVIDENCE_KEPT = 20;
/** How many offenders the one-line reason names. */
const NAMED_IN_REASON = 3;

const describe = (a: ErrorAnswer, note = '') => `${a.check}: ${a.method} ${a.path} → ${a.status} (${a.contentType ?? 'no Content-Type'}${note})`;

/**
 * The offenders for the one-line reason: each distinct check, request and
 * answer once (a check often repeats one request), counted; the details name
 * every exchange with its full problem.
 */
function nameOffenders(offenders: readonly ErrorAnswer[]): string {
  const counts = new Map<string, number>();
  for (const a of offenders) {
    const text = describe(a, a.bodyNotJson ? ', body not JSON' : '');
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const distinct = [...counts].map(([text, n]) => (n > 1 ? `${text} ×${n}` : text));
  const more = distinct.length > NAMED_IN_REASON ? `; and ${distinct.length - NAMED_IN_REASON} more (details name each exchange)` : '';
  return distinct.slice(0, NAMED_IN_REASON).join('; ') + more;
}

function statusesSeen(answers: readonly ErrorAnswer[], counted = false): string {
  const byOperation = new Map<SpecOperation, Map<number, number>>();
  for (const a of answers) {
    const codes = byOperation.get(a.operation) ?? new Map<number, number>();
    byOperation.set(a.operation, codes.set(a.status, (codes.get(a.status) ?? 0) + 1));
  }
  const codesOf = (codes: Map<number, number>) => [...codes].sort(([a], [b]) => a - b).map(([code, n]) => (counted ? `${code} ×${n}` : String(code)));
  return [...byOperation].map(([op, codes]) => `${OPERATION_NAMES[op]} ${codesOf(codes).join(counted ? ', ' : '/')}`).join(counted ? '; ' : ', ');
}

/** The evidence of the cross-cutting check: copies of the checks' exchanges, renumbered, each label naming its check. */
function asEvidence(survey: ErrorAnswerSurvey, answers: readonly ErrorAnswer[]): RecordedExchange[] {
  return answers.slice(0, EVIDENCE_KEPT).map((answer, i) => {
    const exchange = survey.exchanges.get(answer)!;
    return { ...exchange, id: i + 1, label: `${answer.check}: ${exchange.label ?? `${answer.method} ${answer.path}`}` };
  });
}

/** The WARN for the bodies that are not JSON but excused, one claim per excuse. */
function excusedClaim(excuse: Excuse, answers: readonly ErrorAnswer[], scope: CrossCutScope): Claim {
  const named = nameOffenders(answers);
  const notJson = `are not JSON (application/json): ${named}`;
  const message: Record<Excuse, string> = {
    invented: `${answers.length} answer(s) to input the suite made up outside the operation's domain ${notJson}; an intermediary may answer such input before the service does`,
    retried: `${answers.length} error answer(s) the client asked again after, and got past, ${notJson}; an attempt a retry got past is judged at most WARN`,
    intermediary: `${answers.length} error answer(s) with a status ${scope.intermediary ? describeIntermediary(scope.intermediary) : 'the declared intermediary'} answers itself ${notJson}: its pages, not the service's`,
  };
  return { level: 'WARN', message: message[excuse], details: { offending: answers } };
}

/** What the check saw, for its INFO line and SKIP reason: the judged answers, and the gateway answers left alone. */
function summaries(survey: ErrorAnswerSurvey): { summary: string; gateway: string } {
  const checksSeen = new Set(survey.withBody.map((a) => a.check)).size;
  const withoutBody = survey.withoutBody ? `; ${survey.withoutBody} without a body` : '';
  const summary = `${survey.withBody.length} error answer(s) with a body from ${checksSeen} check(s) (${statusesSeen(survey.withBody) || 'none'})${withoutBody}`;
  const gateway = survey.gateway.length
    ? `${survey.gateway.length} gateway answer(s) that the operation's section 7 row does not list (${statusesSeen(survey.gateway, true)}) were not judged: transient answers, asked again, never judged`
    : '';
  return { summary, gateway };
}

/**
 * The verdict of errors.error-bodies-are-json for one target, from the
 * exchanges every check of that target recorded (scope: its base URL and
 * the intermediary its profile declares).
 */
export function errorBodiesAreJson(target: string, checks: readonly Pick<CheckResult, 'id' | 'evidence'>[], scope: CrossCutScope = {}): CheckResult {
  const survey = surveyErrorAnswers(checks, scope);
  const meta = { ...ERROR_BODIES_ARE_JSON, target, durationMs: 0, timeline: [] };
  // The profile values this judgment reads, kept with its record: ptas rejudge computes it again over the same exchanges.
  const profileValues = { baseUrl: scope.baseUrl ?? null, 'http.intermediary': scope.intermediary ?? null };
  const offenders = survey.withBody.filter((a) => a.problem && !a.excuse);
  const excused = survey.withBody.filter((a) => a.problem && a.excuse);
  const partial = survey.withBody.filter((a) => a.partial && !a.problem);
  const { summary, gateway } = summaries(survey);
  if (survey.withBody.length + survey.withoutBody === 0) {
    const reason = 'no check of this run recorded an error answer (status 400 or above) of the token, user details, withdrawal address or accept operations';
    const record = recordOf({ claims: [], skipped: { reason: gateway ? `${reason} other than gateway answers; ${gateway}` : reason }, profileValues });
    return { ...meta, ...judgeRecord(ERROR_BODIES_ARE_JSON, record), evidence: [], record };
  }
  const claims: Claim[] = [];
  if (offenders.length) {
    claims.push({
      level: 'FAIL',
      message: `${offenders.length} of ${survey.withBody.length} error answer(s) with a body are not JSON (application/json): ${nameOffenders(offenders)}`,
      rests: { kind: 'sentence' },
      details: { expected: 'a JSON body labelled application/json (or a +json type), or no body', offending: offenders, checked: summary },
    });
  }
  for (const excuse of ['invented', 'retried', 'intermediary'] as const) {
    const these = excused.filter((a) => a.excuse === excuse);
    if (these.length) claims.push(excusedClaim(excuse, these, scope));
  }
  if (partial.length) {
    claims.push({
      level: 'REVIEW',
      message: `${partial.length} error answer(s) are longer than evidence keeps (${EVIDENCE_BODY_LIMIT} characters) or were cut off at the response cap: they are labelled JSON and their kept beginning is JSON so far, but the rest was not seen`,
      details: { partial: partial.map((a) => describe(a)) },
    });
  }
  if (!offenders.length && !excused.length) {
    const checked = survey.withBody.length
      ? `checked ${summary}: every body is JSON, labelled ${labelsSeen(survey.withBody)}`
      : `${survey.withoutBody} error answer(s), none with a body: no body that could be other than JSON`;
    claims.unshift({ level: 'INFO', message: checked });
  }
  if (gateway) claims.push({ level: 'INFO', message: gateway, details: { gateway: survey.gateway.map((a) => describe(a)) } });
  const record = recordOf({ claims, profileValues });
  const decided = judgeRecord(ERROR_BODIES_ARE_JSON, record);
  const shown = decided.verdict === 'FAIL' ? offenders : decided.verdict === 'WARN' ? excused : decided.verdict === 'REVIEW' ? partial : [];
  return { ...meta, ...decided, evidence: asEvidence(survey, shown), record };
}

function labelsSeen(answers: readonly ErrorAnswer[]): string {
  return [...new Set(answers.map((a) => a.contentType))].join(', ');
}
