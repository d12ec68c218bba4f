// Single use under concurrency (5 rule 2, 4.1 rule 2): of simultaneous
// refreshes with one refresh token at most one succeeds. The race is judged
// by what it did (refresh-race.ts, the judgment auth.refresh-race); each
// racer is sent once, because asking a 429 or 503 again would serialize the
// race away.
import { defineCheck, TransportError, type HttpClient } from '../../runner/index.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { issuePair, refreshBody, TOKEN_PATH } from '../../src/auth/tokens.ts';
import { countRace, racersOf, refreshRace, type RacerResult } from './refresh-race.ts';

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
    const racers = racersOf(await race(http, profile, pair.refreshToken, n));
    check.event('concurrent refreshes answered', countRace(racers).outcomes.join(', '));
    check.judge(refreshRace, { racers });
  },
);
