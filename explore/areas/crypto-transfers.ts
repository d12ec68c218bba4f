// The model of creating a withdrawal address (spec 4.3, 2.3, 5, 7), explored.
//
// A case is one create: a bearer (valid, absent or forged), a svc-user-id
// (the profile's user, absent, empty, unknown or malformed) and a body (the
// profile's, with up to three fields changed — left out, null, of another
// type, a malformed UUID, or a boundary value of the right type — or a body
// that is no JSON object at all). What the spec allows, rule by rule:
//
//   - without a bearer, or with a forged one: refused; 401 when that is the
//     only thing wrong (5 rule 1, 7 "401 (unauthorized)"), any refusal 4.3
//     lists when the request is wrong in other ways too (the spec orders no
//     checks);
//   - with a valid bearer, no or an empty svc-user-id: refused; an unknown or
//     malformed one: refused (4.3, 5 rule 4);
//   - the profile's body, unchanged, for its user: not refused (the profile
//     declares it accepted);
//   - every 2xx answer holds 2.3's types and is JSON (4.3 Response 200, 1),
//     whatever was sent; a 5xx that carries a stored address stored it;
//   - a 2xx to a body whose fields all have 4.3's types carries what was
//     sent (echo.ts decides each field);
//   - a body of wrong types refused with a 4xx other than 400 or 422: the
//     SHOULD of 7's "parameter error".
// Recorded, never judged: whether a type-correct body with a field left out
// or a boundary value is taken (which fields are required: not shown), a
// wrongly typed body taken (the spec ties no refusal to a type), a 5xx that
// stored nothing (7 lists 500 for this operation; the hand-written checks
// weigh it by RFC 9110 15.6).
import fc from 'fast-check';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';
import { isServerError, isSuccess } from '../../src/check/context.ts';
import type { HttpResponse } from '../../src/http/client.ts';
import { variesPerRequest, withFreshValues } from '../../src/placeholders.ts';
import { tamperPayload } from '../../src/auth/jwt.ts';
import { REQUEST_FIELDS, addressEffect, addressOf, postWithdrawalAddress, PROFILE_BODY_KEY } from '../../suites/crypto-transfers/support.ts';
import { addressEchoes, declaredBodyAccepted } from '../../suites/crypto-transfers/created-judgments.ts';
import { defineExploreRule } from '../rule.ts';
import type { AreaExplorer, AreaModel, Unexplorable } from '../model.ts';
import type { CaseRun } from '../case-run.ts';
import { bodiesAnswered, parameterErrorCode } from './crypto-transfers-judgments.ts';

export const RULES = {
  bearerRequired: defineExploreRule({
    id: 'explore.crypto-transfers.bearer-required',
    title: 'Generated creates without a bearer credential are refused (401 when nothing else is wrong)',
    requirements: ['WDA-BEARER-REQUIRED'],
  }),
  forgedBearerRefused: defineExploreRule({
    id: 'explore.crypto-transfers.forged-bearer-refused',
    title: 'Generated creates with a forged bearer token are refused (401 when nothing else is wrong)',
    requirements: ['WDA-BEARER-INVALID-REJECTED'],
  }),
  userHeaderRequired: defineExploreRule({
    id: 'explore.crypto-transfers.user-header-required',
    title: 'Generated creates without svc-user-id, or with an empty one, are refused',
    requirements: ['WDA-USER-HEADER-REQUIRED'],
  }),
  unknownUserRefused: defineExploreRule({
    id: 'explore.crypto-transfers.unknown-user-refused',
    title: 'Generated creates for an unknown or malformed svc-user-id are refused',
    requirements: ['WDA-UNKNOWN-USER-REJECTED'],
  }),
  declaredBodyAccepted: defineExploreRule({
    id: 'explore.crypto-transfers.declared-body-accepted',
    title: "The profile's body is not refused, whatever other generated creates came before",
    requirements: ['WDA-CREATE-SCHEMA'],
  }),
  bodiesAnswered: defineExploreRule({
    id: 'explore.crypto-transfers.answers-hold-2-3',
    title: 'Every 2xx answer to a generated body holds the types of 2.3; no 5xx stores an address',
    requirements: ['WDA-INVALID-BODY-REJECTED'],
  }),
  answerIsJson: defineExploreRule({
    id: 'explore.crypto-transfers.answer-is-json',
    title: 'Every 2xx answer to a generated create is labelled JSON',
    requirements: ['WDA-JSON-BODY'],
  }),
  echoesRequest: defineExploreRule({
    id: 'explore.crypto-transfers.echoes-request',
    title: 'A 2xx answer to a generated body of 4.3 types carries the values sent, boundary values included',
    requirements: ['WDA-ECHOES-REQUEST'],
  }),
  parameterErrorCode: defineExploreRule({
    id: 'explore.crypto-transfers.parameter-error-code',
    title: 'Generated bodies of wrong types that are refused are answered 400 or 422',
    requirements: ['WDA-PARAMETER-ERROR-CODE'],
  }),
};

type Field = (typeof REQUEST_FIELDS)[number];
const UUID_FIELDS: readonly Field[] = ['coin_network_id', 'host_id'];
const BOOLEAN_FIELDS: readonly Field[] = ['user_owned'];

/** A change to one field of the profile's body; `typed`: the value still has 4.3's type (and UUID shape). */
export type FieldChange =
  | { field: Field; to: 'absent' }
  | { field: Field; to: 'null' }
  | { field: Field; to: 'value'; value: unknown; typed: boolean; kind: string };

export type Body =
  | { kind: 'profile'; changes: FieldChange[] }
  /** Bytes that are no JSON object: what the operation cannot take at all. */
  | { kind: 'raw'; form: 'empty' | 'malformed-json' | 'form-encoded' | 'json-array' | 'json-null' | 'json-number' };

export interface WdaCase {
  bearer: 'valid' | 'absent' | 'forged';
  user: 'declared' | 'absent' | 'empty' | 'unknown' | 'malformed';
  body: Body;
}

/** Boundary strings of the right type: empty, blank, padded, long, and text beyond ASCII. */
const boundaryString: fc.Arbitrary<{ value: string; kind: string }> = fc.oneof(
  fc.constant({ value: '', kind: 'empty string' }),
  fc.constant({ value: '   ', kind: 'blank string' }),
  fc.string({ minLength: 1, maxLength: 12 }).map((s) => ({ value: `  ${s}  `, kind: 'padded string' })),
  fc.integer({ min: 65, max: 2048 }).map((n) => ({ value: 'x'.repeat(n), kind: `${n}-character string` })),
  // Text beyond ASCII weighs double: names and hosts are written in every script.
  fc.constantFrom('Ærøskøbing Åsa', 'Jürgen Groß-Müller', '山田 太郎', 'Σωκράτης', 'Zoë 🦊 O’Brien', 'مریم').map((value) => ({ value, kind: 'non-ASCII string' })),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }).filter((s) => /[^\x00-\x7f]/.test(s)).map((value) => ({ value, kind: 'non-ASCII string' })),
);

/** Values of another type than 4.3 gives the field. */
function wrongType(field: Field): fc.Arbitrary<{ value: unknown; kind: string }> {
  const common = [
    fc.integer({ min: -1000, max: 100000 }).map((value) => ({ value, kind: 'number' })),
    fc.constant({ value: {}, kind: 'object' }),
    fc.constant({ value: ['x'], kind: 'array' }),
  ];
  if (BOOLEAN_FIELDS.includes(field)) return fc.oneof(fc.constantFrom('true', 'false', '', 'yes').map((value) => ({ value, kind: 'string' })), ...common);
  return fc.oneof(fc.boolean().map((value) => ({ value, kind: 'boolean' })), ...common);
}

/** Strings that are not UUID-shaped. */
const malformedUuid: fc.Arbitrary<{ value: string; kind: string }> = fc.oneof(
  fc.uuid().map((u) => ({ value: u.replaceAll('-', ''), kind: 'UUID without hyphens' })),
  fc.uuid().map((u) => ({ value: `${u}0`, kind: 'UUID with a character too many' })),
  fc.uuid().map((u) => ({ value: u.slice(0, -1), kind: 'UUID a character short' })),
  fc.constantFrom('not-a-uuid', '1234-5678', '{00000000-0000-0000-0000-000000000000}').map((value) => ({ value, kind: 'malformed UUID' })),
);

/** Values of the right type that the profile's body does not hold. */
function typedChange(field: Field): fc.Arbitrary<{ value: unknown; kind: string }> {
  if (BOOLEAN_FIELDS.includes(field)) return fc.boolean().map((value) => ({ value, kind: 'boolean' }));
  if (UUID_FIELDS.includes(field)) return fc.uuid({ version: 4 }).map((value) => ({ value, kind: 'unknown UUID' }));
  return boundaryString;
}

function fieldChange(fields: readonly Field[]): fc.Arbitrary<FieldChange> {
  return fc.constantFrom(...fields).chain((field) =>
    // Values of the right type weigh most: they are what an implementation must take and give back as sent.
    fc.oneof(
      { weight: 3, arbitrary: typedChange(field).map(({ value, kind }): FieldChange => ({ field, to: 'value', value, typed: true, kind })) },
      { weight: 1, arbitrary: fc.constant<FieldChange>({ field, to: 'absent' }) },
      { weight: 1, arbitrary: fc.constant<FieldChange>({ field, to: 'null' }) },
      { weight: 1, arbitrary: wrongType(field).map(({ value, kind }): FieldChange => ({ field, to: 'value', value, typed: false, kind })) },
      ...(UUID_FIELDS.includes(field) ? [{ weight: 1, arbitrary: malformedUuid.map(({ value, kind }): FieldChange => ({ field, to: 'value', value, typed: false, kind })) }] : []),
    ),
  );
}

function caseArbitrary(fields: readonly Field[]): fc.Arbitrary<WdaCase> {
  // The first of each choice is the valid one, so shrinking walks a case back towards the profile's request.
  const bearer = fc.oneof({ withCrossShrink: true }, { weight: 6, arbitrary: fc.constant('valid' as const) }, { weight: 1, arbitrary: fc.constant('absent' as const) }, { weight: 1, arbitrary: fc.constant('forged' as const) });
  const user = fc.oneof(
    { withCrossShrink: true },
    { weight: 8, arbitrary: fc.constant('declared' as const) },
    { weight: 1, arbitrary: fc.constantFrom('absent' as const, 'empty' as const, 'unknown' as const, 'malformed' as const) },
  );
  const body = fc.oneof(
    // The profile's body as it is, or with one to three fields changed: shrinking drops changes one by one, and
    // tries the body as it is (cross-shrinking to the first choice).
    { withCrossShrink: true },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'profile', changes: [] }) },
    { weight: 7, arbitrary: fc.uniqueArray(fieldChange(fields), { minLength: 1, maxLength: 3, selector: (c) => c.field }).map((changes): Body => ({ kind: 'profile', changes })) },
    { weight: 1, arbitrary: fc.constantFrom('empty', 'malformed-json', 'form-encoded', 'json-array', 'json-null', 'json-number').map((form): Body => ({ kind: 'raw', form: form as Extract<Body, { kind: 'raw' }>['form'] })) },
  );
  return fc.record({ bearer, user, body });
}

export function describeCase(c: WdaCase): string {
  const bearer = { valid: 'a valid bearer', absent: 'no bearer', forged: 'a forged bearer' }[c.bearer];
  const user = { declared: "the profile's user", absent: 'no svc-user-id', empty: 'an empty svc-user-id', unknown: 'an unknown svc-user-id', malformed: 'a malformed svc-user-id' }[c.user];
  const body =
    c.body.kind === 'raw'
      ? `a body that is ${c.body.form.replaceAll('-', ' ')}`
      : c.body.changes.length
        ? `the profile's body with ${c.body.changes.map(describeChange).join(', ')}`
        : "the profile's body";
  return `create with ${bearer}, ${user}, ${body}`;
}

/** The case without its values: of the cases for a human, one of each kind is kept. */
export function kindOfCase(c: WdaCase): string {
  const body = c.body.kind === 'raw' ? c.body.form : c.body.changes.map((ch) => `${ch.field} ${ch.to === 'value' ? ch.kind : ch.to}`).sort().join(', ');
  return `${c.bearer} bearer, ${c.user} user, ${body}`;
}

function describeChange(change: FieldChange): string {
  if (change.to === 'absent') return `${change.field} left out`;
  if (change.to === 'null') return `${change.field} null`;
  const shown = JSON.stringify(change.value);
  return `${change.field} ${change.kind} ${shown.length > 40 ? `${shown.slice(0, 37)}…"` : shown}`;
}

/** What the case's body is, as the rules weigh it. */
interface BodyFacts {
  /** Every field sent has 4.3's type (and UUID shape): nothing the spec's types contradict. */
  typed: boolean;
  /** The profile's body as it is. */
  unchanged: boolean;
  /** The body still holds the profile's generated placeholder: no other create sent the same address. */
  fresh: boolean;
  /** The JSON sent, when the body is the profile's (changed). */
  sent?: Record<string, unknown>;
}

interface Setup {
  userId: string;
  template: WithdrawalAddressRequest;
  /** The fields whose template value is generated afresh per request. */
  freshFields: Set<string>;
}

function bodyFacts(setup: Setup, body: Body, sent?: Record<string, unknown>): BodyFacts {
  if (body.kind === 'raw') return { typed: false, unchanged: false, fresh: true };
  const typed = body.changes.every((c) => c.to === 'value' && c.typed);
  const fresh = setup.freshFields.size > 0 && [...setup.freshFields].some((field) => !body.changes.some((c) => c.field === field));
  return { typed, unchanged: body.changes.length === 0, fresh, sent };
}

function request(setup: Setup, body: Body): { json?: unknown; body?: string; contentType?: string; sent?: Record<string, unknown> } {
  const filled = withFreshValues(setup.template, { userId: setup.userId }) as Record<string, unknown>;
  if (body.kind === 'raw') {
    switch (body.form) {
      case 'empty':
        return { body: '', contentType: 'application/json' };
      case 'malformed-json':
        return { body: JSON.stringify(filled).slice(0, -7), contentType: 'application/json' };
      case 'form-encoded': {
        const pairs = Object.entries(filled).map(([k, v]): [string, string] => [k, String(v)]);
        return { body: new URLSearchParams(pairs).toString(), contentType: 'application/x-www-form-urlencoded' };
      }
      case 'json-array':
        return { json: [filled] };
      case 'json-null':
        return { body: 'null', contentType: 'application/json' };
      case 'json-number':
        return { body: '42', contentType: 'application/json' };
    }
  }
  const sent = { ...filled };
  for (const change of body.changes) {
    if (change.to === 'absent') delete sent[change.field];
    else sent[change.field] = change.to === 'null' ? null : change.value;
  }
  return { json: sent, sent };
}

const USER_VALUE = { declared: undefined, absent: undefined, empty: '', unknown: undefined, malformed: 'not-a-user-id' } as const;

async function runCase(setup: Setup, c: WdaCase, run: CaseRun): Promise<void> {
  const { tokens } = run.target;
  const bearer = c.bearer === 'valid' ? tokens : c.bearer === 'forged' ? tamperPayload(await tokens.current()) : undefined;
  const userId = c.user === 'declared' ? setup.userId : c.user === 'unknown' ? crypto.randomUUID() : USER_VALUE[c.user];
  const req = request(setup, c.body);
  const what = describeCase(c);
  const res = await postWithdrawalAddress(run.http, { bearer, userId, json: req.json, body: req.body, contentType: req.contentType, label: what });
  judge(setup, c, run, res, bodyFacts(setup, c.body, req.sent), what);
}

function judge(setup: Setup, c: WdaCase, run: CaseRun, res: HttpResponse, body: BodyFacts, what: string): void {
  const effect = (on: string) => addressEffect(res, on);
  const exchange = res.exchangeId !== undefined ? { exchange: res.exchangeId } : {};
  const onlyThis = c.user === 'declared' && body.unchanged;
  if (c.bearer !== 'valid') {
    const rule = c.bearer === 'absent' ? RULES.bearerRequired : RULES.forgedBearerRefused;
    const on = rule.requirements[0]!;
    run.judge(rule.id, (check) => {
      // Nothing else wrong: 401, the code 7 names for it; else the spec orders no checks, so any refusal 4.3 lists.
      if (onlyThis) check.expectUnauthorized(res, what, { operation: 'withdrawalAddress', effect: effect(on) });
      else check.expectRefused(res, { operation: 'withdrawalAddress', what, on, effect: effect(on) });
    });
    return;
  }
  if (c.user !== 'declared') {
    const rule = c.user === 'absent' || c.user === 'empty' ? RULES.userHeaderRequired : RULES.unknownUserRefused;
    const on = rule.requirements[0]!;
    run.judge(rule.id, (check) => check.expectRefused(res, { operation: 'withdrawalAddress', what, on, effect: effect(on) }));
    return;
  }
  // The profile's user and a valid bearer: what the body decides.
  if (body.unchanged && body.fresh) {
    run.judge(RULES.declaredBodyAccepted.id, (check) =>
      check.judge(declaredBodyAccepted, { status: res.status, ...exchange, userId: setup.userId, declaredBody: check.declaredValue(PROFILE_BODY_KEY) }),
    );
  }
  run.judge(RULES.bodiesAnswered.id, (check) =>
    check.judge(bodiesAnswered, {
      what,
      status: res.status,
      ...exchange,
      typed: body.typed,
      ...(isSuccess(res.status) || isServerError(res.status) ? (res.json !== undefined ? { json: res.json } : { jsonError: res.jsonError ?? 'empty' }) : {}),
    }),
  );
  if (isSuccess(res.status)) {
    run.judge(RULES.answerIsJson.id, (check) => check.expectJsonContentType(res, `the ${res.status} answer to ${what}`));
    if (body.typed && body.sent && res.json !== undefined) {
      const returned = addressOf(res);
      const sent = body.sent;
      run.judge(RULES.echoesRequest.id, (check) =>
        check.judge(addressEchoes, {
          sent: sent as WithdrawalAddressRequest,
          returned: Object.fromEntries(REQUEST_FIELDS.filter((f) => returned[f] !== undefined).map((f) => [f, returned[f]])),
        }),
      );
    }
  }
  // A refusal's code is weighed only for a body the spec's types contradict and no other create sent (a duplicate may be refused otherwise).
  if (!body.typed && body.fresh && res.status >= 400 && res.status < 500) {
    run.judge(RULES.parameterErrorCode.id, (check) => check.judge(parameterErrorCode, { what, status: res.status, ...exchange }));
  }
}

export const cryptoTransfersModel: AreaModel<WdaCase> = {
  area: 'crypto-transfers',
  rules: Object.values(RULES),
  prepare(profile: ResolvedProfile): AreaExplorer<WdaCase> | Unexplorable {
    const userId = profile.cryptoTransfers?.userId;
    const template = profile.cryptoTransfers?.withdrawalAddress;
    if (!userId) return { unexplorable: 'no user to create withdrawal addresses for', configKey: 'cryptoTransfers.userId' };
    if (!template) return { unexplorable: 'no withdrawal-address body the implementation accepts', configKey: PROFILE_BODY_KEY };
    const fields = REQUEST_FIELDS.filter((f) => (template as Record<string, unknown>)[f] !== undefined);
    const freshFields = new Set(fields.filter((f) => variesPerRequest({ [f]: (template as Record<string, unknown>)[f] })));
    const setup: Setup = { userId, template, freshFields };
    return { cases: caseArbitrary(fields), describe: describeCase, kindOf: kindOfCase, run: (c, run) => runCase(setup, c, run) };
  },
};
