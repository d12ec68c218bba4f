// errors.error-bodies-are-json: every error answer (status 400 or above) that
// the four specified operations gave during the run, to any check, is JSON —
// one verdict over every recorded exchange of a target, not one sample
// (spec 1: "All request and response bodies are JSON (application/json)").
//
// An error answer without a body passes: it has no body that could be other
// than JSON (7 leaves the error body shape "not shown"). A body evidence
// keeps only in part (the first 16 KiB, or cut off at the response cap) is
// judged on what was kept: a beginning that already breaks the JSON grammar
// FAILs; a beginning that is still JSON is REVIEW, since the rest was not seen.
import { EVIDENCE_BODY_LIMIT, type RecordedExchange } from '../http/exchange.ts';
import { isJsonMediaType } from '../http/media-type.ts';
import { specBasis } from '../check/basis.ts';
import type { CheckResult } from '../check/model.ts';
import { decideOutcome, type Claim } from '../check/outcome.ts';
import { registerCheck } from '../check/registry.ts';
import { OPERATION_NAMES, type SpecOperation } from '../spec/status-codes.ts';
import { jsonPrefixProblem } from './json-prefix.ts';
import { specifiedOperationOf } from './specified-operations.ts';

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

/** The marker clipForEvidence (src/http/exchange.ts) appends after the kept 16 KiB. */
const CLIPPED_MARKER = /\n… \[\d+ more characters not kept in evidence\]$/;


/** The body as evidence kept it, and whether that is all of it. */
export function keptBody(response: NonNullable<RecordedExchange['response']>): { text: string; complete: boolean } {
  const text = response.body ?? '';
  const marker = CLIPPED_MARKER.exec(text);
  if (marker && marker.index === EVIDENCE_BODY_LIMIT) return { text: text.slice(0, EVIDENCE_BODY_LIMIT), complete: false };
  return { text, complete: !response.truncated };
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/** One error answer with a body, as the check names it. */
export interface ErrorAnswer {
  check: string;
  /** The exchange's id in that check's evidence. */
  exchangeInCheck: number;
  operation: SpecOperation;
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  /** Why it is not JSON; absent when it is (or may be). */
  problem?: string;
  /** The body (not only its label) is not JSON. */
  bodyNotJson?: boolean;
  /** Only the first part of the body was kept, and it is JSON so far. */
  partial?: boolean;
}

/** Why the body is not JSON, judged on what evidence kept; `partial` when the kept part is JSON so far. */
function judgeBody(response: NonNullable<RecordedExchange['response']>): { problem?: string; partial?: boolean } {
  const { text, complete } = keptBody(response);
  if (complete) {
    try {
      JSON.parse(text);
      return {};
    } catch (error) {
      return { problem: `the body is not JSON (${(error as Error).message})` };
    }
  }
  const broken = jsonPrefixProblem(text);
  return broken ? { problem: `the body is not JSON: ${broken.problem}` } : { partial: true };
}

function judge(check: string, exchange: RecordedExchange, operation: SpecOperation, path: string): ErrorAnswer {
  const response = exchange.response!;
  const contentType = headerValue(response.headers, 'content-type') ?? null;
  const problems: string[] = [];
  if (!isJsonMediaType(contentType ?? undefined)) problems.push(contentType ? `labelled ${contentType}` : 'no Content-Type');
  const body = judgeBody(response);
  if (body.problem) problems.push(body.problem);
  return {
    check,
    exchangeInCheck: exchange.id,
    operation,
    method: exchange.request.method.toUpperCase(),
    path,
    status: response.status,
    contentType,
    ...(problems.length ? { problem: problems.join('; ') } : {}),
    ...(body.problem ? { bodyNotJson: true } : {}),
    ...(body.partial ? { partial: true } : {}),
  };
}

/** What the check saw: the error answers with a body, and how many had none. */
export interface ErrorAnswerSurvey {
  withBody: ErrorAnswer[];
  withoutBody: number;
  /** The exchange behind each answer, for evidence. */
  exchanges: Map<ErrorAnswer, RecordedExchange>;
}

export function surveyErrorAnswers(checks: readonly Pick<CheckResult, 'id' | 'evidence'>[], baseUrl?: string): ErrorAnswerSurvey {
  const survey: ErrorAnswerSurvey = { withBody: [], withoutBody: 0, exchanges: new Map() };
  for (const check of checks) {
    for (const exchange of check.evidence) {
      const response = exchange.response;
      if (!response || response.status < 400) continue;
      const operation = specifiedOperationOf(exchange.request.method, exchange.request.url, baseUrl);
      if (!operation) continue;
      if (response.bodyBytes === 0) {
        survey.withoutBody++;
        continue;
      }
      const answer = judge(check.id, exchange, operation, new URL(exchange.request.url).pathname);
      survey.withBody.push(answer);
      survey.exchanges.set(answer, exchange);
    }
  }
  return survey;
}

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

function statusesSeen(answers: readonly ErrorAnswer[]): string {
  const byOperation = new Map<SpecOperation, Set<number>>();
  for (const a of answers) byOperation.set(a.operation, (byOperation.get(a.operation) ?? new Set()).add(a.status));
  return [...byOperation].map(([op, codes]) => `${OPERATION_NAMES[op]} ${[...codes].sort((a, b) => a - b).join('/')}`).join(', ');
}

/** The evidence of the cross-cutting check: copies of the checks' exchanges, renumbered, each label naming its check. */
function asEvidence(survey: ErrorAnswerSurvey, answers: readonly ErrorAnswer[]): RecordedExchange[] {
  return answers.slice(0, EVIDENCE_KEPT).map((answer, i) => {
    const exchange = survey.exchanges.get(answer)!;
    return { ...exchange, id: i + 1, label: `${answer.check}: ${exchange.label ?? `${answer.method} ${answer.path}`}` };
  });
}

/**
 * The verdict of errors.error-bodies-are-json for one target, from the
 * exchanges every check of that target recorded. An answer to input the
 * suite made up outside the operation's domain (evidence marks it invented)
 * is at most a WARN, HTML or not: an intermediary (a proxy, a WAF) may give
 * it before the service sees the request, and the spec binds the service.
 */
export function errorBodiesAreJson(target: string, checks: readonly Pick<CheckResult, 'id' | 'evidence'>[], baseUrl?: string): CheckResult {
  const survey = surveyErrorAnswers(checks, baseUrl);
  const meta = { ...ERROR_BODIES_ARE_JSON, target, durationMs: 0, timeline: [] };
  const offenders = survey.withBody.filter((a) => a.problem && !survey.exchanges.get(a)!.invented);
  const toInvented = survey.withBody.filter((a) => a.problem && survey.exchanges.get(a)!.invented);
  const partial = survey.withBody.filter((a) => a.partial && !a.problem);
  const seen = survey.withBody.length + survey.withoutBody;
  const checksSeen = new Set(survey.withBody.map((a) => a.check)).size;
  const withoutBody = survey.withoutBody ? `; ${survey.withoutBody} without a body` : '';
  const summary = `${survey.withBody.length} error answer(s) with a body from ${checksSeen} check(s) (${statusesSeen(survey.withBody) || 'none'})${withoutBody}`;

  if (seen === 0) {
    return { ...meta, verdict: 'SKIP', reason: 'no check of this run recorded an error answer (status 400 or above) of the token, user details, withdrawal address or accept operations', findings: [], evidence: [] };
  }
  const claims: Claim[] = [];
  if (offenders.length) {
    claims.push({
      level: 'FAIL',
      message: `${offenders.length} of ${survey.withBody.length} error answer(s) with a body are not JSON (application/json): ${nameOffenders(offenders)}`,
      basis: specBasis(ERROR_BODIES_ARE_JSON.requirements),
      details: { expected: 'a JSON body labelled application/json (or a +json type), or no body', offending: offenders, checked: summary },
    });
  }
  if (toInvented.length) {
    claims.push({
      level: 'WARN',
      message: `${toInvented.length} answer(s) to input the suite made up outside the operation's domain are not JSON (application/json): ${nameOffenders(toInvented)}; an intermediary may answer such input before the service does`,
      details: { offending: toInvented },
    });
  }
  if (partial.length) {
    claims.push({
      level: 'REVIEW',
      message: `${partial.length} error answer(s) are longer than evidence keeps (${EVIDENCE_BODY_LIMIT} characters) or were cut off at the response cap: they are labelled JSON and their kept beginning is JSON so far, but the rest was not seen`,
      details: { partial: partial.map((a) => describe(a)) },
    });
  }
  if (!offenders.length && !toInvented.length) {
    const checked = survey.withBody.length
      ? `checked ${summary}: every body is JSON, labelled ${labelsSeen(survey.withBody)}`
      : `${survey.withoutBody} error answer(s), none with a body: no body that could be other than JSON`;
    claims.unshift({ level: 'INFO', message: checked });
  }
  const decided = decideOutcome({ severity: ERROR_BODIES_ARE_JSON.severity, claims });
  const shown = decided.verdict === 'FAIL' ? offenders : decided.verdict === 'WARN' ? toInvented : decided.verdict === 'REVIEW' ? partial : [];
  return { ...meta, ...decided, evidence: asEvidence(survey, shown) };
}

function labelsSeen(answers: readonly ErrorAnswer[]): string {
  return [...new Set(answers.map((a) => a.contentType))].join(', ');
}
