// Single use under concurrency (5 rule 2, 4.1 rule 2): of simultaneous
// refreshes with one refresh token at most one succeeds. The race is judged
// by what it did (refresh-race.ts); each racer is sent once, because asking
// a 429 or 503 again would serialize the race away.
import { defineCheck, TransportError, type HttpClient } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { issuePair, refreshBody, TOKEN_PATH } from '../../src/auth/tokens.ts';
import { judgeRace, type RacerResult } from './refresh-race.ts';

/** n simultaneous refreshes with one refresh token, each sent once; a transport failure is a racer without an answer. */
function race(http: HttpClient, profile: ResolvedProfile, refreshToken: string, n: number): Promise<RacerResult[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i): Promise<RacerResult> => {
      try {
        return { answer: await http.post(TOKEN_PATH, { json: refreshBody(profile, refreshToken), label: `concurrent refresh ${i + 1}/${n}`, once: true }) };
      } catch (error) {
        if (error instanceof TransportError) return { failure: error.kind };
        throw error;
      }
    }),
  );
}

defineCheck(
  {
    id: 'auth.refresh-token-single-use-race',
    title: 'Of simultaneous refreshes with one refresh token at most one succeeds',
    requirements: ['TOKEN-REFRESH-SINGLE-USE-ATOMIC'],
  },
  async ({ check, http, profile }) => {
    const n = profile.auth?.concurrency ?? 8;
    const pair = await issuePair(http, profile);
    const judged = judgeRace(await race(http, profile, pair.refreshToken, n));
    const outcomes = judged.outcomes.join(', ');
    check.event('concurrent refreshes answered', outcomes);
    const details = { outcomes: judged.outcomes, winners: judged.winners, successors: judged.successors };
    if (judged.winners > 1) {
      const issued = judged.successors ? `, handing out ${judged.successors} distinct successor refresh token(s)` : '';
      check.fail(`${judged.winners} of ${n} simultaneous refreshes with one refresh token succeeded${issued}; at most one may (${outcomes})`, details);
    }
    if (judged.notHandled === n) check.notObserved(`none of the ${n} simultaneous refreshes was handled (${outcomes}): the race was not run`, details);
    if (judged.notHandled) check.note(`${judged.notHandled} of ${n} refreshes got a transient answer or none (${outcomes}): the service did not handle them, so they are not counted`, details);
    // Single use held; a loser's 5xx is a server error, not a second use (7 lists 500 for the endpoint).
    const [serverError] = judged.serverErrors;
    if (serverError) {
      const statuses = judged.serverErrors.map((e) => e.status).join(', ');
      check.warn(`single use held, but ${judged.serverErrors.length} simultaneous refresh(es) that lost the race were answered with a server error (${statuses})`, { ...details, exchange: serverError.exchange }, { observed: { kind: 'race-loser', status: serverError.status } });
    }
    if (!judged.winners) check.note(`none of the ${n - judged.notHandled} handled refreshes succeeded (${outcomes}): single use held, though the token was not exchanged at all`, details);
  },
);
