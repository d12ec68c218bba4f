// The named judgments of the delivery-format checks (src/check/judgments.ts):
// each reads a delivery's observation (judgements.ts observeDelivery) and
// the profile's declarations it may rest on, and says what judgements.ts
// judges. A check's record keeps the name and the input, so `ptas rejudge`
// judges a stored delivery again by the installed suite's judgements.
import { defineJudgment } from '../../src/check/judgments.ts';
import { judgeContentDigest, judgeDate, judgeHeadersPresent, judgeSignature, say, sayWorst, type DeliveryObservation, type Judgement } from './judgements.ts';
import type { WebhookSettings } from './settings.ts';

/** The declarations the header judgements may rest on, as the profile states them. */
export type HeaderDeclarations = Pick<WebhookSettings, 'digestAlgorithms' | 'dateSkewSeconds' | 'dateSkewDeclared' | 'signature'>;

/** Those of the settings, alone: a judgment's input keeps nothing else of them. */
export function headerDeclarations({ digestAlgorithms, dateSkewSeconds, dateSkewDeclared, signature }: WebhookSettings): HeaderDeclarations {
  return { ...(digestAlgorithms ? { digestAlgorithms } : {}), dateSkewSeconds, dateSkewDeclared, ...(signature ? { signature } : {}) };
}

/** 5 rule 5 and 6.1: a POST whose Content-Type is application/json (parameters such as charset do not change the media type: RFC 9110 8.3.1). */
export const postJson = defineJudgment<{ seq: number; method: string; contentType?: string }>('webhooks.post-json', ({ seq, method, contentType }, says) => {
  if (method !== 'POST') return says.fail(`delivery #${seq} used ${method}, not POST`, { expected: 'POST', actual: method });
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  if (media !== 'application/json') says.fail(`delivery #${seq} has Content-Type ${contentType ?? '(none)'}, expected application/json`, { expected: 'application/json', actual: contentType ?? null });
});

export const headersPresent = defineJudgment<{ delivery: DeliveryObservation }>('webhooks.headers-present', ({ delivery }, says) => say(says, judgeHeadersPresent(delivery)));

export const contentDigestMatches = defineJudgment<{ delivery: DeliveryObservation; declared: HeaderDeclarations }>('webhooks.content-digest', ({ delivery, declared }, says) =>
  say(says, judgeContentDigest(delivery, declared)),
);

export const dateWithinSkew = defineJudgment<{ delivery: DeliveryObservation; declared: HeaderDeclarations }>('webhooks.date', ({ delivery, declared }, says) => say(says, judgeDate(delivery, declared)));

export const signatureVerifies = defineJudgment<{ delivery: DeliveryObservation; declared: HeaderDeclarations }>('webhooks.signature', ({ delivery, declared }, says) =>
  say(says, judgeSignature(delivery, declared)),
);

/** One delivery of the every-delivery check, and what it is to the check ("redelivery of #3"), which its findings name. */
export interface DeliveryInRole {
  delivery: DeliveryObservation;
  role: string;
}

/**
 * Spec 5 rule 5 on every delivery: the four headers, the digest, the Date
 * and, where a scheme is declared, the signature of each, by the judgements
 * of the single-delivery checks; the worst decides.
 */
export const everyDeliveryVerifiable = defineJudgment<{ deliveries: DeliveryInRole[]; declared: HeaderDeclarations }>('webhooks.every-delivery', ({ deliveries, declared }, says) => {
  const judgements: Judgement[] = [];
  for (const { delivery, role } of deliveries) {
    const headers = judgeHeadersPresent(delivery);
    const judged = [headers, judgeContentDigest(delivery, declared), judgeDate(delivery, declared)];
    // A missing Signature is judged with the headers already; without a scheme there is nothing to verify.
    if (declared.signature && headers.kind === 'pass') judged.push(judgeSignature(delivery, declared));
    judgements.push(...judged.map((j) => (j.kind === 'pass' ? j : { ...j, message: `${j.message} (${role})` })));
  }
  if (!declared.signature) {
    judgements.push({ kind: 'review', message: `no signature scheme is configured (webhooks.signature): the Signature of the ${deliveries.length} deliveries was checked for presence, not verified` });
  }
  sayWorst(says, judgements, `all ${deliveries.length} deliveries carry the four headers, a matching Content-Digest and a usable Date${declared.signature ? ', and a signature that verifies' : ''}`);
});
