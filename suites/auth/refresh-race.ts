// What a race of simultaneous refreshes with one refresh token did (5 rule 2:
// "each refresh token is single-use"), judged by its effects: how many
// refreshes succeeded and how many distinct successor refresh tokens they
// handed out. The answers of the losers decide nothing on their own: a 429
// or 503 says the service did not handle the request (it is not counted), a
// transport failure says nothing, and a 5xx of a loser is at most a WARN.
import { isServerError, isSuccess, type HttpResponse } from '../../runner/index.ts';
import { NOT_HANDLED_STATUSES } from '../../src/spec/answer-class.ts';
import { defineJudgment } from '../../src/check/judgments.ts';

/** One racer's result: the answer, or why none came. */
export type RacerResult = { answer: Pick<HttpResponse, 'status' | 'json' | 'exchangeId'> } | { failure: string };

/**
 * One racer as the race's judgment reads it (plain JSON): its status, its
 * exchange, and the refresh token its answer handed out (null: none; kept
 * redacted, and equal tokens get equal markers, so distinct successors are
 * still counted); or why no answer came.
 */
export type Racer = { status: number; exchange: number; successor: string | null } | { failure: string };

/** The racers' results as the judgment's input: of each answer only what the race is judged by, not its body. */
export function racersOf(results: readonly RacerResult[]): Racer[] {
  return results.map((result) =>
    'failure' in result ? { failure: result.failure } : { status: result.answer.status, exchange: result.answer.exchangeId, successor: successorOf(result.answer.json) ?? null },
  );
}

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
  return countRace(racersOf(results));
}

/** What the racers did, counted. */
export function countRace(racers: readonly Racer[]): RaceJudgement {
  const judgement: RaceJudgement = { outcomes: [], winners: 0, successors: 0, notHandled: 0, serverErrors: [] };
  const successors = new Set<string>();
  for (const racer of racers) {
    if ('failure' in racer) {
      judgement.outcomes.push(`no answer (${racer.failure})`);
      judgement.notHandled++;
      continue;
    }
    const { status, exchange, successor } = racer;
    judgement.outcomes.push(String(status));
    if (NOT_HANDLED_STATUSES.has(status)) judgement.notHandled++;
    else if (isSuccess(status)) {
      judgement.winners++;
      if (successor !== null) successors.add(successor);
    } else if (isServerError(status)) judgement.serverErrors.push({ status, exchange });
  }
  judgement.successors = successors.size;
  return judgement;
}

/**
 * The race judged (5 rule 2, 4.1 rule 2): more than one winner FAILs; a race
 * the service handled no racer of was not run (ERROR); the racers it did not
 * handle are not counted (a note); a loser's server error is not a second use
 * but a WARN (7 lists 500 for the endpoint), resting on that loser's answer
 * as a race loser, not as the answer to a rule; no winner at all is noted:
 * single use held, though nothing was exchanged.
 */
export const refreshRace = defineJudgment<{ racers: Racer[] }>('auth.refresh-race', ({ racers }, says) => {
  const n = racers.length;
  const judged = countRace(racers);
  const outcomes = judged.outcomes.join(', ');
  const details = { outcomes: judged.outcomes, winners: judged.winners, successors: judged.successors };
  if (judged.winners > 1) {
    const issued = judged.successors ? `, handing out ${judged.successors} distinct successor refresh token(s)` : '';
    return says.fail(`${judged.winners} of ${n} simultaneous refreshes with one refresh token succeeded${issued}; at most one may (${outcomes})`, details);
  }
  if (judged.notHandled === n) return says.notObserved(`none of the ${n} simultaneous refreshes was handled (${outcomes}): the race was not run`, details);
  if (judged.notHandled) says.note(`${judged.notHandled} of ${n} refreshes got a transient answer or none (${outcomes}): the service did not handle them, so they are not counted`, details);
  const [serverError] = judged.serverErrors;
  if (serverError) {
    const statuses = judged.serverErrors.map((e) => e.status).join(', ');
    says.warn(`single use held, but ${judged.serverErrors.length} simultaneous refresh(es) that lost the race were answered with a server error (${statuses})`, { ...details, exchange: serverError.exchange }, { observed: { kind: 'race-loser', status: serverError.status } });
  }
  if (!judged.winners) says.note(`none of the ${n - judged.notHandled} handled refreshes succeeded (${outcomes}): single use held, though the token was not exchanged at all`, details);
});
