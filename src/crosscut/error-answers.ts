// What errors.error-bodies-are-json sees in a run's recorded exchanges: every
// error answer (status 400 or above) of the four specified operations, its
// body judged against spec 1 ("All request and response bodies are JSON
// (application/json)"), sorted by whose answer it is (src/spec/answer-class.ts):
//   - a gateway status the operation's row does not list (502, 504, 503 where
//     unlisted) is transient: counted, never judged;
//   - every other answer is the implementation's and judged; one that is not
//     JSON is excused to at most a WARN when the suite invented the input
//     (a hostile probe), when the client asked again after it and got past
//     it, or when its status is one the profile's declared intermediary
//     answers itself (src/http/intermediary.ts).
//
// An error answer without a body passes: it has no body that could be other
// than JSON (7 leaves the error body shape "not shown"). A body evidence
// keeps only in part (the first 16 KiB, or cut off at the response cap) is
// judged on what was kept: a beginning that already breaks the JSON grammar
// is not JSON; a beginning that is still JSON is `partial`, since the rest was not seen.
import type { Intermediary } from '../config/profile.ts';
import { EVIDENCE_BODY_LIMIT, type RecordedExchange } from '../http/exchange.ts';
import { answeredByIntermediary } from '../http/intermediary.ts';
import { isJsonMediaType } from '../http/media-type.ts';
import type { CheckResult } from '../check/model.ts';
import { answerClass } from '../spec/answer-class.ts';
import type { SpecOperation } from '../spec/status-codes.ts';
import { jsonPrefixProblem } from './json-prefix.ts';
import { specifiedOperationOf } from './specified-operations.ts';

/** The marker clipForEvidence (src/http/exchange.ts) appends after the kept 16 KiB. */
const CLIPPED_MARKER = /\n… \[\d+ more characters not kept in evidence\]$/;

/** Where a run's exchanges went and what the profile declares in front of it. */
export interface CrossCutScope {
  /** The base URL the operations' paths are relative to. */
  baseUrl?: string;
  /** The profile's http.intermediary. */
  intermediary?: Intermediary;
}

/** Why a body that is not JSON is at most a WARN: the suite invented the input, a retry got past it, or the declared intermediary answers its status. */
export type Excuse = 'invented' | 'retried' | 'intermediary';

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
  /** Set when a body that is not JSON is at most a WARN. */
  excuse?: Excuse;
}

/** What the check saw: the error answers with a body it judged, how many had none, and the gateway answers it left alone. */
export interface ErrorAnswerSurvey {
  withBody: ErrorAnswer[];
  withoutBody: number;
  /** Gateway statuses the operation's row does not list, by operation and status: transient, not judged. */
  gateway: ErrorAnswer[];
  /** The exchange behind each answer, for evidence. */
  exchanges: Map<ErrorAnswer, RecordedExchange>;
}

/** The body as evidence kept it, and whether that is all of it. */
function keptBody(response: NonNullable<RecordedExchange['response']>): { text: string; complete: boolean } {
  const text = response.body ?? '';
  const marker = CLIPPED_MARKER.exec(text);
  if (marker && marker.index === EVIDENCE_BODY_LIMIT) return { text: text.slice(0, EVIDENCE_BODY_LIMIT), complete: false };
  return { text, complete: !response.truncated };
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
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

function describeAnswer(check: string, exchange: RecordedExchange, operation: SpecOperation): ErrorAnswer {
  const response = exchange.response!;
  return {
    check,
    exchangeInCheck: exchange.id,
    operation,
    method: exchange.request.method.toUpperCase(),
    path: new URL(exchange.request.url).pathname,
    status: response.status,
    contentType: headerValue(response.headers, 'content-type') ?? null,
  };
}

function judge(answer: ErrorAnswer, response: NonNullable<RecordedExchange['response']>): ErrorAnswer {
  const problems: string[] = [];
  if (!isJsonMediaType(answer.contentType ?? undefined)) problems.push(answer.contentType ? `labelled ${answer.contentType}` : 'no Content-Type');
  const body = judgeBody(response);
  if (body.problem) problems.push(body.problem);
  return {
    ...answer,
    ...(problems.length ? { problem: problems.join('; ') } : {}),
    ...(body.problem ? { bodyNotJson: true } : {}),
    ...(body.partial ? { partial: true } : {}),
  };
}

function excuseOf(exchange: RecordedExchange, retriedPast: ReadonlySet<number>, scope: CrossCutScope): Excuse | undefined {
  if (exchange.invented) return 'invented';
  if (retriedPast.has(exchange.id)) return 'retried';
  if (answeredByIntermediary(scope.intermediary, exchange.response!.status)) return 'intermediary';
  return undefined;
}

export function surveyErrorAnswers(checks: readonly Pick<CheckResult, 'id' | 'evidence'>[], scope: CrossCutScope = {}): ErrorAnswerSurvey {
  const survey: ErrorAnswerSurvey = { withBody: [], withoutBody: 0, gateway: [], exchanges: new Map() };
  for (const check of checks) {
    // The attempts the client sent again: each later attempt names the one it repeats.
    const retriedPast = new Set(check.evidence.flatMap((e) => (e.retryOf === undefined ? [] : [e.retryOf])));
    for (const exchange of check.evidence) {
      const response = exchange.response;
      if (!response || response.status < 400) continue;
      const operation = specifiedOperationOf(exchange.request.method, exchange.request.url, scope.baseUrl);
      if (!operation) continue;
      if (answerClass(operation, response.status) === 'gateway') {
        survey.gateway.push(describeAnswer(check.id, exchange, operation));
        continue;
      }
      if (response.bodyBytes === 0) {
        survey.withoutBody++;
        continue;
      }
      const judged = judge(describeAnswer(check.id, exchange, operation), response);
      const excuse = judged.problem ? excuseOf(exchange, retriedPast, scope) : undefined;
      const answer = excuse ? { ...judged, excuse } : judged;
      survey.withBody.push(answer);
      survey.exchanges.set(answer, exchange);
    }
  }
  return survey;
}
