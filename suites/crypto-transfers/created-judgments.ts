// Judgments of the answer to creating a withdrawal address with the body the
// profile declares accepted (spec 4.3, 2.3): it is not refused, it is JSON,
// it carries what was registered (echo.ts decides each field), its created_at
// is in UTC, and a KNOWN_VASP address stays KNOWN_VASP. Each input holds the
// fields judged, not the whole answer.
import { answeredWith, defineJudgment } from '../../src/check/judgments.ts';
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';
import { judgeTimestamp } from '../../src/check/timestamp-field.ts';
import { compareField } from './echo.ts';
import { CREATED_AT, PROFILE_BODY_KEY, REQUEST_FIELDS } from './support.ts';

export interface DeclaredBodyInput {
  status: number;
  exchange?: number;
  /** The user the address was created for, as the message names it. */
  userId: string;
  /** What the body holds that a refusal would contradict, for the message (createAddress's whatItHolds). */
  whatItHolds?: string;
  /** cryptoTransfers.withdrawalAddress as the profile declares it: the basis of a refusal's FAIL. */
  declaredBody: unknown;
}

/**
 * Which bodies are valid is not shown: the profile declares this one is, so a
 * 4xx refusal is a profile-declared FAIL. (A body that never varies may be
 * refused as a duplicate, which the spec allows: createAddress stops before
 * this judgment then, as the suite's error.) A 5xx is the status rule's.
 */
export const declaredBodyAccepted = defineJudgment<DeclaredBodyInput>('crypto-transfers.declared-body-accepted', (input, says) => {
  const { status, exchange } = input;
  if (status < 400 || status >= 500) return;
  const refused = `the profile's body (${PROFILE_BODY_KEY}) was refused for user ${input.userId} with ${status}`;
  const holds = input.whatItHolds ? ` (${input.whatItHolds})` : '';
  says.failDeclared(PROFILE_BODY_KEY, input.declaredBody, `${refused}, though the profile declares it a body the implementation accepts${holds}`, { expected: 200, actual: status, exchange }, { observed: answeredWith(status, exchange) });
});

export interface CreatedJsonInput {
  /** The 200 answer's body parsed as JSON. */
  parsed: boolean;
  /** Why it did not, when it did not. */
  jsonError?: string;
}

/** crypto-transfers.responses-are-json: the 200 answer's body is JSON (1: "All request and response bodies are JSON"). */
export const createdIsJson = defineJudgment<CreatedJsonInput>('crypto-transfers.created-answer-is-json', (input, says) => {
  if (!input.parsed) says.fail(`the 200 answer to creating a withdrawal address is not JSON: ${input.jsonError}`);
});

export interface EchoInput {
  /** The request fields sent (those of 4.3's body; a field not sent is left out). */
  sent: WithdrawalAddressRequest;
  /** The same fields of the created address, as they came back (a field left out is left out). */
  returned: Record<string, unknown>;
}

/**
 * crypto-transfers.address-echoes-request: each sent field comes back as
 * registered (echo.ts): another value FAILs, another spelling is INFO, what a
 * human must decide (a transliteration, a VASP directory's value) REVIEW.
 */
export const addressEchoes = defineJudgment<EchoInput>('crypto-transfers.address-echoes-request', (input, says) => {
  const { sent, returned } = input;
  const compared = REQUEST_FIELDS.filter((field) => sent[field] !== undefined).map((field) => ({ field, outcome: compareField(field, sent, returned) }));
  const shown = (field: (typeof REQUEST_FIELDS)[number]) => `${field} sent ${JSON.stringify(sent[field])}, returned ${JSON.stringify(returned[field] ?? null)}`;
  for (const { field, outcome } of compared) {
    if (outcome.kind === 'normalised') says.note(`${shown(field)}: the same value, ${outcome.how}`);
    if (outcome.kind === 'review') says.review(`${shown(field)}: ${outcome.why}`, { field, sent: sent[field], returned: returned[field] ?? null });
  }
  const differing = compared.filter((c) => c.outcome.kind === 'differs');
  if (differing.length) {
    return says.fail(`the created address does not carry what was registered: ${differing.map((c) => `${shown(c.field)} (${c.outcome.kind === 'differs' ? c.outcome.why : ''})`).join('; ')}`, {
      sent: Object.fromEntries(differing.map((c) => [c.field, sent[c.field]])),
      returned: Object.fromEntries(differing.map((c) => [c.field, returned[c.field] ?? null])),
    });
  }
  const unsent = REQUEST_FIELDS.filter((field) => sent[field] === undefined);
  if (unsent.length) says.note(`not sent, so not compared: ${unsent.join(', ')} (add them to cryptoTransfers.withdrawalAddress)`);
});

export interface CreatedAtInput {
  /** data.created_at, left out when it is. */
  createdAt?: unknown;
  status: number;
  exchange?: number;
}

/** crypto-transfers.created-at-is-utc: created_at by the one reading of "ISO 8601 timestamp in UTC" (src/check/timestamp-field.ts). */
export const createdAtUtc = defineJudgment<CreatedAtInput>('crypto-transfers.created-at-utc', (input, says) => {
  const value = input.createdAt;
  const judged = judgeTimestamp(CREATED_AT, value);
  const observed = answeredWith(input.status, input.exchange);
  // The claims expectTimestamp makes, with the exchange in their details.
  if (judged.verdict === 'FAIL') return says.fail(judged.message, { [CREATED_AT.name]: value, exchange: input.exchange }, { observed });
  if (judged.verdict === 'WARN') says.warn(judged.message, { [CREATED_AT.name]: value ?? null, exchange: input.exchange }, { observed });
});

/** crypto-transfers.known-vasp-accepted: a KNOWN_VASP address comes back KNOWN_VASP (null: host_type left out or null). */
export const knownVaspKept = defineJudgment<{ hostType: unknown }>('crypto-transfers.known-vasp-kept', (input, says) => {
  const hostType = input.hostType ?? null;
  if (hostType !== 'KNOWN_VASP') says.fail(`a KNOWN_VASP address came back with host_type ${JSON.stringify(hostType)}`, { expected: 'KNOWN_VASP', actual: hostType });
});
