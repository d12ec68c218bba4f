// The model of the user-update webhook (spec 5 rule 5, 6, 6.1, 6.2, 3.2),
// explored as short cases: one to three distinct events the profile can
// cause (verification succeeded or failed, blacklisting, inactivation, and
// each risk-evaluation status when webhooks.riskEvaluationAction names the
// action: suites/webhooks/events.ts eventsToCause), caused back to back in
// one webhook session, and the receiver's answer plan per attempt of each
// event (the hub's script: step n answers the nth attempt, the last
// repeats): an acknowledgement of 6.1 (200, 201, 202, 204, no body), a
// non-acknowledgement (500, 503), or — only where the profile declares
// webhooks.slowResponseMs — an answer held past the sender's timeout.
// Shrinking walks to one successful verification acknowledged with 200.
//
// The session is the hand-written checks' (suites/webhooks/support.ts
// WebhookSession, in a hub of the target's own: webhooks-hub.ts): the same
// receiving address set-up, the same way of telling the caused event's
// delivery from anything else. Each event is then followed attempt by
// attempt: after each answer the session watches the observation window
// for the next attempt (webhooks-attempts.ts says which event a delivery is
// an attempt of), until the event is acknowledged and stays away, or came
// twice after acknowledgements, or was not retried.
//
// Judged, each by the suite's named judgment where it has one:
//   - every attempt of every caused event: POST with application/json (5, 6.1);
//   - each event's first attempt: the headers of 6.1, the Content-Digest
//     (RFC 9530), the Date (RFC 9110, the declared skew), the signature (the
//     declared scheme and key); what the suite only warns on about the Date
//     and the signature (a base64url signature, a skew beyond the undeclared
//     default) is recorded;
//   - every other delivery of the session — redeliveries, other notifications
//     (6.2) — the same way (5 rule 5, WEBHOOK-EVERY-DELIVERY);
//   - every attempt of a verification event: params with action, success,
//     user_pid and a Unix-time timestamp (6.1);
//   - each event's action, success and risk status (6.1, 3.2: a WARN as in the
//     suite; what the spec does not show, recorded);
//   - every attempt of an event under its first attempt's key, and distinct
//     events under distinct keys (5 rule 5);
//   - an event acknowledged twice in a row and still delivered again (6.1);
//   - after a non-acknowledgement, a redelivery where the profile declares
//     webhooks.retryDelaysMs (the declaration's FAIL); without it, recorded.
// Not judged: an event that did not arrive within the delivery wait (the
// rules that needed it were not observed in that case: timing decides no
// rule), one redelivery after an acknowledgement (6.2), how soon anything
// came, and the receiving address (the model never changes it:
// webhook-address-change-ignored is the hand-written check's).
import fc from 'fast-check';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { CheckContext, CheckSkip } from '../../src/check/context.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { CheckFixtures } from '../../runner/index.ts';
import { carriesEvent, eventLayers, fieldValue, idempotencyKey, type DeliveryAnswer, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { deliveryExchange } from '../../src/webhooks/evidence.ts';
import type { SignatureStrategy } from '../../src/webhooks/signature/index.ts';
import { answeredAtMs, describeEvent, eventsToCause, loadSignatureStrategy, offset, webhookSettings, WebhookSession, type CausedEvent, type UserUpdateEvent, type WebhookSettings } from '../../suites/webhooks/support.ts';
import { observeDelivery } from '../../suites/webhooks/judgements.ts';
import { contentDigestMatches, dateWithinSkew, everyDeliveryVerifiable, headerDeclarations, headersPresent, postJson, signatureVerifies } from '../../suites/webhooks/delivery-judgments.ts';
import { observeVerification, verificationBodies } from '../../suites/webhooks/verification-params.ts';
import { eventActions, redeliveryKeepsKey, type EventDelivered } from '../../suites/webhooks/event-judgments.ts';
import { redeliveryRecorded } from '../../suites/webhooks/redelivery-judgments.ts';
import { carriesKeyOf, secondWindowMs } from '../../suites/webhooks/redelivery.ts';
import { defineExploreRule } from '../rule.ts';
import type { AreaExplorer, AreaModel, Unexplorable } from '../model.ts';
import type { CaseRun } from '../case-run.ts';
import type { ExploreTarget } from '../target.ts';
import { hubOf } from './webhooks-hub.ts';
import { ACKNOWLEDGEMENTS, attemptsByEvent, eventOf, isAcknowledgement, REFUSALS, scriptOf, type Answer } from './webhooks-attempts.ts';
import { acknowledgementEndsEvent, distinctEventKeys, retryWithoutSchedule, withWarningsRecorded, type AcknowledgementSeen } from './webhooks-judgments.ts';

// The suite's judgments whose warnings concern what the spec leaves open: recorded here (webhooks-judgments.ts).
const dateJudged = withWarningsRecorded(dateWithinSkew, 'explore.webhooks.date');
const signatureJudged = withWarningsRecorded(signatureVerifies, 'explore.webhooks.signature');
const everyDeliveryJudged = withWarningsRecorded(everyDeliveryVerifiable, 'explore.webhooks.every-delivery');

export const RULES = {
  postJson: defineExploreRule({
    id: 'explore.webhooks.post-json',
    title: 'Every attempt of a generated user-update event is a POST with Content-Type application/json',
    requirements: ['WEBHOOK-POST-JSON'],
  }),
  headersPresent: defineExploreRule({
    id: 'explore.webhooks.headers-present',
    title: 'The first delivery of each generated event carries X-BTS-Idempotency-Key, Signature, Content-Digest and Date',
    requirements: ['WEBHOOK-HEADERS-PRESENT'],
  }),
  contentDigest: defineExploreRule({
    id: 'explore.webhooks.content-digest',
    title: "The first delivery of each generated event carries a Content-Digest of its body (RFC 9530, the declared algorithms)",
    requirements: ['WEBHOOK-CONTENT-DIGEST'],
  }),
  date: defineExploreRule({
    id: 'explore.webhooks.date',
    title: 'The first delivery of each generated event carries an HTTP Date within the declared skew',
    requirements: ['WEBHOOK-DATE'],
  }),
  signature: defineExploreRule({
    id: 'explore.webhooks.signature',
    title: 'The first delivery of each generated event is signed under the declared scheme and key',
    requirements: ['WEBHOOK-SIGNATURE'],
  }),
  everyDelivery: defineExploreRule({
    id: 'explore.webhooks.every-delivery-verifiable',
    title: 'Every other delivery of a generated case (redeliveries, other notifications) is signed and digested like a first one',
    requirements: ['WEBHOOK-EVERY-DELIVERY'],
  }),
  verificationParams: defineExploreRule({
    id: 'explore.webhooks.verification-params',
    title: 'Every attempt of a generated verification event, successful or failed, carries params with action, success, user_pid and a Unix-time timestamp',
    requirements: ['WEBHOOK-BODY-SCHEMA'],
  }),
  eventActions: defineExploreRule({
    id: 'explore.webhooks.event-actions',
    title: 'Each generated event arrives with the action, success or risk status it was caused with',
    requirements: ['WEBHOOK-ACTIONS'],
  }),
  keyStable: defineExploreRule({
    id: 'explore.webhooks.key-stable',
    title: 'Every attempt of a generated event carries the idempotency key of its first attempt',
    requirements: ['WEBHOOK-IDEMPOTENCY-STABLE'],
  }),
  keysDistinct: defineExploreRule({
    id: 'explore.webhooks.keys-distinct',
    title: 'Distinct generated events of one case carry distinct idempotency keys',
    requirements: ['WEBHOOK-IDEMPOTENCY-DISTINCT'],
  }),
  ackEndsEvent: defineExploreRule({
    id: 'explore.webhooks.ack-ends-event',
    title: 'A generated event acknowledged (200, 201, 202, 204) twice in a row is not delivered again',
    requirements: ['WEBHOOK-ACK-CODES'],
  }),
  retry: defineExploreRule({
    id: 'explore.webhooks.retry-after-non-ack',
    title: 'A generated event not acknowledged (500, 503, a timeout) is redelivered where the profile declares a retry schedule; else recorded',
    requirements: ['WEBHOOK-RETRY-POLICY'],
  }),
};

// ---- Cases -----------------------------------------------------------------

export interface WebhooksCase {
  /** Distinct events, caused back to back. */
  events: UserUpdateEvent[];
  /** The receiver's answer to the nth attempt of each event; the last repeats. */
  answers: Answer[];
}

/** What the profile lets a case do. */
export interface CaseChoices {
  /** The events the profile can cause, the successful verification first (what shrinking walks back to). */
  events: UserUpdateEvent[];
  /** The profile declares an answer delay past the sender's timeout (webhooks.slowResponseMs). */
  canTimeOut: boolean;
}

export function caseArbitrary(choices: CaseChoices): fc.Arbitrary<WebhooksCase> {
  // Acknowledgements first, 200 first of them: a plan shrinks to one 200.
  const answer: fc.Arbitrary<Answer> = fc.oneof(
    { withCrossShrink: true },
    { weight: 5, arbitrary: fc.constantFrom(...ACKNOWLEDGEMENTS) },
    { weight: 3, arbitrary: fc.constantFrom(...REFUSALS) },
    ...(choices.canTimeOut ? [{ weight: 1, arbitrary: fc.constant<Answer>('timeout') }] : []),
  );
  // Three optional places, not an array: fast-check shrinks an array only to a suffix of itself, so an event in the middle
  // could not go; an option shrinks to nothing wherever it is. Indices shrink
  // towards 0, the successful verification; a repeated event is dropped, so no two deliveries of one case are one event twice.
  // The verifications (the first two) weigh most: theirs is the one body 6.1 shows, which most rules read.
  const verifications = Math.min(2, choices.events.length);
  const index = fc.oneof(
    { withCrossShrink: true },
    { weight: 3, arbitrary: fc.nat({ max: verifications - 1 }) },
    ...(choices.events.length > verifications ? [{ weight: 2, arbitrary: fc.integer({ min: verifications, max: choices.events.length - 1 }) }] : []),
  );
  const event = fc.option(index, { nil: undefined, freq: 2 });
  const events = fc
    .tuple(event, event, event)
    .filter((picked) => picked.some((i) => i !== undefined))
    .map((picked) => [...new Set(picked.filter((i): i is number => i !== undefined))].map((i) => choices.events[i]!));
  // Most plans answer every attempt alike (as each hand-written acknowledgement and retry check does): a sender that ignores one
  // code is seen at once. The others change the answer after the first attempt or two.
  const answers = fc.oneof(
    { withCrossShrink: true },
    { weight: 2, arbitrary: answer.map((a) => [a]) },
    { weight: 1, arbitrary: fc.tuple(answer, answer, fc.option(answer, { nil: undefined, freq: 2 })).map((plan) => plan.filter((a): a is Answer => a !== undefined)) },
  );
  return fc.record({ events, answers });
}

const describeAnswer = (a: Answer): string => (a === 'timeout' ? 'no answer before the timeout' : String(a));

export function describeCase(c: WebhooksCase): string {
  const plan = c.answers.length === 1 ? `every attempt answered ${describeAnswer(c.answers[0]!)}` : `attempts answered ${c.answers.map(describeAnswer).join(', then ')} (the last repeats)`;
  return `cause ${c.events.map(describeEvent).join(', ')}; ${plan}`;
}

/** The kind: the events' actions and whether the plan acknowledges, refuses or times out at each step. */
export function kindOfCase(c: WebhooksCase): string {
  const step = (a: Answer) => (a === 'timeout' ? 'timeout' : isAcknowledgement(a) ? 'ack' : 'refuse');
  return `${c.events.map((e) => e.action).join(', ')}; ${c.answers.map(step).join(', ')}`;
}

// ---- Running a case ----------------------------------------------------------

interface Setup {
  settings: WebhookSettings;
  /** Cases run so far: each starts with the next of the profile's users (see usersFor). */
  cases: number;
  /** The signature strategy, keys loaded once per target. */
  strategies: WeakMap<ExploreTarget, Promise<SignatureStrategy | undefined>>;
}

/**
 * The profile's users, the nth case's turn first. A sender that does not take
 * an acknowledgement as one (a fault the model looks for) goes on delivering
 * after the case has stopped watching; the router counts such attempts as
 * acknowledged and gives them to whichever session next holds that user,
 * where one naming the same event in the same second cannot be told from the
 * new case's event. Taking each user in turn keeps the cases apart for as
 * many cases as the profile has users (the reference's profile: 17); with one
 * user, a late attempt may reach the next case.
 */
export function usersFor(users: readonly string[][], nth: number): string[][] {
  const from = nth % users.length;
  return [...users.slice(from), ...users.slice(0, from)];
}

/** How long past a delivery (and the answer's hold) its answer's fate may take to reach the case. */
const ANSWER_GRACE_MS = 5_000;
/** The most attempts of one event a case follows: enough for a retry, an acknowledgement and two more. */
const MAX_FOLLOWED = 4;

function fixturesOf(run: CaseRun, check: CheckContext): CheckFixtures {
  const { profile, connection, transport, redactor, tokens } = run.target;
  return { targetName: 'target', profile, connection, transport, redactor, tokens, check, http: run.http };
}

/** One step of following an event: the attempt, the answer it got, and the next attempt within the window after it. */
interface Followed {
  attempt: ReceivedDelivery;
  answer?: DeliveryAnswer;
  windowMs: number;
  next?: ReceivedDelivery;
  /** The next attempt came only in a second window (a declared schedule's margin). */
  late?: boolean;
}

async function runCase(setup: Setup, c: WebhooksCase, run: CaseRun): Promise<void> {
  const { settings } = setup;
  // The session's events reach every rule's timeline; its set-up claims are no rule's (the rules judge in their own contexts).
  const check = run.helperContext();
  const fixtures = fixturesOf(run, check);
  const hub = await hubOf(run.target);
  const remote = await hub.openSession({
    receiverKey: 'target',
    receiver: settings.receiver,
    users: usersFor(settings.users, setup.cases++),
    script: scriptOf(c.answers, settings.slowResponseMs),
    // A retry of an event the case leaves unacknowledged is expected within the window: its user is not the next case's meanwhile.
    holdMs: settings.observationWindowMs,
  });
  const session = new WebhookSession(fixtures, settings, remote, { judgesBodyShape: true });
  try {
    if (settings.register) {
      const current = await remote.lockAddress();
      let leftSetUp: string | undefined;
      try {
        leftSetUp = await session.setUpUsualAddress(current);
      } finally {
        await remote.unlockAddress(leftSetUp);
      }
    }
    let strategy = setup.strategies.get(run.target);
    if (!strategy) setup.strategies.set(run.target, (strategy = loadSignatureStrategy(fixtures, settings)));
    await judgeSession(run, session, c, await strategy);
  } finally {
    await remote.end();
    for (const delivery of remote.deliveries) run.record(deliveryExchange(delivery, run.target.redactor));
    // What the case did not see because the receiver refused it is said, not left to look like a late delivery.
    if (remote.dropped) for (const rule of Object.values(RULES)) run.note(rule.id, `the receiver refused ${remote.dropped} deliveries unrecorded during this case, as a flood`);
  }
}

async function judgeSession(run: CaseRun, session: WebhookSession, c: WebhooksCase, strategy: SignatureStrategy | undefined): Promise<void> {
  const { settings } = session;
  const causes: CausedEvent[] = [];
  for (const event of c.events) {
    const { result, caused } = await session.cause(event);
    if (result.ok) causes.push(caused);
    else for (const rule of Object.values(RULES)) run.note(rule.id, `${describeEvent(event)} could not be caused: webhooks.trigger answered ${result.response.status}`);
  }
  // Caused back to back and collected side by side: one delivery wait for all.
  const firsts = await Promise.all(causes.map((caused) => session.findDeliveryOf(caused)));
  const missing = causes.filter((_, i) => !firsts[i]).map((caused) => describeEvent(caused.event));
  if (missing.length) {
    const why = `no delivery of ${missing.join(', ')} reached the receiver within ${settings.deliveryTimeoutMs} ms (how soon a delivery comes decides no explored rule)`;
    if (missing.length === causes.length) return notObserved(run, why);
    for (const rule of Object.values(RULES)) run.note(rule.id, why);
  }
  const delivered = causes.flatMap((caused, i) => (firsts[i] ? [{ caused, first: firsts[i]! }] : []));
  const followed = await Promise.all(delivered.map(({ first }) => follow(session, first, firsts)));
  const { attempts, others } = attemptsByEvent(session.deliveries, firsts);

  const declared = headerDeclarations(settings);
  for (const [i, caused] of causes.entries()) {
    const first = firsts[i];
    if (!first) continue;
    const what = describeEvent(caused.event);
    for (const attempt of attempts[i]!) {
      const contentType = fieldValue(attempt, 'content-type');
      run.judge(RULES.postJson.id, (check) => check.judge(postJson, { seq: attempt.seq, method: attempt.method, ...(contentType !== undefined ? { contentType } : {}) }));
    }
    const observed = await observeDelivery(first, strategy);
    run.note(RULES.headersPresent.id, `delivery #${first.seq} is the first of the ${what} event`);
    run.judge(RULES.headersPresent.id, (check) => check.judge(headersPresent, { delivery: observed }));
    run.judge(RULES.contentDigest.id, (check) => check.judge(contentDigestMatches, { delivery: observed, declared }));
    run.judge(RULES.date.id, (check) => check.judge(dateJudged, { delivery: observed, declared }));
    run.judge(RULES.signature.id, (check) => check.judge(signatureJudged, { delivery: observed, declared }));
  }

  // Redeliveries and other notifications: signed and digested like a first delivery (5 rule 5).
  const rest = [...attempts.flatMap((a) => a.slice(1)), ...others].sort((a, b) => a.seq - b.seq);
  if (rest.length) {
    const roles = new Map<ReceivedDelivery, string>();
    for (const [i, a] of attempts.entries()) for (const d of a.slice(1)) roles.set(d, `redelivery of the ${describeEvent(causes[i]!.event)} event (first #${a[0]!.seq})`);
    const judged = await Promise.all(rest.map(async (d) => ({ delivery: await observeDelivery(d, strategy), role: roles.get(d) ?? 'another notification' })));
    run.judge(RULES.everyDelivery.id, (check) => check.judge(everyDeliveryJudged, { deliveries: judged, declared }));
  }

  judgeVerificationParams(run, session, causes, attempts);
  judgeActions(run, session, causes, firsts);
  judgeKeys(run, causes, attempts);
  for (const [n, { caused, first }] of delivered.entries()) {
    judgeAcknowledgements(run, session, caused, first, followed[n]!);
    judgeRetry(run, session, caused, followed[n]!);
  }
}

/** No caused event arrived: what each rule would have judged was not observed in this case. */
function notObserved(run: CaseRun, why: string): void {
  for (const rule of [RULES.postJson, RULES.headersPresent, RULES.contentDigest, RULES.date, RULES.signature, RULES.eventActions]) run.judge(rule.id, (check) => check.notObserved(why));
}

/**
 * Follows one event attempt by attempt: waits for each attempt's answer,
 * then for the next attempt within the observation window after it (after a
 * non-acknowledgement, where the profile declares a schedule, a second
 * window before concluding none came, as the retry checks do; after a second
 * acknowledgement, the second window the acknowledgement checks watch).
 * Stops when nothing more came, or two acknowledgements were each followed by
 * another attempt.
 */
async function follow(session: WebhookSession, first: ReceivedDelivery, firsts: readonly (ReceivedDelivery | undefined)[]): Promise<Followed[]> {
  const { settings } = session;
  const steps: Followed[] = [];
  const index = firsts.indexOf(first);
  let attempt = first;
  let acknowledged = 0;
  for (let n = 0; n < MAX_FOLLOWED; n++) {
    const answer = await session.answerOf(attempt, (settings.slowResponseMs ?? 0) + ANSWER_GRACE_MS);
    if (!answer) {
      steps.push({ attempt, windowMs: 0 });
      break;
    }
    const acked = answer.written && isAcknowledgement(answer.status);
    if (acked) acknowledged++;
    const from = answeredAtMs(attempt);
    const windowMs = acked && acknowledged > 1 ? secondWindowMs({ retryDelaysMs: settings.retryDelaysMs, observationWindowMs: settings.observationWindowMs }) : settings.observationWindowMs;
    const current = attempt;
    const isNext = (d: ReceivedDelivery) => d !== current && d.receivedAtMs > from && eventOf(d, firsts) === index && d.seq > first.seq;
    let next = await session.waitFor(isNext, Math.max(0, from + windowMs - performance.now()));
    let late = false;
    if (!next && !acked && settings.retryDelaysMs) {
      next = await session.waitFor(isNext, Math.max(0, from + 2 * windowMs - performance.now()));
      late = next !== undefined;
    }
    steps.push({ attempt, answer, windowMs, ...(next ? { next } : {}), ...(late ? { late } : {}) });
    if (!next || (acked && acknowledged >= 2)) break;
    attempt = next;
  }
  return steps;
}

function judgeVerificationParams(run: CaseRun, session: WebhookSession, causes: readonly CausedEvent[], attempts: readonly ReceivedDelivery[][]): void {
  const judged = causes.flatMap((caused, i) =>
    caused.event.action !== 'verification'
      ? []
      : attempts[i]!.map((delivery, n) => ({
          delivery,
          caused,
          at: n === 0 ? `delivery #${delivery.seq}, the first of the ${describeEvent(caused.event)} event` : `delivery #${delivery.seq}, redelivery ${n} of the ${describeEvent(caused.event)} event (first #${attempts[i]![0]!.seq})`,
        })),
  );
  if (!judged.length) return;
  const { dateSkewSeconds, dateSkewDeclared } = session.settings;
  const redeliveries = judged.filter((v) => v.delivery !== attempts[causes.indexOf(v.caused)]![0]).length;
  run.judge(RULES.verificationParams.id, (check) =>
    check.judge(verificationBodies, { deliveries: judged.map(observeVerification), redeliveries, eventUserIds: [...session.eventUserIds], settings: { dateSkewSeconds, dateSkewDeclared } }),
  );
}

/** The action, success and status each event arrived with (3.2, 6.1), read where the event can be read at all: a body whose event cannot be read is the body rule's. */
function judgeActions(run: CaseRun, session: WebhookSession, causes: readonly CausedEvent[], firsts: readonly (ReceivedDelivery | undefined)[]): void {
  const delivered: EventDelivered[] = [];
  const observed: string[] = [];
  for (const [i, caused] of causes.entries()) {
    const delivery = firsts[i];
    if (!delivery || !carriesEvent(delivery, { action: caused.event.action }, session.eventUserIds)) continue;
    const members = eventLayers(delivery)[0] ?? {};
    delivered.push({ event: caused.event, seq: delivery.seq, members });
    observed.push(`${describeEvent(caused.event)}: delivery #${delivery.seq} ${JSON.stringify(members)}`);
  }
  if (!delivered.length) return;
  run.judge(RULES.eventActions.id, (check) =>
    check.judge(eventActions, { delivered, allArrived: delivered.length === causes.length, riskEvaluationCaused: Boolean(session.settings.riskEvaluationAction), observed }),
  );
}

/** Every attempt under the first's key; distinct events under distinct keys. A delivery without a key is the headers rule's finding, not these. */
function judgeKeys(run: CaseRun, causes: readonly CausedEvent[], attempts: readonly ReceivedDelivery[][]): void {
  const keyed = (d: ReceivedDelivery, first: ReceivedDelivery) => ({ seq: d.seq, at: offset(d, first), key: idempotencyKey(d) ?? null });
  for (const all of attempts) {
    const [first, ...again] = all;
    if (!first || idempotencyKey(first) === undefined) continue;
    for (const d of again) run.judge(RULES.keyStable.id, (check) => check.judge(redeliveryKeepsKey, { first: keyed(first, first), again: keyed(d, first), observationWindowMs: 0 }));
  }
  const events = causes.flatMap((caused, i) => {
    const first = attempts[i]![0];
    const key = first && idempotencyKey(first);
    return key ? [{ event: describeEvent(caused.event), seq: first.seq, key }] : [];
  });
  if (events.length >= 2 && events.length === attempts.filter((a) => a.length).length) run.judge(RULES.keysDistinct.id, (check) => check.judge(distinctEventKeys, { events }));
}

/** The acknowledgements of the event's attempts and what came after each under its key (6.1). */
function judgeAcknowledgements(run: CaseRun, session: WebhookSession, caused: CausedEvent, first: ReceivedDelivery, steps: readonly Followed[]): void {
  const key = idempotencyKey(first);
  // Only the key tells a redelivery from another event (suites/webhooks/redelivery.ts); a missing key is the headers rule's finding.
  if (key === undefined) return;
  const acknowledgements: AcknowledgementSeen[] = [];
  for (const step of steps) {
    const answer = step.answer;
    if (!answer || !isAcknowledgement(answer.status)) continue;
    // An answer held past the sender's timeout on purpose, which the sender gave up on, confirmed nothing: the retry rule's.
    if (answer.delayMs && !answer.written) continue;
    const again = step.next && carriesKeyOf(step.next, first) ? step.next : undefined;
    acknowledgements.push({
      seq: step.attempt.seq,
      code: answer.status,
      written: answer.written,
      ...(answer.hungUpAfterMs !== undefined ? { hungUpAfterMs: answer.hungUpAfterMs } : {}),
      windowMs: step.windowMs,
      ...(again ? { again: { seq: again.seq, at: offset(again, first) } } : {}),
    });
    // What came after an acknowledgement under another key is another event: the acknowledgement ended this one.
    if (!again) break;
  }
  if (!acknowledgements.length) return;
  const sameContentOtherKey = session.deliveries.filter((d) => d !== first && d.body.equals(first.body) && idempotencyKey(d) !== key).map((d) => d.seq);
  run.judge(RULES.ackEndsEvent.id, (check) => check.judge(acknowledgementEndsEvent, { event: describeEvent(caused.event), key, acknowledgements, sameContentOtherKey }));
}

/** After the event's first attempt that was not acknowledged (a refusal, or a timeout the sender gave up on): a redelivery, judged against the declared schedule (6.2). */
function judgeRetry(run: CaseRun, session: WebhookSession, caused: CausedEvent, steps: readonly Followed[]): void {
  const step = steps.find((s) => s.answer && !(s.answer.written && isAcknowledgement(s.answer.status)));
  if (!step) return;
  const { attempt, answer, next } = step;
  const provocation = answer!.written ? `answering ${answer!.status} to delivery #${attempt.seq}` : `holding the answer to delivery #${attempt.seq} (the sender hung up after ${answer!.hungUpAfterMs ?? '?'} ms)`;
  const { retryDelaysMs, observationWindowMs } = session.settings;
  const again = next ? { seq: next.seq, at: offset(next, attempt), sameKey: idempotencyKey(next) === idempotencyKey(attempt) } : undefined;
  const event = describeEvent(caused.event);
  if (!retryDelaysMs) {
    run.judge(RULES.retry.id, (check) => check.judge(retryWithoutSchedule, { event, provocation, observationWindowMs, ...(again ? { again } : {}) }));
    return;
  }
  const timeline = [attempt, ...(next ? [next] : [])].map((d) => ({ delivery: d.seq, at: offset(d, attempt), key: idempotencyKey(d) ?? null, answered: d.answer?.status ?? null }));
  run.judge(RULES.retry.id, (check) =>
    check.judge(redeliveryRecorded, {
      provocation: `${provocation} (${event})`,
      observationWindowMs,
      // Without a redelivery both windows were watched; with one, it came in the second only when marked late.
      late: !next || Boolean(step.late),
      retryDelaysMs,
      timeline,
      ...(again ? { again } : {}),
    }),
  );
}

// ---- The model ---------------------------------------------------------------

/** The webhook settings, or why the profile cannot explore webhooks (the key the hand-written checks would SKIP on). */
function settingsOf(profile: ResolvedProfile): WebhookSettings | Unexplorable {
  try {
    return webhookSettings(profile, new CheckContext(new Redactor(), { profile }));
  } catch (error) {
    // The skip's reason without its "(set KEY in the profile to run it)": the stage names the key itself.
    if (error instanceof CheckSkip) return { unexplorable: error.message.replace(/ \(set \S+ in the profile to run it\)$/, ''), ...(error.configKey ? { configKey: error.configKey } : {}) };
    throw error;
  }
}

export const webhooksModel: AreaModel<WebhooksCase> = {
  area: 'webhooks',
  rules: Object.values(RULES),
  prepare(profile: ResolvedProfile): AreaExplorer<WebhooksCase> | Unexplorable {
    const settings = settingsOf(profile);
    if ('unexplorable' in settings) return settings;
    const setup: Setup = { settings, cases: 0, strategies: new WeakMap() };
    const choices: CaseChoices = { events: eventsToCause(settings.riskEvaluationAction), canTimeOut: Boolean(settings.slowResponseMs) };
    return { cases: caseArbitrary(choices), describe: describeCase, kindOf: kindOfCase, run: (c, run) => runCase(setup, c, run) };
  },
};
