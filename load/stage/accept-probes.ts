// Accept-offer's probes in the load stage: the 429 staircase (each iteration
// creates an offer and accepts it), and the read-back of offers whose accept
// was answered 429, which must not have executed (spec 8, 3.1).
import { issuePair } from '../../src/auth/tokens.ts';
import type { CheckResult } from '../../src/check/model.ts';
import { userIdHeaderOf } from '../../src/config/profile.ts';
import { offerRecipes } from '../../src/config/sections/offer-recipes.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { HttpClient, TransportError } from '../../src/http/client.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { callOperation } from '../../src/operations.ts';
import { ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED } from '../checks.ts';
import { answered, type CapturedIteration, type NormalizedRun } from '../result/normalized.ts';
import { acceptRateBreakpoint } from '../scenarios/breakpoints.ts';
import { fromProfileOperation } from '../scenarios/operations.ts';
import { standardRecipeValues } from '../scenarios/params.ts';
import { runRateProbe, type RateProbeOutput } from './rate-probe.ts';
import { checkResult, type ProbeOutcome } from './results.ts';
import { rateProbeGate, rateProbeSettings } from './settings.ts';
import { probeTarget, type StageContext } from './token-probes.ts';

/** Refused offers read back per run: enough to catch an execution, few enough to stay quick. */
const READ_BACK = 5;

interface ReadBack {
  offerId: string;
  createdStatus?: unknown;
  status?: unknown;
  error?: string;
}

function skipBoth(ctx: StageContext, reason: string, configKey?: string): CheckResult[] {
  return [ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED].map((meta) => checkResult(meta, { verdict: 'SKIP', reason, configKey }, 0, ctx.redactor));
}

/** The offer-status operation and terminal statuses, or why the read-back cannot run. */
function readBackSettings(trading: TradingProfile): { offerStatus: OperationTemplate; terminal: string[] } | { reason: string; configKey: string } {
  if (!trading.offerStatus?.extract?.status) return { reason: 'no operation to read an offer status back (not shown by the spec)', configKey: 'trading.offerStatus' };
  if (!trading.terminalStatuses?.length) return { reason: 'no list of the statuses an executed offer ends in', configKey: 'trading.terminalStatuses' };
  return { offerStatus: trading.offerStatus, terminal: trading.terminalStatuses };
}

function notExecutedOutcome(captured: CapturedIteration[] | undefined, reads: ReadBack[], terminal: string[], evidence: RecordedExchange[]): ProbeOutcome {
  if (!captured?.length) return { verdict: 'INCONCLUSIVE', reason: 'no accept was answered 429 during the staircase, so no refused offer could be read back' };
  const executed = reads.filter((r) => typeof r.status === 'string' && terminal.includes(r.status));
  if (executed.length) {
    return {
      verdict: 'FAIL',
      reason: `${executed.length} of ${reads.length} offers whose accept was answered 429 were executed anyway: status ${executed.map((r) => `"${String(r.status)}"`).join(', ')} on reading back`,
      details: { expected: `a status other than ${terminal.join('/')}`, actual: executed.map((r) => ({ offerId: r.offerId, status: r.status })) },
      evidence,
    };
  }
  const unread = reads.filter((r) => r.status === undefined);
  if (unread.length === reads.length) return { verdict: 'ERROR', reason: `no refused offer could be read back: ${unread[0]?.error ?? 'no status'}`, evidence };
  return {
    verdict: 'PASS',
    reason: `${reads.length - unread.length} offers refused with 429 read back unexecuted: ${[...new Set(reads.map((r) => String(r.status)))].join(', ')}`,
    findings: unread.length ? [{ level: 'INFO', message: `${unread.length} refused offers could not be read back` }] : [],
    evidence,
  };
}

/** The staircase's access token, and its user: one of its own (trading.createUser), else trading.userId. */
async function staircaseUser(http: HttpClient, profile: StageContext['profile'], trading: TradingProfile): Promise<{ bearer: string; userId?: string }> {
  const bearer = (await issuePair(http, profile, 'access token for the accept staircase')).accessToken;
  if (!trading.createUser) return { bearer, userId: trading.userId };
  // A user of its own: the staircase supersedes offers quickly and must not touch anyone else's.
  const created = await callOperation(http, trading.createUser, {}, { bearer, label: 'a user for the accept staircase (trading.createUser)' });
  return { bearer, userId: typeof created.extracted.userId === 'string' ? created.extracted.userId : trading.userId };
}

/** setUpDone: called once the probe holds its token and user, so the token staircase may start (stage.ts). */
export async function acceptChecks(ctx: StageContext, setUpDone: () => void = () => undefined): Promise<{ checks: CheckResult[]; output?: RateProbeOutput }> {
  const gate = rateProbeGate(ctx.profile, 'acceptRateLimit');
  if (!gate.run) return { checks: skipBoth(ctx, gate.reason, gate.configKey) };
  const trading = ctx.profile.trading ?? {};
  if (!trading.createOffer?.extract?.offerId) return { checks: skipBoth(ctx, 'no operation to create a trade offer to accept (not shown by the spec)', 'trading.createOffer') };
  // The offers every accept check makes: the standard recipe (fast, where the profile declares one).
  const recipe = offerRecipes(trading)!.standard;
  if (!trading.userId && !trading.createUser) return { checks: skipBoth(ctx, 'no user who can receive offers', 'trading.createUser (or trading.userId)') };

  const http = HttpClient.to(ctx.connection, { transport: ctx.transport, redactor: ctx.redactor });
  const { bearer, userId } = await staircaseUser(http, ctx.profile, trading);
  if (!userId) return { checks: skipBoth(ctx, 'trading.createUser gave no userId and trading.userId is not set', 'trading.userId') };

  setUpDone();
  const settings = rateProbeSettings(ctx.profile, 'acceptRateLimit');
  const readBack = readBackSettings(trading);
  const reads: ReadBack[] = [];
  const readEvidence: RecordedExchange[] = [];
  const recording = http.withRecorder({ record: (e) => readEvidence.push(e) });
  let captured: CapturedIteration[] | undefined;

  const output = await runRateProbe({
    meta: ACCEPT_RATE_LIMIT,
    operation: 'accept',
    ...probeTarget(ctx),
    scenario: acceptRateBreakpoint({ ...settings, trading: { userId, createOffer: fromProfileOperation('create-offer', recipe.template, true), userIdHeader: userIdHeaderOf(ctx.profile) } }, settings.maxInFlight),
    variables: { accessToken: bearer, userId, ...standardRecipeValues(ctx.profile) },
    settings,
    capture: { status: 429, variables: ['offerId', 'status'], limit: READ_BACK },
    afterClimb: async (climb: NormalizedRun) => {
      captured = climb.captured;
      if ('reason' in readBack || !captured?.length) return;
      // Time for an offer that was (wrongly) executed to finish processing and show it.
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, Math.max(500, 2 * (typeof recipe.values.processingMs === 'number' ? recipe.values.processingMs : 0)))));
      for (const c of captured) {
        const offerId = String(c.variables.offerId);
        try {
          const read = await callOperation(recording, readBack.offerStatus, { offerId, userId }, { bearer, label: `read back offer ${offerId.slice(0, 8)}…, whose accept was answered 429` });
          reads.push({ offerId, createdStatus: c.variables.status, status: read.ok ? read.extracted.status : undefined, error: read.ok ? undefined : `status ${read.response.status}` });
        } catch (error) {
          reads.push({ offerId, error: error instanceof TransportError ? error.kind : String(error) });
        }
      }
    },
    evidence: () => [],
  });
  if (!output.run.phases.some((p) => answered(p) > 0)) {
    // Every iteration's set-up failed: an operation the spec does not show, so the check could not execute (never a FAIL).
    const reason = 'no accept was measured: the set-up created no offer to accept (trading.createOffer, an operation the spec does not show)';
    return { checks: [ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED].map((meta) => checkResult(meta, { verdict: 'ERROR', reason }, output.check.durationMs, ctx.redactor)) };
  }
  const notExecuted =
    'reason' in readBack
      ? checkResult(RATE_LIMITED_ACCEPT_NOT_EXECUTED, { verdict: 'SKIP', reason: readBack.reason, configKey: readBack.configKey }, 0, ctx.redactor)
      : checkResult(RATE_LIMITED_ACCEPT_NOT_EXECUTED, notExecutedOutcome(captured, reads, readBack.terminal, readEvidence), output.check.durationMs, ctx.redactor);
  return { checks: [output.check, notExecuted], output };
}
