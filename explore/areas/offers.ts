// The model of accepting trade offers (spec 4.4 rules 1-4, 3.1, 2.4, 7, 8),
// explored as short sequences of steps over a small model state
// (offers-judgments.ts): offers created for a user or another one from the
// profile's recipes, accepts of the newest offer, an older one, one already
// accepted or an unknown id — with the owner's svc-user-id, another user's
// or none, a bearer valid, absent or forged, with or without
// external_transaction_id and a request body — a wait past an expiring
// recipe's validity, and following an offer answered 202 to its end.
//
// What the spec allows, rule by rule (each judged by the hand-written
// suite's judgments and CheckContext rules, suites/trading/):
//   - the newest valid offer of its owner: 200 or 202, a 200 carrying the
//     trade of 2.4, and the answer the recipe declares (200 or 202: the
//     profile's statement, 8 shows no predefined time); external_transaction_id
//     taken; another user's newer offer supersedes nothing (rule 1);
//   - every 200/202 with a body is JSON (1);
//   - after a 202, the offer reaches a terminal status within the declared
//     poll deadline (rule 4);
//   - an accept that must be refused (an older offer, an expired one,
//     another user's, no svc-user-id, no or a forged bearer, an unknown id)
//     is; 401 when only the bearer is wrong, 410 (a SHOULD) when only the
//     validity is; a 202 or 5xx to it is judged by what it did to the offer
//     (a trade in its status FAILs);
//   - a second accept of an accepted offer executes nothing again (a second
//     trade id FAILs; a refusal or a replay of the same trade passes).
// Recorded, never judged: a 5xx or 202 to a refusal that executed nothing or
// whose effect cannot be read (7 lists 500 for accept; a WARN on RFC 9110
// 15.6 is the hand-written checks' concern), what a body gets (4.4 shows
// none), an accept of an offer near the end of its validity, anything of an
// offer an earlier answer left in a state the model cannot know.
import fc from 'fast-check';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import { offerRecipes, type ResolvedRecipe } from '../../src/config/sections/offer-recipes.ts';
import { CheckContext, isServerError, isSuccess, clockOf } from '../../src/check/context.ts';
import { effectUnknown, type Effect } from '../../src/check/server-error.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { isTransientStatus } from '../../src/http/transient.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';
import { callOperation } from '../../src/operations.ts';
import {
  ACCEPTED,
  accept,
  acceptOnce,
  createOffer,
  describeRecipe,
  followToEnd,
  offerClock,
  pollOffer,
  settleIfPossible,
  SetupError,
  shortId,
  showsTradeId,
  tradeIdIn,
  tradeIdInStatus,
  type CreatedOffer,
} from '../../suites/trading/support.ts';
import { answeredAt, laterStepInMs } from '../../suites/trading/clock.ts';
import { acceptEffect } from '../../suites/trading/refusal-effect.ts';
import { acceptAnswerIsJson, acceptedAnswerCarriesTrade, acceptWithBody, acceptWithExternalTransactionId, dataKindOf } from '../../suites/trading/accept-answers.ts';
import { fastOfferAnswered200, slowOfferAnswered202, type RecipeSeen } from '../../suites/trading/recipe-answers.ts';
import { secondAcceptExecutesNothing } from '../../suites/trading/second-accept.ts';
import { needsStatusTrade, raceExecutions } from '../../suites/trading/race.ts';
import { executedNothing } from '../../src/http/transient.ts';
import { judgeOfferPolled } from '../../suites/trading/polling-judgment.ts';
import { declaredValidity, expiredOfferNotAccepted, judgeExpired202 } from '../../suites/trading/expired-202.ts';
import type { ExpiringRecipe } from '../../src/config/sections/offer-recipes.ts';
import { defineExploreRule } from '../rule.ts';
import type { AreaExplorer, AreaModel, Unexplorable } from '../model.ts';
import type { CaseRun } from '../case-run.ts';
import { expectationOf, mayBeNotFound, OfferModel, validityAt, type Defect, type ModelOffer, type ModelTiming, type UserRole } from './offers-judgments.ts';

export const RULES = {
  acceptNewest: defineExploreRule({
    id: 'explore.trading.accept-newest',
    title: "Generated accepts of a user's newest valid offer, by its owner, answer 200 with the trade or 202",
    requirements: ['OFFER-ACCEPT-RESULT'],
  }),
  fastAnswered200: defineExploreRule({
    id: 'explore.trading.fast-offer-200',
    title: 'Generated accepts of an offer the profile declares fast answer 200',
    requirements: ['OFFER-200-WITHIN-PREDEFINED-TIME'],
  }),
  slowAnswered202: defineExploreRule({
    id: 'explore.trading.slow-offer-202',
    title: 'Generated accepts of an offer the profile declares slow answer 202 without waiting',
    requirements: ['OFFER-202-WHEN-SLOW'],
  }),
  tradeSchema: defineExploreRule({
    id: 'explore.trading.accepted-trade-schema',
    title: 'Every 200 answer to a generated accept carries the accepted trade of 2.4',
    requirements: ['OFFER-ACCEPTED-TRADE-SCHEMA'],
  }),
  answerIsJson: defineExploreRule({
    id: 'explore.trading.accept-answer-is-json',
    title: 'Every 200 or 202 answer with a body to a generated accept is JSON',
    requirements: ['OFFER-JSON-BODY'],
  }),
  reachesTerminal: defineExploreRule({
    id: 'explore.trading.202-reaches-terminal-status',
    title: 'An offer whose generated accept answered 202 reaches a terminal status within the declared poll deadline',
    requirements: ['OFFER-202-STATUS-TERMINAL'],
  }),
  newestOnly: defineExploreRule({
    id: 'explore.trading.newest-only',
    title: "Generated accepts of an offer a newer one of its user superseded are refused; another user's offer supersedes none",
    requirements: ['OFFER-NEWEST-ONLY'],
  }),
  validity: defineExploreRule({
    id: 'explore.trading.validity-period',
    title: 'Generated accepts of an offer past its declared validity are refused (a 202 is followed to its end)',
    requirements: ['OFFER-VALIDITY-PERIOD'],
  }),
  expired410: defineExploreRule({
    id: 'explore.trading.expired-offer-410',
    title: 'A generated accept refused only for an expired offer is answered 410',
    requirements: ['OFFER-EXPIRED-410'],
  }),
  singleExecution: defineExploreRule({
    id: 'explore.trading.single-execution',
    title: 'A generated second accept of an accepted offer executes nothing again',
    requirements: ['OFFER-SINGLE-EXECUTION'],
  }),
  ownership: defineExploreRule({
    id: 'explore.trading.ownership',
    title: "Generated accepts of an offer with another user's svc-user-id are refused",
    requirements: ['OFFER-OWNERSHIP'],
  }),
  unknownOffer: defineExploreRule({
    id: 'explore.trading.unknown-offer',
    title: 'Generated accepts of an id that names no offer are refused',
    requirements: ['OFFER-UNKNOWN-REJECTED'],
  }),
  bearerRequired: defineExploreRule({
    id: 'explore.trading.bearer-required',
    title: 'Generated accepts without a bearer credential are refused (401 when nothing else is wrong)',
    requirements: ['OFFER-BEARER-REQUIRED'],
  }),
  forgedBearer: defineExploreRule({
    id: 'explore.trading.forged-bearer-refused',
    title: 'Generated accepts with a forged bearer token are refused (401 when nothing else is wrong)',
    requirements: ['OFFER-BEARER-INVALID-REJECTED'],
  }),
  userHeaderRequired: defineExploreRule({
    id: 'explore.trading.user-header-required',
    title: 'Generated accepts without svc-user-id are refused',
    requirements: ['OFFER-USER-HEADER-REQUIRED'],
  }),
  externalTransactionId: defineExploreRule({
    id: 'explore.trading.external-transaction-id',
    title: 'A generated accept of the newest valid offer with external_transaction_id is not refused',
    requirements: ['OFFER-EXTERNAL-TRANSACTION-ID'],
  }),
  concurrentAccepts: defineExploreRule({
    id: 'explore.trading.concurrent-accepts-execute-once',
    title: "Of a generated round of simultaneous accepts of a user's newest valid offer at most one executes",
    requirements: ['OFFER-SINGLE-EXECUTION-ATOMIC'],
  }),
  acceptBody: defineExploreRule({
    id: 'explore.trading.accept-with-body',
    title: 'What a generated accept of the newest valid offer with a request body gets is recorded; a server error is not',
    requirements: ['OFFER-ACCEPT-BODY-NOT-SHOWN'],
  }),
};

/** The rule that judges a refusal for each defect. */
const DEFECT_RULE: Record<Defect, (typeof RULES)[keyof typeof RULES]> = {
  'no-bearer': RULES.bearerRequired,
  'forged-bearer': RULES.forgedBearer,
  'no-user-header': RULES.userHeaderRequired,
  'unknown-offer': RULES.unknownOffer,
  'other-user': RULES.ownership,
  expired: RULES.validity,
  older: RULES.newestOnly,
};

// ---- Cases -----------------------------------------------------------------

export interface AcceptMods {
  /** Whose svc-user-id: the offer's owner, the other user, none. */
  as: 'owner' | 'other' | 'none';
  bearer: 'valid' | 'absent' | 'forged';
  ext: boolean;
  body: boolean;
}

export type Step =
  | { op: 'create'; user: UserRole; recipe: string }
  /** newest: user A's newest offer; older: A's newest-but-one; again: the offer accepted last; unknown: a random UUID. */
  | ({ op: 'accept'; offer: 'newest' | 'older' | 'again' | 'unknown' } & AcceptMods)
  /** Waits until every expiring offer of the case is past its validity. */
  | { op: 'wait' }
  /** Follows the last offer answered 202 to its terminal status. */
  | { op: 'poll' }
  /** Accepts user A's newest offer several times at once (trading.concurrency, else 8), each sent once. */
  | { op: 'race' };

export interface OffersCase {
  steps: Step[];
}

/** The recipes the model creates offers from, by kind. */
export interface RecipeNames {
  /** Recipes whose offers stay valid (no expiresAfterSeconds): every scenario's. */
  lasting: string[];
  /** Of those, the ones declaring acceptAnswers 202 (poll scenarios). */
  slow: string[];
  /** Recipes whose offers expire within MAX_EXPIRY_SECONDS: the expiry scenario's. */
  expiring: string[];
  /** The profile says how to follow an offer to its end. */
  canPoll: boolean;
}

/** An expiring recipe is waited out only when its validity is a few seconds at most. */
export const MAX_EXPIRY_SECONDS = 3;

const VALID_MODS: AcceptMods = { as: 'owner', bearer: 'valid', ext: false, body: false };

/** Accept modifications: the valid choice first in every oneof, so shrinking walks back to it. */
const mods: fc.Arbitrary<AcceptMods> = fc.record({
  as: fc.oneof({ withCrossShrink: true }, { weight: 6, arbitrary: fc.constant('owner' as const) }, { weight: 1, arbitrary: fc.constant('other' as const) }, { weight: 1, arbitrary: fc.constant('none' as const) }),
  bearer: fc.oneof({ withCrossShrink: true }, { weight: 6, arbitrary: fc.constant('valid' as const) }, { weight: 1, arbitrary: fc.constant('absent' as const) }, { weight: 1, arbitrary: fc.constant('forged' as const) }),
  ext: fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  body: fc.oneof({ withCrossShrink: true }, { weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

/** One thing wrong each: what a refusal rule is about. */
const DEFECT_MODS: AcceptMods[] = [
  { ...VALID_MODS, as: 'other' },
  { ...VALID_MODS, as: 'none' },
  { ...VALID_MODS, bearer: 'absent' },
  { ...VALID_MODS, bearer: 'forged' },
];

const acceptOf = (offer: 'newest' | 'older' | 'again' | 'unknown', m: AcceptMods = VALID_MODS): Step => ({ op: 'accept', offer, ...m });

export function caseArbitrary(names: RecipeNames): fc.Arbitrary<OffersCase> {
  // The first recipe (the standard one: fast, when declared) weighs most: its 200 carries the trade most rules read.
  const lasting = fc.oneof(...names.lasting.map((name, i) => ({ weight: i === 0 ? 2 : 1, arbitrary: fc.constant(name) })));
  const create = (user: UserRole) => lasting.map((recipe): Step => ({ op: 'create', user, recipe }));
  const anyStep: fc.Arbitrary<Step> = fc.oneof(
    { weight: 3, arbitrary: mods.chain((m) => fc.constantFrom('newest', 'older', 'again', 'unknown').map((offer) => acceptOf(offer as 'newest', m))) },
    { weight: 2, arbitrary: fc.constantFrom<UserRole>('A', 'B').chain(create) },
    ...(names.canPoll ? [{ weight: 1, arbitrary: fc.constant<Step>({ op: 'poll' }) }] : []),
  );
  // Probes: most often up to three of the four single defects, each once; else any modifications.
  const probes = fc.oneof(
    { weight: 3, arbitrary: fc.shuffledSubarray(DEFECT_MODS, { minLength: 1, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(mods, { minLength: 1, maxLength: 3 }) },
  );
  const scenarios: Array<{ weight: number; arbitrary: fc.Arbitrary<Step[]> }> = [
    // The first is a plain accept of the newest offer: what shrinking walks back to.
    { weight: 4, arbitrary: fc.tuple(create('A'), mods).map(([c, m]) => [c, acceptOf('newest', m)]) },
    // Accepts that must be refused, each leaving the offer as it was, then one that may be valid.
    // Then simultaneous accepts of the same newest offer, or one accept.
    {
      weight: 5,
      arbitrary: fc
        .tuple(create('A'), probes, fc.oneof({ withCrossShrink: true }, { weight: 2, arbitrary: mods.map((m) => acceptOf('newest', m)) }, { weight: 1, arbitrary: fc.constant<Step>({ op: 'race' }) }))
        .map(([c, ps, last]) => [c, ...ps.map((p) => acceptOf('newest', p)), last]),
    },
    // A newer offer of the same user supersedes the older one (rule 1).
    {
      weight: 3,
      arbitrary: fc.tuple(create('A'), create('A'), mods, fc.option(mods, { nil: undefined })).map(([c1, c2, m, then]) => [c1, c2, acceptOf('older', m), ...(then ? [acceptOf('newest', then)] : [])]),
    },
    // Another user's newer offer supersedes nothing; another user's svc-user-id is refused.
    { weight: 2, arbitrary: fc.tuple(create('A'), create('B'), mods).map(([c1, c2, m]) => [c1, c2, acceptOf('newest', m)]) },
    // A second accept of an accepted offer.
    {
      weight: 3,
      arbitrary: fc.tuple(create('A'), fc.boolean(), mods).map(([c, poll, m]) => [c, acceptOf('newest'), ...(poll && names.canPoll ? [{ op: 'poll' } as Step] : []), acceptOf('again', m)]),
    },
    // Simultaneous accepts of an offer not declared slow (a 202 carries no trade to count executions by).
    {
      weight: 3,
      arbitrary: fc.constantFrom(...(names.lasting.filter((r) => !names.slow.includes(r)).length ? names.lasting.filter((r) => !names.slow.includes(r)) : names.lasting)).map((recipe) => [
        { op: 'create', user: 'A', recipe } as Step,
        { op: 'race' } as Step,
      ]),
    },
    // An id that names no offer.
    { weight: 1, arbitrary: mods.map((m) => [acceptOf('unknown', m)]) },
  ];
  if (names.slow.length && names.canPoll) {
    scenarios.push({ weight: 2, arbitrary: fc.constantFrom(...names.slow).map((recipe) => [{ op: 'create', user: 'A', recipe } as Step, acceptOf('newest'), { op: 'poll' } as Step]) });
  }
  if (names.expiring.length) {
    // One wait serves two accepts: the first possibly wrong in another way too, the second as the owner would send it.
    scenarios.push({
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...names.expiring), fc.oneof({ withCrossShrink: true }, { weight: 2, arbitrary: fc.constant(VALID_MODS) }, { weight: 1, arbitrary: mods }), fc.boolean())
        .map(([recipe, m, twice]) => [{ op: 'create', user: 'A', recipe } as Step, { op: 'wait' } as Step, acceptOf('newest', m), ...(twice ? [acceptOf('newest')] : [])]),
    });
  }
  return fc
    .tuple(fc.oneof({ withCrossShrink: true }, ...scenarios), fc.array(anyStep, { maxLength: 1 }))
    .map(([steps, tail]) => ({ steps: [...steps, ...tail].slice(0, 5) }));
}

export function describeStep(step: Step): string {
  switch (step.op) {
    case 'create':
      return `create ${step.recipe} offer for ${step.user}`;
    case 'wait':
      return 'wait past validity';
    case 'poll':
      return 'poll the 202 offer to its end';
    case 'race':
      return "accept A's newest offer several times at once";
    case 'accept': {
      const offer = { newest: "A's newest offer", older: "A's older offer", again: 'the accepted offer again', unknown: 'an unknown id' }[step.offer];
      const extras = [
        step.as === 'other' ? "the other user's svc-user-id" : step.as === 'none' ? 'no svc-user-id' : '',
        step.bearer === 'absent' ? 'no bearer' : step.bearer === 'forged' ? 'a forged bearer' : '',
        step.ext ? 'external_transaction_id' : '',
        step.body ? 'the body {}' : '',
      ].filter(Boolean);
      return `accept ${offer}${extras.length ? ` with ${extras.join(', ')}` : ''}`;
    }
  }
}

export const describeCase = (c: OffersCase): string => c.steps.map(describeStep).join('; ');

export const kindOfCase = (c: OffersCase): string =>
  c.steps.map((s) => (s.op === 'create' ? `create ${s.user}` : s.op === 'accept' ? describeStep(s).replace(/^accept /, 'accept ') : s.op)).join('; ');

// ---- Running a case ----------------------------------------------------------

interface Setup {
  section: TradingProfile;
  recipes: Map<string, ResolvedRecipe>;
  timing: ModelTiming;
  /** The profile's users when it cannot create them (trading.userId, otherUserId). */
  sharedUsers?: { A: string; B?: string };
}

const recipeSeen = (recipe: ResolvedRecipe): RecipeSeen => ({ name: recipe.name, declaredBy: recipe.declaredBy, label: describeRecipe(recipe) });
const declared = (value: unknown): { declaredValue?: unknown } => (value === undefined ? {} : { declaredValue: value });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One case's run: its users, its offers and the model of them. */
class CaseState {
  readonly model = new OfferModel();
  private readonly users: Partial<Record<UserRole, string>> = {};
  private readonly created = new Map<ModelOffer, CreatedOffer>();
  private lastCreate?: { res: HttpResponse; granularityMs: number };

  constructor(
    readonly setup: Setup,
    readonly run: CaseRun,
  ) {}

  /** A context for the suite's helpers that poll and read: their events reach every rule's timeline, their set-up claims no rule. */
  scratch(): CheckContext {
    return this.run.helperContext();
  }

  async user(role: UserRole): Promise<string | undefined> {
    if (this.users[role]) return this.users[role];
    const { section, sharedUsers } = this.setup;
    if (sharedUsers) return (this.users[role] = sharedUsers[role]);
    const made = await callOperation(this.run.http, section.createUser!, {}, { bearer: this.run.target.tokens, label: `create user ${role} for this case (trading.createUser)` });
    const id = made.extracted.userId;
    if (!made.ok || typeof id !== 'string' || !id) throw new SetupError(`trading.createUser answered ${made.response.status} without a userId to extract`);
    return (this.users[role] = id);
  }

  createdOf(offer: ModelOffer): CreatedOffer {
    return this.created.get(offer)!;
  }

  async create(role: UserRole, recipeName: string): Promise<void> {
    const recipe = this.setup.recipes.get(recipeName)!;
    const userId = await this.user(role);
    if (!userId) return;
    // Two offers within one step of a whole-second clock can carry the same creation time: the next is made only
    // once the implementation's clock shows a later step than the last create's answer (as the hand-written check does).
    if (this.lastCreate) await sleep(laterStepInMs(this.lastCreate.res, this.lastCreate.granularityMs));
    const sentAt = Date.now();
    const created = await createOffer(this.run.http, recipe, this.run.target.tokens, userId, `create a trade offer (${describeRecipe(recipe)}) for user ${role}`);
    const clock = await offerClock(this.run.http, this.setup.section, this.run.target.tokens, created);
    this.lastCreate = { res: created.response, granularityMs: clock.granularityMs };
    const offer = this.model.add({
      id: created.offerId,
      user: role,
      recipe: recipeName,
      ...(recipe.acceptAnswers !== undefined ? { acceptAnswers: recipe.acceptAnswers } : {}),
      ...(recipe.expiresAfterSeconds !== undefined ? { expiresAfterSeconds: recipe.expiresAfterSeconds } : {}),
      sentAt,
      answeredAt: answeredAt(created.response),
      granularityMs: clock.granularityMs,
    });
    this.created.set(offer, created);
  }
}

async function runCase(setup: Setup, c: OffersCase, run: CaseRun): Promise<void> {
  const state = new CaseState(setup, run);
  for (const step of c.steps) {
    if (step.op === 'create') await state.create(step.user, step.recipe);
    else if (step.op === 'wait') await waitPastExpiry(state.model, setup.timing);
    else if (step.op === 'poll') await pollStep(state);
    else if (step.op === 'race') await raceStep(state);
    else await acceptStep(state, step);
  }
}

/** Sleeps until every expiring offer is past its expiry wait by this machine's clock (a timer may fire a little early). */
async function waitPastExpiry(model: OfferModel, timing: ModelTiming): Promise<void> {
  for (let left = model.expiryWaitFrom(Date.now(), timing); left > 0; left = model.expiryWaitFrom(Date.now(), timing)) await sleep(left + 5);
}

/** Follows the last offer answered 202 to its end, judged as the hand-written polling check judges it. */
async function pollStep(state: CaseState): Promise<void> {
  const offer = state.model.unsettled();
  if (!offer) return;
  const { run, setup } = state;
  offer.settled = true;
  const outcome = await pollOffer(state.scratch(), run.http, setup.section, run.target.tokens, state.createdOf(offer));
  const last = outcome.last;
  if (outcome.reached && typeof last?.tradeId === 'string' && last.tradeId) offer.tradeId = last.tradeId;
  run.judge(RULES.reachesTerminal.id, (check) => judgeOfferPolled(check, offer.id, [...(setup.section.terminalStatuses ?? [])], outcome));
}

/**
 * Simultaneous accepts of user A's newest valid offer, each sent once (a retry would serialize the race away),
 * judged by what they executed (suites/trading/race.ts): two trade ids FAIL. How the losers were answered,
 * and a round nothing accepted, are recorded, not judged. The offer is left unclear: no later step judges it.
 */
async function raceStep(state: CaseState): Promise<void> {
  const { run, setup } = state;
  const offer = state.model.newestOf('A');
  // An offer declared slow answers 202s without trades of their own, which cannot be counted as executions: only others race.
  if (!offer || offer.state !== 'open' || offer.expiresAfterSeconds !== undefined || offer.acceptAnswers === 202) return;
  const userId = await state.user('A');
  const created = state.createdOf(offer);
  const n = setup.section.concurrency ?? 8;
  const sentAt = Date.now();
  const results = await Promise.all(Array.from({ length: n }, (_, i) => acceptOnce(run.http, offer.id, { bearer: run.target.tokens, userId, label: `simultaneous accept ${i + 1}/${n}` })));
  offer.state = 'unclear';
  const when = `at ${clockOf(results[0]!)}`;
  const what = `${n} simultaneous accepts of A's newest offer ${shortId(offer.id)} (${offer.recipe}) ${when}`;
  for (const res of results) answerRules(run, res, offer.id, what);
  const lastAnswer = Math.max(...results.map(answeredAt));
  if (validityAt(offer, sentAt, lastAnswer, setup.timing) !== 'valid') {
    for (const rule of Object.values(RULES)) run.note(rule.id, `${what}: not judged, the answers came too near the end of the offer's validity period`);
    return;
  }
  const statuses = results.map((r) => r.status);
  const answered = results.filter((r) => isSuccess(r.status));
  const rule = RULES.concurrentAccepts.id;
  if (!answered.length) {
    if (results.every((r) => executedNothing(r.status))) return run.judge(rule, (check) => check.notObserved(`${what} were all answered 429 or 503 (${statuses.join(', ')}): the race was not exercised`));
    return run.judge(rule, (check) => check.review(`${what} were answered ${statuses.join(', ')}: none accepted; recorded, not judged`, { statuses }));
  }
  const seen = answered.map((r) => ({ status: r.status, tradeId: tradeIdIn(r) ?? null }));
  let statusTrade: { statusTradeId?: string | null } = {};
  if (needsStatusTrade(seen)) {
    const canShow = showsTradeId(setup.section);
    if (canShow && seen.some((a) => a.status === 202 && !a.tradeId)) await settleIfPossible(state.scratch(), run.http, setup.section, run.target.tokens, created);
    const shown = canShow ? await tradeIdInStatus(run.http, setup.section, run.target.tokens, created, 'offer status after the simultaneous accepts') : undefined;
    statusTrade = { statusTradeId: shown ?? null };
  }
  run.judge(rule, (check) => {
    check.judge(raceExecutions, { offerId: offer.id, when, statuses, answered: seen, ...statusTrade });
    const broken = results.filter((r) => isServerError(r.status) && !executedNothing(r.status));
    if (broken.length) check.note(`${broken.length} of the simultaneous accepts lost with a server error (${statuses.join(', ')}): how losers are answered is recorded, not judged here`);
  });
}

function pickOffer(state: CaseState, which: Extract<Step, { op: 'accept' }>['offer']): ModelOffer | undefined | 'none' {
  const found = which === 'newest' ? state.model.newestOf('A') : which === 'older' ? state.model.olderOf('A') : which === 'again' ? state.model.lastAccepted() : undefined;
  if (which !== 'unknown' && !found) return 'none';
  return found;
}

async function acceptStep(state: CaseState, step: Extract<Step, { op: 'accept' }>): Promise<void> {
  const { run, setup } = state;
  const picked = pickOffer(state, step.offer);
  if (picked === 'none') return;
  const offer = picked;
  const owner: UserRole = offer?.user ?? 'A';
  const other: UserRole = owner === 'A' ? 'B' : 'A';
  const userId = step.as === 'none' ? undefined : await state.user(step.as === 'owner' ? owner : other);
  // No other user to send: the step cannot be taken as generated.
  if (step.as !== 'none' && !userId) return;
  const { tokens } = run.target;
  const bearer = step.bearer === 'valid' ? tokens : step.bearer === 'forged' ? tamperPayload(await tokens.current()) : undefined;
  const offerId = offer?.id ?? crypto.randomUUID();
  const externalTransactionId = step.ext ? crypto.randomUUID() : undefined;

  // A second accept meets a finished offer, as the hand-written check's does; the first execution's trade is read before it.
  const again = offer?.state === 'accepted' && step.as === 'owner' && step.bearer === 'valid';
  if (again && offer) await beforeSecondAccept(state, offer);

  const sentAt = Date.now();
  const what = `${describeStep(step)} (offer ${shortId(offerId)}${offer ? `, ${offer.recipe}` : ''})`;
  const res = await accept(run.http, offerId, {
    bearer,
    userId,
    ...(externalTransactionId ? { externalTransactionId } : {}),
    ...(step.body ? { json: {} } : {}),
    label: describeStep(step),
  });
  const validity = offer ? validityAt(offer, sentAt, answeredAt(res), setup.timing) : undefined;
  const expectation = expectationOf({ offer, as: step.as, bearer: step.bearer, body: step.body }, state.model, validity);
  const at = `${what} at ${clockOf(res)}`;

  answerRules(run, res, offerId, at);
  switch (expectation.kind) {
    case 'refused':
      await judgeRefusal(state, offer, res, expectation.defects, at, step.body);
      // A refusal leaves the offer as it was; anything else leaves it unknown.
      if (offer && (isSuccess(res.status) || isServerError(res.status))) offer.state = 'unclear';
      return;
    case 'again':
      return judgeSecondAccept(state, offer!, res, at);
    case 'unknown':
      for (const rule of Object.values(RULES)) run.note(rule.id, `${at} answered ${res.status}: not judged, ${expectation.why}`);
      if (offer && offer.state === 'open') offer.state = isAccepted(res.status) && offer.expiresAfterSeconds === undefined ? 'accepted' : 'unclear';
      if (offer && offer.state === 'accepted') record(offer, res);
      return;
    case 'accepted':
      judgeValidAccept(state, offer!, res, at, { body: step.body, externalTransactionId });
      if (isAccepted(res.status) && !isServerError(res.status)) {
        offer!.state = 'accepted';
        record(offer!, res);
      } else offer!.state = 'unclear';
  }
}

const isAccepted = (status: number) => status === 200 || status === 202;

function record(offer: ModelOffer, res: HttpResponse): void {
  offer.firstStatus = res.status;
  const trade = tradeIdIn(res);
  if (trade) offer.tradeId = trade;
}

/** The rules every 200/202 answer is held to, whatever the accept: JSON (1), and a 200 carries the trade (3.1, 2.4). */
function answerRules(run: CaseRun, res: HttpResponse, offerId: string, what: string): void {
  if (!isAccepted(res.status)) return;
  if (!(res.status === 202 && res.body.length === 0)) {
    run.judge(RULES.answerIsJson.id, (check) => {
      check.expectJsonContentType(res, `the ${res.status} answer to ${what}`, { on: 'SPEC-1-JSON' });
      check.judge(acceptAnswerIsJson, { offerId, status: res.status, jsonError: res.json === undefined ? String(res.jsonError) : null, exchange: res.exchangeId });
    });
  }
  if (res.status === 200) {
    run.judge(RULES.tradeSchema.id, (check) => {
      check.judge(acceptedAnswerCarriesTrade, { offerId, status: res.status, dataKind: dataKindOf(res.json), exchange: res.exchangeId });
      check.expectSchema(res, 'accepted-trade.schema.json', `accepted trade of ${what}`);
    });
  }
}

/** The newest valid offer accepted by its owner: 200/202, the recipe's declared answer, external_transaction_id taken; a body recorded. */
function judgeValidAccept(state: CaseState, offer: ModelOffer, res: HttpResponse, what: string, sent: { body: boolean; externalTransactionId?: string }): void {
  const { run, setup } = state;
  if (sent.body) {
    // 4.4 shows no body: ignoring it and refusing it are both the implementation's choice; breaking on it is not.
    run.judge(RULES.acceptBody.id, (check) => check.judge(acceptWithBody, { offerId: offer.id, clock: clockOf(res), status: res.status, exchange: res.exchangeId }));
    return;
  }
  run.judge(RULES.acceptNewest.id, (check) => {
    check.expectStatus(res, ACCEPTED, `${what}, the newest valid offer of its user, by its owner`);
    check.judge(acceptedAnswerCarriesTrade, { offerId: offer.id, status: res.status, dataKind: dataKindOf(res.json), exchange: res.exchangeId });
  });
  const newerOther = state.model.newerOfOtherUser(offer);
  if (newerOther) {
    run.judge(RULES.newestOnly.id, (check) =>
      check.expectStatus(res, ACCEPTED, `${what}, the newest offer of its user, after offer ${shortId(newerOther.id)} was created for another user`, { on: 'SPEC-4-4-RULE-1' }),
    );
  }
  if (sent.externalTransactionId) {
    const externalTransactionId = sent.externalTransactionId;
    run.judge(RULES.externalTransactionId.id, (check) =>
      check.judge(acceptWithExternalTransactionId, { offerId: offer.id, externalTransactionId, clock: clockOf(res), status: res.status, exchange: res.exchangeId }),
    );
  }
  const recipe = setup.recipes.get(offer.recipe)!;
  if (recipe.acceptAnswers === 200) {
    run.judge(RULES.fastAnswered200.id, (check) => {
      check.judge(fastOfferAnswered200, {
        offerId: offer.id,
        recipe: recipeSeen(recipe),
        status: res.status,
        processingTimeMs: setup.section.processingTimeMs ?? null,
        ...declared(check.declaredValue(recipe.declaredBy)),
        exchange: res.exchangeId,
      });
      check.expectStatus(res, 200, `${what} (${describeRecipe(recipe)})`, { on: 'SPEC-3-1-ACCEPTED-ROW' });
    });
  } else if (recipe.acceptAnswers === 202) {
    run.judge(RULES.slowAnswered202.id, (check) => {
      check.judge(slowOfferAnswered202, {
        offerId: offer.id,
        recipe: recipeSeen(recipe),
        status: res.status,
        durationMs: Math.round(res.durationMs),
        ...declared(check.declaredValue(recipe.declaredBy)),
        exchange: res.exchangeId,
      });
      check.expectStatus(res, 202, `${what} (${describeRecipe(recipe)})`, { on: 'SPEC-4-4-RULE-3' });
    });
  }
}

/** An answer that is neither a refusal nor an acceptance: what it did decides, read as the hand-written checks read it. */
const needsEffect = (status: number) => status === 202 || isServerError(status);

/** An accept the model says must be refused. The first defect's rule judges it; a single defect its own code. */
async function judgeRefusal(state: CaseState, offer: ModelOffer | undefined, res: HttpResponse, defects: Defect[], what: string, body: boolean): Promise<void> {
  const { run, setup } = state;
  const primary = defects[0]!;
  const rule = DEFECT_RULE[primary];
  const on = rule.requirements[0]!;
  const sole = defects.length === 1 && !body;
  const all = `${what}, which must be refused (${defects.join(', ')})`;

  // An expired offer answered 202: where it ends decides (expired-202.ts), as in the hand-written expiry check.
  if (primary === 'expired' && offer && res.status === 202) {
    const recipe = setup.recipes.get(offer.recipe)! as ExpiringRecipe;
    const end = await followToEnd(state.scratch(), run.http, setup.section, run.target.tokens, state.createdOf(offer));
    run.judge(rule.id, (check) => judgeExpired202(check, { recipe, offer: state.createdOf(offer), res, what: all }, end));
    return;
  }
  let effect: Effect | undefined;
  if (needsEffect(res.status)) {
    effect = offer
      ? await acceptEffect({ check: state.scratch(), http: run.http, section: setup.section, bearer: run.target.tokens }, state.createdOf(offer), res, on).catch((error: unknown) => {
          if (error instanceof Error && error.name === 'CheckSkip') return effectUnknown(error.message);
          throw error;
        })
      : effectUnknown('the id names no offer, so no offer status can show what the request did');
  }
  run.judge(rule.id, (check) => {
    if (primary === 'expired' && offer) {
      const recipe = setup.recipes.get(offer.recipe)! as ExpiringRecipe;
      check.judge(expiredOfferNotAccepted, { ...declaredValidity(check, { recipe, offer: state.createdOf(offer), res, what: all }), status: res.status, exchange: res.exchangeId });
    }
    if (effect) {
      // Executed: a FAIL on the rule's sentence, whatever the status. Otherwise a listed 5xx or a 202 that did nothing is recorded:
      // 7 lists 500 for accept (the WARN on RFC 9110 15.6 is the hand-written checks'); a transient or gateway answer decides nothing.
      if (effect.kind === 'executed') return check.expectRefused(res, { operation: 'acceptOffer', what: all, effect });
      if (isTransientStatus(res.status) || res.status === 502 || res.status === 504) {
        return check.notObserved(`${all} was answered ${res.status}, which says "not now" or comes from a gateway: it decides nothing`, { exchange: res.exchangeId });
      }
      return check.review(`${all} was answered ${res.status}; ${effect.kind === 'none' ? effect.how : `what it did cannot be read: ${effect.why}`}: recorded, not judged`, {
        status: res.status,
        exchange: res.exchangeId,
      });
    }
    if (sole && (primary === 'no-bearer' || primary === 'forged-bearer')) return check.expectUnauthorized(res, all, { operation: 'acceptOffer' });
    check.expectRefused(res, { operation: 'acceptOffer', what: all, ...(mayBeNotFound(defects) ? { alsoAllowed: [404] } : {}) });
  });
  // Which 4xx refuses an expired offer: 410, a SHOULD (7 "410 (record gone)"), weighed only where expiry is the one reason.
  if (sole && primary === 'expired' && res.status >= 400 && res.status < 500 && !isTransientStatus(res.status)) {
    run.judge(RULES.expired410.id, (check) => check.expectStatus(res, 410, all));
  }
}

/** Before a second accept: the first, answered 202, followed to its end, and its trade read (as trading.second-accept-rejected does). */
async function beforeSecondAccept(state: CaseState, offer: ModelOffer): Promise<void> {
  const { run, setup } = state;
  if (offer.firstStatus === 202 && !offer.settled) {
    offer.settled = true;
    await settleIfPossible(state.scratch(), run.http, setup.section, run.target.tokens, state.createdOf(offer));
  }
  if (!offer.tradeId && showsTradeId(setup.section)) {
    offer.tradeId = await tradeIdInStatus(run.http, setup.section, run.target.tokens, state.createdOf(offer), 'offer status after the first accept');
  }
}

/** A second accept of an accepted offer by its owner: refused, or a replay that executes nothing (second-accept.ts). */
async function judgeSecondAccept(state: CaseState, offer: ModelOffer, res: HttpResponse, what: string): Promise<void> {
  const { run, setup } = state;
  const rule = RULES.singleExecution;
  if (!isSuccess(res.status) && !isServerError(res.status)) {
    run.judge(rule.id, (check) => check.expectRefused(res, { operation: 'acceptOffer', what }));
    return;
  }
  const created = state.createdOf(offer);
  if (res.status === 202 && showsTradeId(setup.section)) await settleIfPossible(state.scratch(), run.http, setup.section, run.target.tokens, created);
  const secondTrade = tradeIdIn(res) ?? (showsTradeId(setup.section) ? await tradeIdInStatus(run.http, setup.section, run.target.tokens, created, 'offer status after the second accept') : undefined);
  run.judge(rule.id, (check) => {
    check.judge(secondAcceptExecutesNothing, {
      offerId: offer.id,
      clock: clockOf(res),
      firstStatus: offer.firstStatus ?? 0,
      secondStatus: res.status,
      firstTradeId: offer.tradeId ?? null,
      secondTradeId: secondTrade ?? null,
    });
    if (isServerError(res.status)) {
      if (isTransientStatus(res.status) || res.status === 502 || res.status === 504) return check.notObserved(`${what} was answered ${res.status}: it decides nothing`, { exchange: res.exchangeId });
      check.review(`${what} was answered ${res.status}: recorded, not judged (7 lists 500 for accept)`, { status: res.status, exchange: res.exchangeId });
    }
  });
}

// ---- The model ---------------------------------------------------------------

export function recipeNames(section: TradingProfile): { names: RecipeNames; recipes: Map<string, ResolvedRecipe> } | undefined {
  const resolved = offerRecipes(section);
  if (!resolved) return undefined;
  const recipes = new Map<string, ResolvedRecipe>();
  for (const r of resolved.all) recipes.set(r.name, r);
  const lasting = resolved.all.filter((r) => r.expiresAfterSeconds === undefined);
  if (!lasting.length) recipes.set(resolved.standard.name, resolved.standard);
  // The standard recipe first (fast, else the first answering 200): what cases shrink to and weigh most.
  const lastingNames = lasting.length ? [...lasting].sort((a, b) => Number(b === resolved.standard) - Number(a === resolved.standard)).map((r) => r.name) : [resolved.standard.name];
  const canPoll = Boolean(section.offerStatus?.extract?.status && section.terminalStatuses?.length && section.pollDeadlineMs);
  return {
    recipes,
    names: {
      lasting: lastingNames,
      slow: resolved.answering202.map((r) => r.name),
      expiring: resolved.expiring.filter((r) => r.expiresAfterSeconds <= MAX_EXPIRY_SECONDS).map((r) => r.name),
      canPoll,
    },
  };
}

export const offersModel: AreaModel<OffersCase> = {
  area: 'trading',
  rules: Object.values(RULES),
  prepare(profile: ResolvedProfile): AreaExplorer<OffersCase> | Unexplorable {
    const section = profile.trading;
    if (!section?.createOffer) return { unexplorable: 'no operation to create a trade offer (not shown by the spec)', configKey: 'trading.createOffer' };
    if (!section.createOffer.extract?.offerId) return { unexplorable: 'trading.createOffer does not extract the offer id', configKey: 'trading.createOffer.extract.offerId' };
    if (!section.createUser && !section.userId) return { unexplorable: 'no user who can receive offers', configKey: 'trading.createUser (or trading.userId)' };
    const found = recipeNames(section)!;
    const sharedUsers = section.createUser
      ? undefined
      : { A: section.userId!, ...(section.otherUserId && section.otherUserId !== section.userId ? { B: section.otherUserId } : {}) };
    const setup: Setup = {
      section,
      recipes: found.recipes,
      timing: { marginMs: section.expiryMarginMs ?? 750, ...(section.validitySeconds !== undefined ? { validitySeconds: section.validitySeconds } : {}) },
      ...(sharedUsers ? { sharedUsers } : {}),
    };
    return { cases: caseArbitrary(found.names), describe: describeCase, kindOf: kindOfCase, run: (c, run) => runCase(setup, c, run) };
  },
};
