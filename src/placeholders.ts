// Values the suite makes up fresh for every request a profile template
// describes, so no two checks (and no two nightly runs against a sandbox that
// keeps its state) send the same data: an implementation may refuse a
// duplicate withdrawal address or a reused reference, and the spec allows it.
//
//   {uuid}          a random version-4 UUID
//   {unique}        16 lower-case letters and digits: time-ordered, then random
//   {uniqueDigits}  10 digits, below 2^32 (a destination tag, a numeric reference)
//   {now}           the current time, ISO 8601 in UTC
//   {nowUnix}       the current Unix time in seconds
import { randomBytes, randomInt } from 'node:crypto';
import { fillJson, type Variables } from './template.ts';

export const GENERATED_PLACEHOLDERS = ['uuid', 'unique', 'uniqueDigits', 'now', 'nowUnix'] as const;

const UINT32_MAX = 2 ** 32 - 1;

function unique(): string {
  const time = Date.now().toString(36).padStart(9, '0');
  const random = BigInt(`0x${randomBytes(6).toString('hex')}`).toString(36).padStart(10, '0');
  return `${time}${random}`.slice(-16);
}

/** A fresh set of generated values; a template filled with one set uses each value wherever it names it. */
export function freshValues(now = new Date()): Variables {
  return {
    uuid: crypto.randomUUID(),
    unique: unique(),
    uniqueDigits: String(randomInt(1_000_000_000, UINT32_MAX)),
    now: now.toISOString(),
    nowUnix: Math.floor(now.getTime() / 1000),
  };
}

/** A profile value (e.g. a request body) with its generated placeholders filled afresh; other placeholders stay. */
export function withFreshValues<T>(template: T, extra: Variables = {}): T {
  return fillJson(template, { ...freshValues(), ...extra }) as T;
}

/** True when a template names one of the generated placeholders, i.e. every fill differs. */
export function variesPerRequest(template: unknown): boolean {
  const text = JSON.stringify(template) ?? '';
  return GENERATED_PLACEHOLDERS.some((name) => text.includes(`{${name}}`));
}
