// How each sent field of a withdrawal address must come back (spec 1, 4.3,
// 2.3), decided per field from the spec's words. The operation "registers a
// beneficiary address in the address book, with the beneficiary information
// required for travel-rule and crypto-asset regulation compliance" (1): what
// the partner states about the beneficiary is registered as stated, though
// the service may store one canonical spelling of it. What names a host the
// service knows may come from the service's own records.
//
//   coin_network_id   an identifier of what the address is for: the same UUID
//                     (letter case of hex digits aside), else FAIL.
//   address           the beneficiary's address (2.3 "Crypto address"): surrounding
//                     whitespace or Unicode normalisation → INFO; letter case of a hex
//                     (0x…) or bech32 address → INFO, both encodings ignore it; other
//                     letter case → REVIEW (in base58, as on XRP and Bitcoin, case names
//                     another address); anything else, or empty → FAIL.
//   destination_tag   part of where funds go: whitespace or Unicode normalisation, or
//                     leading zeros of a numeric tag → INFO; anything else → FAIL.
//   user_owned        2.3 "Whether the address belongs to the user": the same boolean, else FAIL.
//   owner_legal_name  2.3 "Legal name of the address owner" (travel rule): whitespace,
//                     Unicode NFC, letter case → INFO (the same name); the same letters
//                     without diacritics → REVIEW (a transliteration, for a human); empty
//                     or another name → FAIL.
//   host_type, host_name, host_id
//                     2.3 host_name is the "Name of the hosting provider", and a KNOWN_VASP
//                     is one the service knows (4.5 lists "List of VASPs"): when KNOWN_VASP
//                     was sent or comes back, the service may take all three from its VASP
//                     directory → a difference is REVIEW (INFO when host_name only differs
//                     in spelling). Otherwise the host is what the partner stated:
//                     host_name by the name rule, host_type and host_id the same (case
//                     aside) or FAIL.
import type { WithdrawalAddressRequest } from '../../src/config/sections/crypto-transfers.ts';

export type EchoOutcome =
  | { kind: 'same' }
  /** The same value in another spelling: INFO. */
  | { kind: 'normalised'; how: string }
  /** May be the same or not: a human decides (REVIEW). */
  | { kind: 'review'; why: string }
  /** Another value, or none: FAIL. */
  | { kind: 'differs'; why: string };

const SAME: EchoOutcome = { kind: 'same' };
const KNOWN_VASP = 'KNOWN_VASP';

const canonical = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ');
const withoutMarks = (text: string) => canonical(text).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const caseless = (a: string, b: string) => a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();

/** 0x-prefixed hex (EVM) or bech32 (hrp "1" data): encodings whose letter case carries no meaning. */
const CASE_INSENSITIVE_ADDRESS = /^(?:0x[0-9a-f]+|[a-z]{1,83}1[02-9ac-hj-np-z]{6,})$/i;

function emptyOrNotText(got: unknown): EchoOutcome | undefined {
  if (typeof got !== 'string') return { kind: 'differs', why: `returned ${JSON.stringify(got ?? null)}, not a string` };
  if (!got.trim()) return { kind: 'differs', why: 'returned empty' };
  return undefined;
}

/** A person's or a company's name: the same name in another spelling is still that name. */
export function compareName(sent: string, got: unknown): EchoOutcome {
  if (got === sent) return SAME;
  const bad = emptyOrNotText(got);
  if (bad) return bad;
  const g = got as string;
  if (canonical(sent) === canonical(g)) return { kind: 'normalised', how: 'whitespace or Unicode normalisation' };
  if (caseless(canonical(sent), canonical(g))) return { kind: 'normalised', how: 'letter case' };
  if (withoutMarks(sent) === withoutMarks(g)) return { kind: 'review', why: 'the same letters without diacritics (a transliteration?)' };
  return { kind: 'differs', why: 'another name' };
}

export function compareAddress(sent: string, got: unknown): EchoOutcome {
  if (got === sent) return SAME;
  const bad = emptyOrNotText(got);
  if (bad) return bad;
  const g = got as string;
  if (canonical(sent) === canonical(g)) return { kind: 'normalised', how: 'surrounding whitespace or Unicode normalisation' };
  if (caseless(canonical(sent), canonical(g))) {
    if (CASE_INSENSITIVE_ADDRESS.test(canonical(sent))) return { kind: 'normalised', how: 'letter case of a hex or bech32 address, which names the same address' };
    return { kind: 'review', why: 'only letter case differs; in base58 (XRP, Bitcoin legacy) that names another address, in hex or bech32 the same one' };
  }
  return { kind: 'differs', why: 'another address' };
}

export function compareTag(sent: string, got: unknown): EchoOutcome {
  if (got === sent) return SAME;
  if (typeof got !== 'string') return { kind: 'differs', why: `returned ${JSON.stringify(got ?? null)}, not a string` };
  if (canonical(sent) === canonical(got)) return { kind: 'normalised', how: 'whitespace or Unicode normalisation' };
  const digits = /^\d+$/;
  if (digits.test(canonical(sent)) && digits.test(canonical(got)) && BigInt(canonical(sent)) === BigInt(canonical(got))) {
    return { kind: 'normalised', how: 'the same number without (or with) leading zeros' };
  }
  return { kind: 'differs', why: sent && !got ? 'returned empty' : 'another tag' };
}

/** An identifier or enumeration value: only its letter case may change (hex digits of a UUID, an enum's spelling). */
function compareIdentifier(sent: string, got: unknown, how = 'letter case of hex digits'): EchoOutcome {
  if (got === sent) return SAME;
  if (typeof got === 'string' && got.toLowerCase() === sent.toLowerCase()) return { kind: 'normalised', how };
  return { kind: 'differs', why: 'another value' };
}

function compareExact(sent: unknown, got: unknown): EchoOutcome {
  return got === sent ? SAME : { kind: 'differs', why: 'another value' };
}

/** A host field the service may fill from its VASP directory. */
function fromDirectory(field: string, sent: unknown, got: unknown): EchoOutcome {
  if (got === sent) return SAME;
  if (field === 'host_name' && typeof sent === 'string') {
    const asName = compareName(sent, got);
    if (asName.kind === 'normalised' || asName.kind === 'same') return asName;
  }
  if (field === 'host_id' && typeof sent === 'string' && typeof got === 'string' && sent.toLowerCase() === got.toLowerCase()) {
    return { kind: 'normalised', how: 'letter case of hex digits' };
  }
  return { kind: 'review', why: `the service may take ${field} of a KNOWN_VASP from its VASP directory (2.3 host_name: "Name of the hosting provider")` };
}

/** How one sent field came back. */
export function compareField(field: string, sent: WithdrawalAddressRequest, returned: Record<string, unknown>): EchoOutcome {
  const want = sent[field];
  const got = returned[field];
  const knownVasp = sent.host_type === KNOWN_VASP || returned.host_type === KNOWN_VASP;
  if (typeof want !== 'string') return compareExact(want, got);
  switch (field) {
    case 'coin_network_id':
      return compareIdentifier(want, got);
    case 'address':
      return compareAddress(want, got);
    case 'destination_tag':
      return compareTag(want, got);
    case 'owner_legal_name':
      return compareName(want, got);
    case 'host_type':
      return knownVasp ? fromDirectory(field, want, got) : compareIdentifier(want, got, 'letter case');
    case 'host_id':
      return knownVasp ? fromDirectory(field, want, got) : compareIdentifier(want, got);
    case 'host_name':
      return knownVasp ? fromDirectory(field, want, got) : compareName(want, got);
    default:
      return compareExact(want, got);
  }
}
