// What a race of simultaneous refreshes with one refresh token did (5 rule 2:
// "each refresh token is single-use"), judged by its effects: how many
// refreshes succeeded and how many distinct successor refresh tokens they
// handed out. The answers of the losers decide nothing on their own: a 429
// or 503 says the service did not handle the request (it is not counted), a
// transport failure says nothing, and a 5xx of a loser is at most a WARN.
import { isServerError, isSuccess, type HttpResponse } from '../../runner/index.ts';
import { NOT_HANDLED_STATUSES } from '../../src/spec/answer-class.ts';

/** One racer's result: the answer, or why none came. */
export type RacerResult = { answer: Pick<HttpResponse, 'status' | 'json' | 'exchangeId'> } | { failure: string };

export interface RaceJudgement {
  /** Every racer's status, or its failure, in order: the evidence line. */
  outcomes: string[];
  /** Racers whose refresh succeeded (2xx). */
  winners: number;
  /** Distinct refresh tokens the winners handed out (the successors of the raced token). */
  successors: number;
  /** Racers the service did not handle: a transient answer (429, 503) or no answer. */
  notHandled: number;
  /** Losers answered with a server error other than 503: status and exchange. */
  serverErrors: Array<{ status: number; exchange: number }>;
}

function successorOf(json: unknown): string | undefined {
  const token = (json as { refresh_token?: unknown } | undefined)?.refresh_token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

export function judgeRace(results: readonly RacerResult[]): RaceJudgement {
  const judgement: RaceJudgement = { outcomes: [], winners: 0, successors: 0, notHandled: 0, serverErrors: [] };
  const successors = new Set<string>();
  for (const result of results) {
    if ('failure' in result) {
      judgement.outcomes.push(`no answer (${result.failure})`);
      judgement.notHandled++;
      continue;
    }
    const { status, json, exchangeId } = result.answer;
    judgement.outcomes.push(String(status));
    if (NOT_HANDLED_STATUSES.has(status)) judgement.notHandled++;
    else if (isSuccess(status)) {
      judgement.winners++;
      const successor = successorOf(json);
      if (successor !== undefined) successors.add(successor);
    } else if (isServerError(status)) judgement.serverErrors.push({ status, exchange: exchangeId });
  }
  judgement.successors = successors.size;
  return judgement;
}
