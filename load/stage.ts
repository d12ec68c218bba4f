// The load stage of `ptas run`: after the conformance checks, the 413
// boundary and the 429 staircases of the token endpoint and of accept-offer,
// each verdict a CheckResult and the measurements in results.json's load
// section. The token probes and the accept probes hit different limiters, so
// the two chains run side by side (unless the suite's access token lives less
// than a minute: OVERLAP_MIN_TOKEN_LIFETIME_MS); within the token chain the
// 413 bisection goes first, before the staircase drains the token bucket it
// shares.
import type { ResolvedProfile } from '../src/config/profile.ts';
import type { CheckResult } from '../src/check/model.ts';
import { closeTransport, createTransport } from '../src/http/client.ts';
import { connectionOf, secretRedactor } from '../src/http/connection.ts';
import type { LoadSection } from '../src/results/load-model.ts';
import { ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED, TOKEN_BODY_SIZE_LIMIT, TOKEN_RATE_LIMIT } from './checks.ts';
import type { CheckMeta } from '../src/check/model.ts';
import { acceptChecks } from './stage/accept-probes.ts';
import { rateLimitHeadersCheck } from './stage/headers-check.ts';
import { checkResult } from './stage/results.ts';
import { tokenBodySizeCheck, tokenRateCheck, type StageContext } from './stage/token-probes.ts';
import { ignoreEvents, type RunEventSink } from '../src/run-events/events.ts';

export interface LoadStageOptions {
  profile: ResolvedProfile;
  /** The target is the embedded reference (loopback): probes run by default with safe caps. */
  embeddedReference: boolean;
  signal?: AbortSignal;
  /** Hears the stage's lines, its probes' live progress and each 429 staircase step as it ends; without it the stage says nothing. */
  events?: RunEventSink;
}

export interface LoadStageResult {
  checks: CheckResult[];
  load?: LoadSection;
}

/**
 * The shortest access token lifetime with which the two staircases run side by
 * side: renewed at half its life, 30 s, such a token is renewed long after the
 * token staircase (a few seconds) has let the token endpoint go.
 */
const OVERLAP_MIN_TOKEN_LIFETIME_MS = 60_000;

/** A probe that throws (set-up failed, target vanished) becomes ERROR on its checks, not a crashed run. */
async function guarded<T>(what: string, run: () => Promise<T>, onError: (reason: string) => T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    return onError(`${what} could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function runLoadStage(options: LoadStageOptions): Promise<LoadStageResult> {
  const { profile } = options;
  const events = options.events ?? ignoreEvents;
  const startedAt = new Date();
  const connection = connectionOf(profile);
  const redactor = secretRedactor(connection);
  const transport = createTransport(connection);
  const ctx: StageContext = { profile, connection, transport, redactor, events, signal: options.signal };
  events({ kind: 'log', line: `ptas: load stage against ${options.embeddedReference ? 'the bundled reference at ' : ''}${profile.baseUrl}` });
  const errorChecks = (metas: CheckMeta[], reason: string) => metas.map((meta) => checkResult(meta, { verdict: 'ERROR', reason }, 0, redactor));
  try {
    // The accept probe needs a token before the token staircase floods the endpoint that issues it: a limiter
    // without burst allowance would refuse it for as long as the staircase runs.
    let acceptSetUpDone!: (tokenLifetimeMs?: number) => void;
    const acceptSetUp = new Promise<number | undefined>((resolve) => (acceptSetUpDone = resolve));
    const acceptChain = guarded('the accept 429 probe', () => acceptChecks(ctx, acceptSetUpDone), (reason) => ({
      checks: errorChecks([ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED], reason),
      output: undefined,
    })).finally(() => acceptSetUpDone());
    const tokenChain = (async () => {
      const size = await guarded('the 413 probe', () => tokenBodySizeCheck(ctx), (reason) => ({ check: errorChecks([TOKEN_BODY_SIZE_LIMIT], reason)[0]!, probe: undefined }));
      const acceptTokenLifetimeMs = await acceptSetUp;
      // A token that lives less than this may need renewing while the token staircase holds the token endpoint at its
      // limit, which then refuses the renewal 429 (Retry-After: a second) until the offers the accepts need are refused
      // 401 and a whole step measures nothing (seen under short-token-lifetime, 3 s). The staircases then take turns.
      if (acceptTokenLifetimeMs !== undefined && acceptTokenLifetimeMs < OVERLAP_MIN_TOKEN_LIFETIME_MS) await acceptChain;
      const rate = await guarded('the token 429 probe', () => tokenRateCheck(ctx), (reason) => ({ check: errorChecks([TOKEN_RATE_LIMIT], reason)[0]!, output: undefined }));
      return { size, rate };
    })();
    const [token, accept] = await Promise.all([tokenChain, acceptChain]);
    const headers = rateLimitHeadersCheck(
      [
        { operation: 'token', output: token.rate.output, skipped: token.rate.output ? undefined : `token: ${token.rate.check.reason}` },
        { operation: 'accept', output: accept.output, skipped: accept.output ? undefined : `accept: ${accept.checks[0]?.reason}` },
      ],
      redactor,
    );
    const finishedAt = Date.now();
    const result: Required<LoadStageResult> = {
      checks: [token.size.check, token.rate.check, ...accept.checks, headers],
      load: {
        engine: 'embedded',
        startedAt: startedAt.toISOString(),
        durationMs: finishedAt - startedAt.getTime(),
        probes: [token.size.probe, token.rate.output?.probe, accept.output?.probe].filter((p) => p !== undefined),
        profiles: [],
      },
    };
    for (const check of result.checks) events({ kind: 'check', check });
    events({ kind: 'load-stage', load: result.load });
    return result;
  } finally {
    await closeTransport(transport);
  }
}
