// What one verification delivery's body is worth against 6.1: "Body shape:
// an object with params." and "The params for a verification result hold"
// action, success, user_pid and timestamp, a row of the table each. Every
// FAIL rests on the sentence it contradicts: a body without params on the
// body-shape sentence (the requirement's quote); a param left out, or of
// another type, on the row that lists it (README "Verdicts", rule 5: the
// catalogue makes none of the four conditional); a param that is null, where
// its row's type has no null, is a warning on that row. Milliseconds
// contradict "integer, Unix time". How far the timestamp may lie from the
// event is not shown: the profile's dateSkewSeconds, or a warning beyond the
// generous default.
//
// The judgement reads an observation of the delivery (observeVerification:
// its body as parsed, when it was received, when its event was caused),
// plain JSON that the check's record keeps, so a later suite judges it again.
import { describeSchemaErrors, validateAgainst, type SchemaError } from '../../src/schemas/registry.ts';
import { parsedBody, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import type { CausedEvent } from './events.ts';
import { defineJudgment } from '../../src/check/judgments.ts';
import { sayWorst, type Judgement } from './judgements.ts';
import type { WebhookSettings } from './settings.ts';

const SCHEMA = 'user-update-webhook.schema.json#/$defs/verificationEvent';

/** The row of 6.1's table that lists each verification param (schemas/requirements.json). */
const PARAM_SENTENCES: Readonly<Record<string, string>> = {
  action: 'SPEC-6-1-PARAMS-ACTION',
  success: 'SPEC-6-1-PARAMS-SUCCESS',
  user_pid: 'SPEC-6-1-PARAMS-USER-PID',
  timestamp: 'SPEC-6-1-PARAMS-TIMESTAMP',
};

/** Unix time in seconds stays below this until the year 5138; milliseconds are far above it. */
const SECONDS_CEILING = 1e11;

/** A delivery of a caused verification event, and what it is to the check ("delivery #7, the first of …"): findings name it. */
export interface VerificationDelivery {
  delivery: ReceivedDelivery;
  at: string;
  caused: CausedEvent;
}

/** What the judgement reads of a verification delivery, as the check's record keeps it. */
export interface VerificationObservation {
  at: string;
  seq: number;
  /** The body as parsed; absent when it is no JSON. */
  body?: unknown;
  bodyBytes: number;
  /** When the receiver got it, and when its event was caused (epoch ms). */
  receivedAtEpochMs: number;
  causedAtEpochMs: number;
}

export function observeVerification({ delivery, at, caused }: VerificationDelivery): VerificationObservation {
  const body = parsedBody(delivery);
  return { at, seq: delivery.seq, ...(body !== undefined ? { body } : {}), bodyBytes: delivery.body.length, receivedAtEpochMs: delivery.receivedAt.getTime(), causedAtEpochMs: caused.atEpochMs };
}

/** What judging a delivery needs from its session: the identifiers the user may be named by, and the skew. */
export interface ParamsContext {
  eventUserIds: readonly string[];
  settings: Pick<WebhookSettings, 'dateSkewSeconds' | 'dateSkewDeclared'>;
}

/** The findings on one verification delivery's body; none when it matches 6.1. */
export function judgeVerificationBody(verification: VerificationObservation, context: ParamsContext): Judgement[] {
  const { at, seq, body } = verification;
  if (body === undefined) return [{ kind: 'fail', message: `${at} does not carry a JSON body`, details: { delivery: seq, bodyBytes: verification.bodyBytes } }];
  const errors = validateAgainst(SCHEMA, body);
  const shape = errors.filter((e) => paramOf(e) === undefined);
  if (shape.length) {
    const misplaced = eventAtTopLevel(body) ? ' (the event fields sit at the top level, not in params)' : '';
    return [{ kind: 'fail', message: `${at} does not match ${SCHEMA}: ${describeSchemaErrors(shape)}${misplaced}`, details: { delivery: seq, schema: SCHEMA, errors: shape.slice(0, 20) } }];
  }
  const params = (body as { params: Record<string, unknown> }).params;
  const judgements = errors.map((error) => judgeParamError(at, seq, params, error));
  // A param the schema found wrong is judged no further.
  const wrong = new Set(errors.map(paramOf));
  if (!wrong.has('timestamp')) judgements.push(...judgeTimestamp(verification, params.timestamp as number, context));
  if (!wrong.has('user_pid')) judgements.push(...judgeUserPid(at, params.user_pid as string, context));
  return judgements;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body whose event fields (action) sit at the top level, with no params object (src/webhooks/delivery.ts eventLayers: one layer). */
function eventAtTopLevel(body: unknown): boolean {
  return isObject(body) && !isObject(body.params) && 'action' in body;
}

/** The verification param a schema error is about; undefined: the body or params as a whole. */
function paramOf(error: SchemaError): string | undefined {
  if (error.instancePath === '/params' && error.keyword === 'required') return String(error.params.missingProperty);
  return /^\/params\/([^/]+)/.exec(error.instancePath)?.[1];
}

function judgeParamError(at: string, seq: number, params: Record<string, unknown>, error: SchemaError): Judgement {
  const param = paramOf(error)!;
  const on = PARAM_SENTENCES[param];
  const details = { delivery: seq, param, params };
  if (error.kind === 'absent') return { kind: 'fail', on, message: `${at}: params leave out ${param}, which 6.1 lists for a verification result`, details };
  if (error.kind === 'null') return { kind: 'warn', on, message: `${at}: params.${param} is null, which its type in 6.1 does not allow`, details };
  return { kind: 'fail', on, message: `${at}: params.${param} ${JSON.stringify(params[param])} ${error.message}`, details: { ...details, error } };
}

/**
 * params.timestamp is "integer, Unix time" (6.1): milliseconds contradict
 * that. Its distance from the moment the event was caused is a skew question
 * the spec does not show.
 */
function judgeTimestamp({ at, seq, causedAtEpochMs, receivedAtEpochMs }: VerificationObservation, timestamp: number, { settings }: ParamsContext): Judgement[] {
  if (timestamp > SECONDS_CEILING) {
    return [{ kind: 'fail', on: PARAM_SENTENCES.timestamp, message: `${at}: params.timestamp ${timestamp} is not Unix time (seconds): it looks like milliseconds`, details: { delivery: seq, actual: timestamp } }];
  }
  const skew = settings.dateSkewSeconds;
  const from = Math.floor(causedAtEpochMs / 1000);
  const to = Math.ceil(receivedAtEpochMs / 1000);
  if (timestamp >= from - skew && timestamp <= to + skew) return [];
  const distance = timestamp < from ? from - timestamp : timestamp - to;
  const message = `${at}: params.timestamp ${timestamp} lies ${distance} s ${timestamp < from ? 'before' : 'after'} the event was caused and delivered (${from} to ${to})`;
  const details = { delivery: seq, actual: timestamp, causedAt: from, receivedAt: to, skewSeconds: skew };
  if (settings.dateSkewDeclared) return [{ kind: 'fail-declared', key: 'webhooks.dateSkewSeconds', value: skew, message: `${message}; the profile allows ${skew} s`, details }];
  return [{ kind: 'warn', message: `${message}, more than the ${skew} s the suite tolerates when webhooks.dateSkewSeconds is not set (the spec shows no skew)`, details }];
}

/** Any identifier the user is known by: its id, or the pid the profile declares (webhooks.userPid). */
function judgeUserPid(at: string, userPid: string, { eventUserIds }: ParamsContext): Judgement[] {
  if (eventUserIds.some((id) => id.toLowerCase() === userPid.toLowerCase())) return [];
  return [{ kind: 'warn', on: PARAM_SENTENCES.user_pid, message: `${at}: params.user_pid ${userPid} is not the user the event was caused for (${eventUserIds.join(' or ')})` }];
}

/** Every verification delivery of the check, with what judging them reads, and how many were redeliveries (for the passing note). */
export interface VerificationBodiesInput extends ParamsContext {
  deliveries: VerificationObservation[];
  redeliveries: number;
}

/** 6.1 on every verification delivery the check judged: the worst finding decides (judgements.ts sayWorst). */
export const verificationBodies = defineJudgment<VerificationBodiesInput>('webhooks.verification-bodies', (input, says) => {
  const judgements = input.deliveries.flatMap((verification) => judgeVerificationBody(verification, input));
  sayWorst(says, judgements, `all ${input.deliveries.length} verification deliveries (success true and false; ${input.redeliveries} of them redeliveries) carry params with action, success, user_pid and a Unix-time timestamp`);
});
