// A small run and waivers for the waiver tests (test/unit/waivers*.test.ts,
// test/report/waivers-*.test.ts): real check and requirement ids of the
// catalogue, so a waiver file written from them also passes the loader.
import type { CheckResult, Verdict } from '../../src/check/model.ts';
import { buildResults } from '../../src/results/build.ts';
import type { RunResults } from '../../src/results/model.ts';
import type { Waiver, WaiverFile } from '../../src/results/waiver-model.ts';

export const SINGLE_USE = 'auth.refresh-token-single-use';
export const SINGLE_USE_RACE = 'auth.refresh-token-single-use-race';
export const RENEWS = 'auth.refresh-renews-access-token';
export const LANGUAGES = 'users.accept-language-accepted';
export const SINGLE_USE_REASON = 'refresh token reused at 21:13:47 was accepted: 200';

export function check(id: string, requirements: string[], verdict: Verdict, reason?: string, target = 'target'): CheckResult {
  return {
    id,
    title: `the check ${id}`,
    area: id.startsWith('users.') ? 'users' : 'auth',
    requirements,
    severity: 'MUST',
    verdict,
    reason,
    findings: [],
    evidence: [],
    timeline: [],
    target,
    durationMs: 12,
  };
}

/** A run: two checks of TOKEN-REFRESH-SINGLE-USE, one of another auth requirement, one of users. Verdicts by check id. */
export function run(verdicts: Partial<Record<string, Verdict>> = {}, extra: CheckResult[] = []): RunResults {
  const v = (id: string, otherwise: Verdict) => verdicts[id] ?? otherwise;
  const reasonOf = (verdict: Verdict, failing: string) => (verdict === 'PASS' ? undefined : verdict === 'FAIL' ? failing : `${verdict} for a test`);
  const singleUse = v(SINGLE_USE, 'FAIL');
  const race = v(SINGLE_USE_RACE, 'PASS');
  const renews = v(RENEWS, 'PASS');
  const languages = v(LANGUAGES, 'PASS');
  return buildResults({
    run: {
      target: 'https://sandbox.example.com',
      suiteVersion: '0.1.0',
      specVersion: 'service-spec.md sha256:b214d7eb74ab',
      profileHash: 'sha256:0123456789ab',
      startedAt: '2026-12-31T21:00:00.000Z',
      finishedAt: '2026-12-31T21:05:00.000Z',
      durationMs: 300_000,
      insecureTls: false,
    },
    checks: [
      check(SINGLE_USE, ['TOKEN-REFRESH-SINGLE-USE'], singleUse, reasonOf(singleUse, SINGLE_USE_REASON)),
      check(SINGLE_USE_RACE, ['TOKEN-REFRESH-SINGLE-USE-ATOMIC', 'TOKEN-REFRESH-SINGLE-USE'], race, reasonOf(race, 'two concurrent uses of one refresh token were both accepted: 200, 200')),
      check(RENEWS, ['TOKEN-REFRESH-RENEWS'], renews, reasonOf(renews, 'the refresh answered 400')),
      check(LANGUAGES, ['USERS-ACCEPT-LANGUAGE'], languages, reasonOf(languages, 'Accept-Language: de was answered 400')),
      ...extra,
    ],
  });
}

type WaiverInput = ({ check: string } | { requirement: string }) & Partial<Omit<Waiver, 'selector' | 'pointer'>>;

/** A waiver file of these waivers, normalised as loadWaivers returns it. */
export function waiverFile(...inputs: WaiverInput[]): WaiverFile {
  const waivers = inputs.map((input, index): Waiver => {
    const selector = 'check' in input ? { kind: 'check' as const, id: input.check } : { kind: 'requirement' as const, id: input.requirement };
    return {
      pointer: `/waivers/${index}`,
      selector,
      reason: input.reason ?? 'single-use refresh tokens ship in release 4.2',
      owner: input.owner ?? 'payments-api team <payments-api@example.com>',
      tracking: input.tracking ?? 'https://tracker.example.com/PAY-1234',
      expires: input.expires ?? '2026-12-31',
      expect: input.expect ?? { verdict: 'FAIL' },
    };
  });
  return { file: 'waivers.json', sha256: 'a'.repeat(64), waivers };
}

/** The last millisecond a waiver expiring 2026-12-31 applies, and the first it does not. */
export const LAST_VALID_INSTANT = new Date('2026-12-31T23:59:59.999Z');
export const FIRST_EXPIRED_INSTANT = new Date('2027-01-01T00:00:00.000Z');
