// The reference's rules for a withdrawal-address request body (spec 4.3
// shows the fields and types; which are required and the conditional rules
// are not shown, so these are the reference's own, documented here):
// - coin_network_id (UUID of a known coin network), address (1-128 visible
//   characters), host_type (KNOWN_VASP, UNKNOWN_VASP or SELF_HOSTED) and
//   user_owned (boolean) are always required;
// - host_type KNOWN_VASP requires host_id naming a VASP of the directory,
//   and host_name; UNKNOWN_VASP requires host_name;
// - user_owned false requires owner_legal_name (travel rule);
// - destination_tag is optional, and refused on networks without tags;
// - host_id is optional otherwise; an address without one is returned with
//   the nil UUID (2.3 gives host_id a UUID shape, so it cannot be empty).
// Every field present must have its documented type.
//
// Two legitimate variants change these rules (reference/variants/crypto-transfers.ts):
// directory-host-name makes host_name optional for a KNOWN_VASP and takes it
// from the directory; lenient-scalar-types reads "true"/"false" as booleans
// and a number as its decimal string, as many JSON APIs do.
import { UUID_SHAPE } from '../fixtures/ids.ts';
import type { CoinNetwork, Directory } from './directory.ts';

export const HOST_TYPES = ['KNOWN_VASP', 'UNKNOWN_VASP', 'SELF_HOSTED'] as const;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export interface AddressRequest {
  coinNetwork: CoinNetwork;
  address: string;
  destinationTag: string;
  hostType: string;
  hostName: string;
  hostId: string;
  userOwned: boolean;
  ownerLegalName: string;
}

export type AddressValidation = { ok: true; value: AddressRequest } | { ok: false; message: string };

export interface ValidationOptions {
  /** The wda-malformed-uuid-accepted fault: host_id is taken as sent. */
  hostIdUnchecked: boolean;
  /** The wda-known-vasp-rejected fault: KNOWN_VASP is missing from the accepted host types. */
  knownVaspRefused: boolean;
  /** The directory-host-name variant: a KNOWN_VASP's host_name is the directory's, whatever was sent. */
  hostNameFromDirectory?: boolean;
  /** The lenient-scalar-types variant: "true"/"false" strings and numbers are read as the type the field takes. */
  coerceScalars?: boolean;
}

const ADDRESS_SHAPE = /^[\x21-\x7e]{1,128}$/;
const STRING_FIELDS = ['coin_network_id', 'address', 'destination_tag', 'host_type', 'host_name', 'host_id', 'owner_legal_name'] as const;

function invalid(message: string): AddressValidation {
  return { ok: false, message };
}

/** The body with "true"/"false" read as booleans and finite numbers as strings where the field takes one. */
function coerced(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const name of STRING_FIELDS) {
    const value = out[name];
    if (typeof value === 'number' && Number.isFinite(value)) out[name] = String(value);
  }
  if (out.user_owned === 'true' || out.user_owned === 'false') out.user_owned = out.user_owned === 'true';
  return out;
}

export function validateAddressRequest(body: unknown, directory: Directory, options: ValidationOptions): AddressValidation {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return invalid('body must be a JSON object');
  const fields = options.coerceScalars ? coerced(body as Record<string, unknown>) : (body as Record<string, unknown>);
  for (const name of STRING_FIELDS) {
    if (fields[name] !== undefined && typeof fields[name] !== 'string') return invalid(`${name} must be a string`);
  }
  if (fields.user_owned !== undefined && typeof fields.user_owned !== 'boolean') return invalid('user_owned must be a boolean');
  const text = (name: (typeof STRING_FIELDS)[number]): string => (fields[name] as string | undefined) ?? '';

  const coinNetworkId = text('coin_network_id');
  if (!coinNetworkId) return invalid('coin_network_id is required');
  if (!UUID_SHAPE.test(coinNetworkId)) return invalid('coin_network_id must be a UUID');
  const coinNetwork = directory.coinNetworks.get(coinNetworkId.toLowerCase());
  if (!coinNetwork) return invalid('coin_network_id names no known coin network');

  const address = text('address');
  if (!ADDRESS_SHAPE.test(address)) return invalid('address is required: 1 to 128 visible characters');

  const destinationTag = text('destination_tag');
  if (destinationTag.length > 32) return invalid('destination_tag is longer than 32 characters');
  if (destinationTag && coinNetwork.destinationTagType === 'NONE') return invalid('this coin network takes no destination_tag');

  const hostType = text('host_type');
  const hostTypes = options.knownVaspRefused ? HOST_TYPES.filter((t) => t !== 'KNOWN_VASP') : HOST_TYPES;
  if (!(hostTypes as readonly string[]).includes(hostType)) return invalid(`host_type must be one of ${hostTypes.join(', ')}`);
  const hostId = text('host_id');
  if (hostId && !UUID_SHAPE.test(hostId) && !options.hostIdUnchecked) return invalid('host_id must be a UUID');
  let hostName = text('host_name');
  if (hostType === 'KNOWN_VASP') {
    if (!hostId) return invalid('host_id is required when host_type is KNOWN_VASP');
    const vasp = directory.vasps.get(hostId.toLowerCase());
    if (!vasp && !options.hostIdUnchecked) return invalid('host_id names no known VASP');
    if (vasp && options.hostNameFromDirectory) hostName = vasp.name;
  }
  if (hostType !== 'SELF_HOSTED' && !hostName) return invalid(`host_name is required when host_type is ${hostType}`);

  if (typeof fields.user_owned !== 'boolean') return invalid('user_owned is required');
  const ownerLegalName = text('owner_legal_name');
  if (!fields.user_owned && !ownerLegalName.trim()) return invalid('owner_legal_name is required when user_owned is false');

  return {
    ok: true,
    value: { coinNetwork, address, destinationTag, hostType, hostName, hostId: hostId || NIL_UUID, userOwned: fields.user_owned, ownerLegalName },
  };
}
