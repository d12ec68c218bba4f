// A plain HMAC-SHA256 signature, for implementations that do not use
// RFC 9421. This is a profile choice, not a standard, so every detail is
// spelled out in the profile:
//   input     = signedContent parts joined by separator, where a part is
//               "body" (the raw body bytes as received) or a header name
//               (its value, trimmed; repeated lines joined with ", ")
//   Signature = format with {signature} replaced by encoding(HMAC-SHA256(secret, input))
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HmacSignatureProfile } from '../../config/sections/webhooks.ts';
import { fieldValue, type ReceivedDelivery } from '../delivery.ts';
import type { SignatureVerdict } from './verdict.ts';

export const HMAC_DEFAULTS = { signedContent: ['body'], separator: '.', encoding: 'hex', format: '{signature}', secretEncoding: 'utf8' } as const;

/** The bytes that are HMAC'd, or the name of a part the delivery lacks. */
export function hmacInput(delivery: Pick<ReceivedDelivery, 'fieldLines' | 'body'>, config: HmacSignatureProfile): Buffer | { missing: string } {
  const parts: Buffer[] = [];
  for (const part of config.signedContent ?? HMAC_DEFAULTS.signedContent) {
    if (part === 'body') {
      parts.push(delivery.body);
      continue;
    }
    const value = fieldValue(delivery, part);
    if (value === undefined) return { missing: part };
    parts.push(Buffer.from(value, 'utf8'));
  }
  const separator = Buffer.from(config.separator ?? HMAC_DEFAULTS.separator, 'utf8');
  return Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [separator, p])));
}

/** The Signature value the profile's scheme expects for a delivery. */
export function expectedHmacSignature(input: Buffer, config: HmacSignatureProfile): string {
  const secret = Buffer.from(config.secret, config.secretEncoding ?? HMAC_DEFAULTS.secretEncoding);
  const mac = createHmac('sha256', secret).update(input).digest(config.encoding ?? HMAC_DEFAULTS.encoding);
  return (config.format ?? HMAC_DEFAULTS.format).replace('{signature}', mac);
}

export function verifyHmac(delivery: ReceivedDelivery, config: HmacSignatureProfile): SignatureVerdict {
  const received = fieldValue(delivery, 'signature');
  if (received === undefined) return { verified: false, problem: 'signature', reason: 'no Signature header', details: {} };
  const input = hmacInput(delivery, config);
  if (!Buffer.isBuffer(input)) return { verified: false, problem: 'signature', reason: `the HMAC input needs header ${input.missing}, which the delivery lacks`, details: {} };
  const expected = Buffer.from(expectedHmacSignature(input, config));
  const actual = Buffer.from(received);
  const details = { signedContent: config.signedContent ?? HMAC_DEFAULTS.signedContent, inputBytes: input.length };
  if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
    return { verified: true, reason: 'the HMAC-SHA256 signature matches', details };
  }
  return { verified: false, problem: 'signature', reason: `Signature does not match HMAC-SHA256 over ${details.signedContent.join(` "${config.separator ?? HMAC_DEFAULTS.separator}" `)} (${input.length} bytes)`, details };
}
