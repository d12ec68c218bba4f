// Accept-offer's probes in the load stage: the 429 staircase (each iteration
// creates an offer and accepts it), and the read-back of offers whose accept
// was answered 429, which must not have executed (spec 8, 4.4 rule 3) — told
// by a trade id, or by the status a control offer reaches when it is
// accepted (accept-execution.ts).
import { AccessTokenCache } from '../../src/auth/tokens.ts';
import type { Bearer } from '../../src/http/outgoing.ts';
import type { CheckResult } from '../../src/check/model.ts';
import { userIdHeaderOf } from '../../src/config/profile.ts';
import { offerRecipes, type ResolvedRecipe } from '../../src/config/sections/offer-recipes.ts';
import type { OperationTemplate } from '../../src/config/sections/operation.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { HttpClient, TransportError } from '../../src/http/client.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import { callOperation } from '../../src/operations.ts';
import { ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED } from '../checks.ts';
import { answered, type CapturedIteration, type NormalizedRun } from '../result/normalized.ts';
import { describeCounts } from '../probes/rate-limit/steps.ts';
import { acceptRateBreakpoint } from '../scenarios/breakpoints.ts';
import { fromProfileOperation } from '../scenarios/operations.ts';
import { standardRecipeValues } from '../scenarios/params.ts';
import { runRateProbe, type RateProbeOutput } from './rate-probe.ts';
import { checkResult, checkResultOfRecord, probeRecord } from './results.ts';
import { acceptControlOffer } from './accept-execution.ts';
import { notExecutedOutcome, type Control, type NotExecutedMeasurements, type ReadBack } from './not-executed-judgment.ts';
import { judgeProbeRecord } from './probe-judgment.ts';
import { rateProbeGate, rateProbeSettings } from './settings.ts';
import { probeTarget, type StageContext } from './token-probes.ts';

/** Refused offers read back per run: enough to catch an execution, few enough to stay quick. */
const READ_BACK = 5;

function skipBoth(ctx: StageContext, reason: string, configKey?: string): CheckResult[] {
  return [ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED].map((meta) => checkResult(meta, { verdict: 'SKIP', reason, configKey }, 0, ctx.redactor));
}

/** The offer-status operation, or why the read-back cannot run: it needs the status, and a trade id or terminal statuses to follow the control offer by. */
function readBackSettings(trading: TradingProfile): { offerStatus: OperationTemplate; extractsTradeId: boolean } | { reason: string; configKey: string } {
  if (!trading.offerStatus?.extract?.status) return { reason: 'no operation to read an offer status back (not shown by the spec)', configKey: 'trading.offerStatus' };
  const extractsTradeId = Boolean(trading.offerStatus.extract.tradeId);
  if (!extractsTradeId && !trading.terminalStatuses?.length) {
    return { reason: 'neither a trade id in the offer status nor a list of terminal statuses to tell an executed offer by', configKey: 'trading.offerStatus.extract.tradeId (or trading.terminalStatuses)' };
  }
  return { offerStatus: trading.offerStatus, extractsTradeId };
}

/** The staircase's access token, and its user: one of its own (trading.createUser), else trading.userId. */
/** The staircase's token (the suite's own: renewed as it runs out, the staircase may outlast it) and user. */
async function staircaseUser(http: HttpClient, profile: StageContext['profile'], trading: TradingProfile): Promise<{ bearer: AccessTokenCache; userId?: string }> {
  const bearer = new AccessTokenCache(http, profile);
  await bearer.current();
  if (!trading.createUser) return { bearer, userId: trading.userId };
  // A user of its own: the staircase supersedes offers quickly and must not touch anyone else's.
  const created = await callOperation(http, trading.createUser, {}, { bearer, label: 'a user for the accept staircase (trading.createUser)' });
  return { bearer, userId: typeof created.extracted.userId === 'string' ? created.extracted.userId : trading.userId };
}

/** How long to give an offer that was (wrongly) executed to finish processing and show it: twice what the control took, within bounds. */
function readBackWaitMs(recipe: ResolvedRecipe, control: Control | undefined): number {
  const processing = typeof recipe.values.processingMs === 'number' ? recipe.values.processingMs : 0;
  return Math.min(10_000, Math.max(500, 2 * processing, 2 * (control?.elapsedMs ?? 0)));
}

/** Reads back the offers whose accept was answered 429; a read that fails is kept with its error. */
async function readBackRefused(http: HttpClient, offerStatus: OperationTemplate, captured: CapturedIteration[], who: { bearer: Bearer; userId: string }): Promise<ReadBack[]> {
  const reads: ReadBack[] = [];
  for (const c of captured) {
    const offerId = String(c.variables.offerId);
    try {
      const read = await callOperation(http, offerStatus, { offerId, userId: who.userId }, { bearer: who.bearer, label: `read back offer ${offerId.slice(0, 8)}…, whose accept was answered 429` });
      const { status, tradeId } = read.extracted;
      reads.push(read.ok ? { offerId, createdStatus: c.variables.status, status, tradeId } : { offerId, error: `status ${read.response.status}` });
    } catch (error) {
      reads.push({ offerId, error: error instanceof TransportError ? error.kind : String(error) });
    }
  }
  return reads;
}

/**
 * setUpDone: called once the probe holds its token and user, so the token
 * staircase may start (stage.ts), with the token's lifetime where expires_in
 * gave one.
 */
export async function acceptChecks(ctx: StageContext, setUpDone: (tokenLifetimeMs?: number) => void = () => undefined): Promise<{ checks: CheckResult[]; output?: RateProbeOutput }> {
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

  setUpDone(bearer.lifetimeMs);
  const settings = rateProbeSettings(ctx.profile, 'acceptRateLimit');
  const readBack = readBackSettings(trading);
  const readEvidence: RecordedExchange[] = [];
  const recording = http.withRecorder({ record: (e) => readEvidence.push(e) });
  // Before the climb, while the limiter is fresh: what an executed offer looks like.
  const control = 'reason' in readBack ? undefined : await acceptControlOffer({ http: recording, trading, offerStatus: readBack.offerStatus, recipe, bearer, userId });
  let captured: CapturedIteration[] | undefined;
  let reads: ReadBack[] = [];

  const output = await runRateProbe({
    meta: ACCEPT_RATE_LIMIT,
    operation: 'accept',
    ...probeTarget(ctx),
    scenarioFor: (latencyMs) =>
      acceptRateBreakpoint(
        { ...settings, latencyMs, trading: { userId, createOffer: fromProfileOperation('create-offer', recipe.template, true), userIdHeader: userIdHeaderOf(ctx.profile) } },
        settings.maxInFlight,
      ),
    // The predefined time bounds how long an accept answered 200 takes (spec 3.1).
    declaredLatencyMs: trading.processingTimeMs,
    variables: { userId, ...standardRecipeValues(ctx.profile) },
    accessToken: bearer,
    settings,
    capture: { status: 429, variables: ['offerId', 'status'], limit: READ_BACK },
    afterClimb: async (climb: NormalizedRun) => {
      captured = climb.captured;
      if ('reason' in readBack || !captured?.length) return;
      await new Promise((resolve) => setTimeout(resolve, readBackWaitMs(recipe, control)));
      reads = await readBackRefused(recording, readBack.offerStatus, captured, { bearer, userId });
    },
    evidence: () => [],
  });
  if (!output.run.phases.some((p) => answered(p) > 0)) {
    // Every iteration's set-up failed: an operation the spec does not show, so the check could not execute (never a FAIL).
    const setUp: Record<string, number> = {};
    for (const p of output.run.phases) for (const [cause, n] of Object.entries(p.setupFailed ?? {})) setUp[cause] = (setUp[cause] ?? 0) + n;
    const answers = Object.keys(setUp).length ? ` (its answers: ${describeCounts(setUp)})` : '';
    const reason = `no accept was measured: the set-up created no offer to accept${answers} (trading.createOffer, an operation the spec does not show)`;
    return { checks: [ACCEPT_RATE_LIMIT, RATE_LIMITED_ACCEPT_NOT_EXECUTED].map((meta) => checkResult(meta, { verdict: 'ERROR', reason }, output.check.durationMs, ctx.redactor)) };
  }
  if ('reason' in readBack) {
    return { checks: [output.check, checkResult(RATE_LIMITED_ACCEPT_NOT_EXECUTED, { verdict: 'SKIP', reason: readBack.reason, configKey: readBack.configKey }, 0, ctx.redactor)], output };
  }
  // The record keeps what was read back and the control: its verdict is their judgment (not-executed-judgment.ts), made again by `ptas rejudge`.
  const measured = ctx.redactor.redactJson({ kind: 'accept-not-executed', captured: captured?.length ?? 0, reads, control: control!, extractsTradeId: readBack.extractsTradeId }) as NotExecutedMeasurements;
  const record = { ...probeRecord(RATE_LIMITED_ACCEPT_NOT_EXECUTED, notExecutedOutcome(measured), ctx.redactor), analysis: measured };
  const judged = checkResultOfRecord(RATE_LIMITED_ACCEPT_NOT_EXECUTED, record, { evidence: readEvidence }, output.check.durationMs, judgeProbeRecord);
  return { checks: [output.check, judged], output };
}
