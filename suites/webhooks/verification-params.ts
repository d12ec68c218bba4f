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
import { describeSchemaErrors, validateAgainst, type SchemaError } from '../../src/schemas/registry.ts';
import { eventLayers, parsedBody, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import type { CausedEvent } from './events.ts';
import type { Judgement } from './judgements.ts';
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

/** What judging a delivery needs from its session: the identifiers the user may be named by, and the skew. */
export interface ParamsContext {
  eventUserIds: readonly string[];
  settings: Pick<WebhookSettings, 'dateSkewSeconds' | 'dateSkewDeclared'>;
}

/** The findings on one verification delivery's body; none when it matches 6.1. */
export function judgeVerificationBody(verification: VerificationDelivery, context: ParamsContext): Judgement[] {
  const { delivery, at } = verification;
  const body = parsedBody(delivery);
  if (body === undefined) return [{ kind: 'fail', message: `${at} does not carry a JSON body`, details: { delivery: delivery.seq, bodyBytes: delivery.body.length } }];
  const errors = validateAgainst(SCHEMA, body);
  const shape = errors.filter((e) => paramOf(e) === undefined);
  if (shape.length) {
    const misplaced = eventLayers(delivery).length === 1 && 'action' in (body as object) ? ' (the event fields sit at the top level, not in params)' : '';
    return [{ kind: 'fail', message: `${at} does not match ${SCHEMA}: ${describeSchemaErrors(shape)}${misplaced}`, details: { delivery: delivery.seq, schema: SCHEMA, errors: shape.slice(0, 20) } }];
  }
  const params = (body as { params: Record<string, unknown> }).params;
  const judgements = errors.map((error) => judgeParamError(at, delivery, params, error));
  // A param the schema found wrong is judged no further.
  const wrong = new Set(errors.map(paramOf));
  if (!wrong.has('timestamp')) judgements.push(...judgeTimestamp(verification, params.timestamp as number, context));
  if (!wrong.has('user_pid')) judgements.push(...judgeUserPid(at, params.user_pid as string, context));
  return judgements;
}

/** The verification param a schema error is about; undefined: the body or params as a whole. */
function paramOf(error: SchemaError): string | undefined {
  if (error.instancePath === '/params' && error.keyword === 'required') return String(error.params.missingProperty);
  return /^\/params\/([^/]+)/.exec(error.instancePath)?.[1];
}

function judgeParamError(at: string, delivery: ReceivedDelivery, params: Record<string, unknown>, error: SchemaError): Judgement {
  const param = paramOf(error)!;
  const on = PARAM_SENTENCES[param];
  const details = { delivery: delivery.seq, param, params };
  if (error.kind === 'absent') return { kind: 'fail', on, message: `${at}: params leave out ${param}, which 6.1 lists for a verification result`, details };
  if (error.kind === 'null') return { kind: 'warn', on, message: `${at}: params.${param} is null, which its type in 6.1 does not allow`, details };
  return { kind: 'fail', on, message: `${at}: params.${param} ${JSON.stringify(params[param])} ${error.message}`, details: { ...details, error } };
}

/**
 * params.timestamp is "integer, Unix time" (6.1): milliseconds contradict
 * that. Its distance from the moment the event was caused is a skew question
 * the spec does not show.
 */
function judgeTimestamp({ at, delivery, caused }: VerificationDelivery, timestamp: number, { settings }: ParamsContext): Judgement[] {
  if (timestamp > SECONDS_CEILING) {
    return [{ kind: 'fail', on: PARAM_SENTENCES.timestamp, message: `${at}: params.timestamp ${timestamp} is not Unix time (seconds): it looks like milliseconds`, details: { delivery: delivery.seq, actual: timestamp } }];
  }
  const skew = settings.dateSkewSeconds;
  const from = Math.floor(caused.atEpochMs / 1000);
  const to = Math.ceil(delivery.receivedAt.getTime() / 1000);
  if (timestamp >= from - skew && timestamp <= to + skew) return [];
  const distance = timestamp < from ? from - timestamp : timestamp - to;
  const message = `${at}: params.timestamp ${timestamp} lies ${distance} s ${timestamp < from ? 'before' : 'after'} the event was caused and delivered (${from} to ${to})`;
  const details = { delivery: delivery.seq, actual: timestamp, causedAt: from, receivedAt: to, skewSeconds: skew };
  if (settings.dateSkewDeclared) return [{ kind: 'fail-declared', key: 'webhooks.dateSkewSeconds', message: `${message}; the profile allows ${skew} s`, details }];
  return [{ kind: 'warn', message: `${message}, more than the ${skew} s the suite tolerates when webhooks.dateSkewSeconds is not set (the spec shows no skew)`, details }];
}

/** Any identifier the user is known by: its id, or the pid the profile declares (webhooks.userPid). */
function judgeUserPid(at: string, userPid: string, { eventUserIds }: ParamsContext): Judgement[] {
  if (eventUserIds.some((id) => id.toLowerCase() === userPid.toLowerCase())) return [];
  return [{ kind: 'warn', on: PARAM_SENTENCES.user_pid, message: `${at}: params.user_pid ${userPid} is not the user the event was caused for (${eventUserIds.join(' or ')})` }];
}
