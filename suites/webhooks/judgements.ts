// What one delivery's headers are worth, judged by the verdict policy
// (src/results/verdict.ts): a FAIL only where the spec's text is
// contradicted, a profile-declared FAIL where the profile states what the
// spec leaves open, else at most a warning or a note for review. The
// single-delivery checks apply one judgement; the every-delivery check folds
// the judgements of every delivery it received.
//
// Spec 5 rule 5 names the headers ("Outgoing webhooks carry the headers
// Signature, Content-Digest, Date and X-BTS-Idempotency-Key, and a receiver
// can use them to verify") but says that "how Signature and Content-Digest
// are computed: not shown", and no skew is shown for Date. What the spec
// leaves open comes from the profile (webhooks.signature,
// webhooks.digestAlgorithms, webhooks.dateSkewSeconds); what the standards it
// names define does not: a Content-Digest is the digest of the content
// (RFC 9530 section 2) under the algorithm the header itself names, and a
// Date is an HTTP-date (RFC 9110 5.6.7), declared or not.
//
// Observe, then judge: what the judgements read of a delivery is its
// observation (observeDelivery: its field lines, when it was received, what
// its bytes hash to under the algorithms Content-Digest names, and whether
// its signature verifies under the declared key — the measurements that need
// the bytes or the key), plain JSON that the check's record keeps; the
// judgements are pure functions of it and the profile's declarations, so a
// later suite judges a stored delivery again (delivery-judgments.ts).
import type { JudgmentSays } from '../../src/check/judgments.ts';
import { isSecretHeader } from '../../src/http/redact.ts';
import { fieldValue, IDEMPOTENCY_HEADER, type ReceivedDelivery } from '../../src/webhooks/delivery.ts';
import { isDeprecatedDigestAlgorithm, verifyContentDigest, type DigestVerdict } from '../../src/webhooks/digest.ts';
import { dateOffsetSeconds, describeOffset, parseHttpDate } from '../../src/webhooks/http-date.ts';
import type { SignatureStrategy } from '../../src/webhooks/signature/index.ts';
import type { SignatureVerdict } from '../../src/webhooks/signature/verdict.ts';
import type { WebhookSettings } from './support.ts';

export type Judgement =
  | { kind: 'pass'; message: string; details?: Record<string, unknown> }
  /** The spec's text, or a standard it names, is contradicted: `on` names the catalogue sentence (default the requirement's quote). */
  | { kind: 'fail'; message: string; details?: Record<string, unknown>; on?: string }
  /** The profile's declaration (key, whose value it declares) is contradicted. */
  | { kind: 'fail-declared'; key: string; value: unknown; message: string; details?: Record<string, unknown> }
  /** A deviation from what the spec implies: `on` names the catalogue sentence it departs from (default the requirement's quote). */
  | { kind: 'warn'; message: string; details?: Record<string, unknown>; on?: string }
  | { kind: 'review'; message: string; details?: Record<string, unknown> };

const SEVERITY: Record<Judgement['kind'], number> = { pass: 0, review: 1, warn: 2, 'fail-declared': 3, fail: 4 };
const SHOWN_LESSER_FINDINGS = 5;

/** Says what the judgement says: a fail ends the check. */
export function say(says: JudgmentSays, judgement: Judgement): void {
  switch (judgement.kind) {
    case 'fail':
      return says.fail(judgement.message, judgement.details, { on: judgement.on });
    case 'fail-declared':
      return says.failDeclared(judgement.key, judgement.value, judgement.message, judgement.details);
    case 'warn':
      return says.warn(judgement.message, judgement.details, { on: judgement.on });
    case 'review':
      return says.review(judgement.message, judgement.details);
    case 'pass':
      return says.note(judgement.message, judgement.details);
  }
}

/** The worst of several judgements decides; the others travel along in its details. */
export function sayWorst(says: JudgmentSays, judgements: readonly Judgement[], passed: string): void {
  const problems = judgements.filter((j) => j.kind !== 'pass');
  if (!problems.length) return says.note(passed);
  const worst = problems.reduce((a, b) => (SEVERITY[b.kind] > SEVERITY[a.kind] ? b : a));
  const others = problems.filter((p) => p !== worst);
  const summary = others.length ? `${worst.message} (and ${others.length} more finding${others.length === 1 ? '' : 's'})` : worst.message;
  const details = { ...worst.details, findings: problems.map((p) => ({ verdict: p.kind, message: p.message })) };
  // Lesser findings are kept on the check too (the first few; all of them are in the details), so none is lost behind the verdict.
  for (const other of others.filter((o) => o.kind === 'warn' || o.kind === 'review').slice(0, SHOWN_LESSER_FINDINGS)) say(says, other);
  say(says, { ...worst, message: summary, details });
}

/** What the judgements read of one delivery, as the check's record keeps it: plain JSON. */
export interface DeliveryObservation {
  seq: number;
  /**
   * Field lines as received, names lower-cased, in order; the value of a
   * Signature (or a credential) withheld, as evidence redacts it: a record
   * must not hand out what only the key could make.
   */
  fieldLines: Array<[name: string, value: string]>;
  /** The Signature value's length, which is all the judgements read of it. */
  signatureChars?: number;
  /** When the receiver got it (ISO 8601). */
  receivedAt: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  /** What the delivered bytes hash to under each algorithm Content-Digest names (none: no header, or a body cut short). */
  digest?: DigestVerdict;
  /** The signature checked under the declared scheme and key (none: no Signature header, or no scheme declared). */
  signature?: { scheme: string; verdict: SignatureVerdict };
}

/** What a withheld field value reads as in an observation. */
const WITHHELD = '(withheld)';

/** Observes a delivery: the measurements that need its bytes or the declared key, made once, for the judgements to read. */
export async function observeDelivery(delivery: ReceivedDelivery, strategy?: SignatureStrategy): Promise<DeliveryObservation> {
  const signed = fieldValue(delivery, 'signature') !== undefined;
  const observed = observeUnsigned(delivery);
  return strategy && signed ? { ...observed, signature: { scheme: strategy.description, verdict: await strategy.verify(delivery, delivery.receivedAt) } } : observed;
}

/** A delivery's observation without its signature verified (no scheme declared, or none to verify). */
export function observeUnsigned(delivery: ReceivedDelivery): DeliveryObservation {
  const contentDigest = fieldValue(delivery, 'content-digest');
  const signature = fieldValue(delivery, 'signature');
  return {
    seq: delivery.seq,
    fieldLines: delivery.fieldLines.map(([name, value]) => [name, isSecretHeader(name) ? WITHHELD : value]),
    ...(signature !== undefined ? { signatureChars: signature.length } : {}),
    receivedAt: delivery.receivedAt.toISOString(),
    bodyBytes: delivery.body.length,
    bodyTruncated: delivery.bodyTruncated,
    ...(contentDigest !== undefined && !delivery.bodyTruncated ? { digest: verifyContentDigest(contentDigest, delivery.body) } : {}),
  };
}

const REQUIRED_HEADERS: ReadonlyArray<[name: string, display: string]> = [
  [IDEMPOTENCY_HEADER, 'X-BTS-Idempotency-Key'],
  ['signature', 'Signature'],
  ['content-digest', 'Content-Digest'],
  ['date', 'Date'],
];

/** The sentence a missing header contradicts. */
const HEADERS_SENTENCE = 'SPEC-5-RULE-5-HEADERS';
const CONTENT_DIGEST_SENTENCE = 'RFC9530-2';
const CONTENT_DIGEST_FORM_SENTENCE = 'RFC9530-2-DICTIONARY';
const HTTP_DATE_SENTENCE = 'RFC9110-5.6.7';

/** 5 rule 5: "Outgoing webhooks carry the headers Signature, Content-Digest, Date and X-BTS-Idempotency-Key". */
export function judgeHeadersPresent(delivery: DeliveryObservation): Judgement {
  const missing = REQUIRED_HEADERS.filter(([name]) => !fieldValue(delivery, name)).map(([, display]) => display);
  const present = [...new Set(delivery.fieldLines.map(([name]) => name))];
  if (missing.length) return { kind: 'fail', on: HEADERS_SENTENCE, message: `delivery #${delivery.seq} lacks ${missing.join(', ')}`, details: { delivery: delivery.seq, missing, present } };
  return { kind: 'pass', message: `delivery #${delivery.seq} carries the four headers of 5 rule 5` };
}

/**
 * Content-Digest: present (5 rule 5 names it so that "a receiver can use
 * them to verify"), in RFC 9530's form (a dictionary of byte sequences), and
 * each member under an active algorithm of RFC 9530
 * the header names (sha-256, sha-512) the digest of the delivered bytes
 * (RFC 9530 section 2), declared or not. What the spec leaves open is which
 * algorithm: a declared webhooks.digestAlgorithms must be among those carried
 * (profile-declared); undeclared, a header with no algorithm the suite can
 * compute is recorded for review, and deprecated algorithms only warn.
 */
export function judgeContentDigest(delivery: DeliveryObservation, settings: Pick<WebhookSettings, 'digestAlgorithms'>): Judgement {
  const at = `delivery #${delivery.seq}`;
  const value = fieldValue(delivery, 'content-digest');
  if (value === undefined) return { kind: 'fail', on: HEADERS_SENTENCE, message: `${at} carries no Content-Digest header`, details: { delivery: delivery.seq } };
  if (delivery.bodyTruncated) return { kind: 'review', message: `${at} has a body too large for the receiver to keep, so its Content-Digest was not compared` };
  const declared = settings.digestAlgorithms;
  // Every algorithm the header names and the suite can compute: its meaning is the standard's, whatever was declared.
  const verdict = delivery.digest!;
  const details = { delivery: delivery.seq, contentDigest: value, compared: verdict.compared, ignored: verdict.ignored };
  const undeclared = 'webhooks.digestAlgorithms is not set, and how Content-Digest is computed is not shown (5)';
  // Not a dictionary, or a member of a known algorithm that is no byte sequence: RFC 9530's form, whatever algorithm was meant.
  if (verdict.kind === 'malformed') return { kind: 'fail', on: CONTENT_DIGEST_FORM_SENTENCE, message: `${at}: ${verdict.reason}`, details };
  const wrong = verdict.compared.filter((c) => !c.matches);
  const wrongActive = wrong.find((c) => !isDeprecatedDigestAlgorithm(c.algorithm));
  if (wrongActive) {
    const message = `${at}: Content-Digest ${wrongActive.algorithm} is not the digest of the ${delivery.bodyBytes}-byte body it came with: received ${wrongActive.received}, the body hashes to ${wrongActive.expected}`;
    return { kind: 'fail', on: CONTENT_DIGEST_SENTENCE, message, details };
  }
  const carried = verdict.compared.map((c) => c.algorithm);
  if (declared && !carried.some((a) => (declared as readonly string[]).includes(a))) {
    const named = [...carried, ...verdict.ignored].join(', ') || 'nothing';
    return { kind: 'fail-declared', key: 'webhooks.digestAlgorithms', value: declared, message: `${at}: Content-Digest carries ${named}, none of the declared ${declared.join(', ')}`, details };
  }
  if (wrong.length) {
    return { kind: 'warn', message: `${at}: Content-Digest ${wrong.map((c) => c.algorithm).join(', ')} does not match the ${delivery.bodyBytes}-byte body (an algorithm RFC 9530 deprecates as insecure)`, details };
  }
  if (!carried.length) return { kind: 'review', message: `${at}: ${verdict.reason}; recorded, not verified (${undeclared})`, details };
  if (carried.every(isDeprecatedDigestAlgorithm)) {
    return { kind: 'warn', message: `${at}: Content-Digest matches only with ${carried.join(', ')}, which RFC 9530 deprecates as insecure`, details };
  }
  return { kind: 'pass', message: `${at}: Content-Digest ${carried.join(' and ')} match the ${delivery.bodyBytes}-byte body`, details };
}

/**
 * Date: present (5 rule 5) and an HTTP-date a sender may generate: RFC 9110
 * 5.6.7 has senders generate IMF-fixdate, so an obsolete form (RFC 850,
 * asctime) FAILs on the same MUST as a malformed date; within the profile's
 * declared skew, else within a generous default as a warning.
 */
export function judgeDate(delivery: DeliveryObservation, settings: Pick<WebhookSettings, 'dateSkewSeconds' | 'dateSkewDeclared'>): Judgement {
  const at = `delivery #${delivery.seq}`;
  const value = fieldValue(delivery, 'date');
  if (value === undefined) return { kind: 'fail', on: HEADERS_SENTENCE, message: `${at} carries no Date header`, details: { delivery: delivery.seq } };
  const receivedAt = new Date(delivery.receivedAt);
  const parsed = parseHttpDate(value.trim(), receivedAt);
  if (!parsed) {
    return { kind: 'fail', on: HTTP_DATE_SENTENCE, message: `${at}: Date "${value}" is not an HTTP date (RFC 9110 5.6.7, e.g. "Sun, 06 Nov 1994 08:49:37 GMT"), so a receiver cannot use it`, details: { delivery: delivery.seq, date: value } };
  }
  const offsetSeconds = dateOffsetSeconds(parsed.date, receivedAt);
  const skew = settings.dateSkewSeconds;
  const details = { delivery: delivery.seq, date: value, offsetSeconds, skewSeconds: skew };
  if (Math.abs(offsetSeconds) > skew) {
    const message = `${at}: Date "${value}" is ${describeOffset(offsetSeconds)} the receipt time ${receivedAt.toUTCString()}`;
    if (settings.dateSkewDeclared) return { kind: 'fail-declared', key: 'webhooks.dateSkewSeconds', value: skew, message: `${message} (the profile allows ${skew} s)`, details };
    return { kind: 'warn', message: `${message}, more than the ${skew} s the suite tolerates when webhooks.dateSkewSeconds is not set (the spec shows no skew)`, details };
  }
  if (!parsed.imfFixdate) {
    return { kind: 'fail', on: HTTP_DATE_SENTENCE, message: `${at}: Date "${value}" is an obsolete HTTP-date form, which a recipient reads but a sender must not generate: RFC 9110 5.6.7 has senders generate the IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT")`, details };
  }
  return { kind: 'pass', message: `${at}: Date is ${Math.abs(offsetSeconds)} s from the receipt time (allowed ${skew} s)`, details };
}

/**
 * Signature: present (5 rule 5), and verifying under the profile's declared
 * scheme: a signature that does not verify, or leaves out a component the
 * profile declares it covers, contradicts the profile. With no scheme
 * declared, what was received is recorded for review.
 */
export function judgeSignature(delivery: DeliveryObservation, settings: Pick<WebhookSettings, 'signature' | 'dateSkewSeconds' | 'dateSkewDeclared'>): Judgement {
  const at = `delivery #${delivery.seq}`;
  const signature = fieldValue(delivery, 'signature');
  const input = fieldValue(delivery, 'signature-input');
  if (signature === undefined) return { kind: 'fail', on: HEADERS_SENTENCE, message: `${at} carries no Signature header`, details: { delivery: delivery.seq } };
  if (!settings.signature || !delivery.signature) {
    return {
      kind: 'review',
      message: `no signature scheme is configured (webhooks.signature), so the signature of ${at} was recorded, not verified: Signature of ${delivery.signatureChars} characters${input ? `, Signature-Input ${input}` : ''}`,
      details: { delivery: delivery.seq, signatureInput: input ?? null },
    };
  }
  const { scheme, verdict } = delivery.signature;
  const details = { delivery: delivery.seq, scheme, ...verdict.details };
  if (verdict.verified && verdict.warning) return { kind: 'warn', message: `${at}: ${verdict.warning}`, details };
  if (verdict.verified) return { kind: 'pass', message: `${at}: ${verdict.reason} (${scheme})`, details };
  if (verdict.problem === 'coverage') {
    const components = settings.signature.scheme === 'rfc9421' ? settings.signature.requiredComponents : undefined;
    if (components !== undefined) return { kind: 'fail-declared', key: 'webhooks.signature.requiredComponents', value: components, message: `${at}: ${verdict.reason}`, details };
    return { kind: 'warn', message: `${at}: ${verdict.reason}; webhooks.signature.requiredComponents is not set, so the suite expected the components spec 5 rule 5 names`, details };
  }
  if (verdict.problem === 'timing') {
    if (settings.dateSkewDeclared) return { kind: 'fail-declared', key: 'webhooks.dateSkewSeconds', value: settings.dateSkewSeconds, message: `${at}: ${verdict.reason} (the profile allows ${settings.dateSkewSeconds} s)`, details };
    return { kind: 'warn', message: `${at}: ${verdict.reason}, more than the ${settings.dateSkewSeconds} s the suite tolerates when webhooks.dateSkewSeconds is not set`, details };
  }
  return { kind: 'fail-declared', key: 'webhooks.signature', value: settings.signature, message: `${at}: ${verdict.reason}`, details };
}
