// Legitimate variants of create withdrawal address (spec 4.3, 2.3, 7):
// answers the spec allows that the reference does not give by default.
// Switched on in reference/routes/crypto-transfers.ts (and the request rules
// of reference/crypto-transfers/address-request.ts) by ctx.variants.has(name).
import type { Variant } from './types.ts';

export const cryptoTransfersVariants: Variant[] = [
  {
    name: 'duplicate-address-refused',
    area: 'crypto-transfers',
    description:
      'A second address with the network, address and destination tag of one already in the user\'s address book is refused with 422 (parameter error) and stores nothing.',
    allowedBy:
      '4.3: "Which body fields are required and their conditional rules: not shown." An address book may hold each beneficiary address once; 7 names 422 a parameter error on the withdrawal-address operation and lists it there.',
  },
  {
    name: 'directory-host-name',
    area: 'crypto-transfers',
    description:
      'For host_type KNOWN_VASP, host_name is the registered name the VASP directory holds for host_id ("Reference Custody GmbH"), not the name sent ("Reference Custody"); host_name may then be left out.',
    allowedBy:
      '2.3: host_name is the "Name of the hosting provider", and for a KNOWN_VASP the service knows the provider (4.5 lists "List of VASPs"); which body fields are required: not shown (4.3).',
  },
  {
    name: 'owner-name-normalised',
    area: 'crypto-transfers',
    description: 'owner_legal_name is stored and returned trimmed, its whitespace collapsed, in Unicode NFC and upper case ("Erika Mustermann" → "ERIKA MUSTERMANN").',
    allowedBy:
      '1: the operation "registers a beneficiary address in the address book, with the beneficiary information required for travel-rule ... compliance"; 2.3: owner_legal_name is the "Legal name of the address owner". One canonical spelling of the same name is still that legal name; how it is stored: not shown.',
  },
  {
    name: 'unknown-user-403',
    area: 'crypto-transfers',
    description: 'A svc-user-id naming no user is refused 403 (forbidden) instead of 404: the client may not act for that user.',
    allowedBy: '7 lists 403 (forbidden) for create withdrawal address and ties no condition to it ("the condition that causes 400, 401, 403 ...: not shown").',
  },
  {
    name: 'missing-user-header-400',
    area: 'crypto-transfers',
    description: 'A request without svc-user-id is refused 400 (bad request) instead of 422.',
    allowedBy: '7 lists 400 for create withdrawal address (named "bad request" in the user-details row) and ties no condition to it: "the condition that causes 400 ...: not shown".',
  },
  {
    name: 'user-id-shape-unchecked',
    area: 'crypto-transfers',
    description: 'A svc-user-id that is not UUID-shaped is looked up like any other and refused as an unknown user (404, or 403 with unknown-user-403), not 422.',
    allowedBy:
      '4.3: svc-user-id is a "string, user id"; the UUID shape is given to the user resource\'s id (2.2), not as a rule the header is checked against, and 7 lists 404 ("record not found") for the operation.',
  },
  {
    name: 'lenient-scalar-types',
    area: 'crypto-transfers',
    description:
      'The request body is read leniently: user_owned "true" or "false" is taken as the boolean, a number in a string field as its decimal string; the address is created (200) and returned with the types of 2.3.',
    allowedBy:
      '4.3 gives each body field a type but "Which body fields are required and their conditional rules: not shown", and 7 ties no condition to 400 or 422 (it names 422 a parameter error, without saying every parameter error is refused). The answer still carries the types of 2.3.',
  },
];
