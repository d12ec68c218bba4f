// What exploration alone finds of each reference fault of an explored area
// (README "Exploring with generated cases"): the explored rule whose
// finding catches it, or why it cannot by design. test/explore/sensitivity.test.ts
// holds exploration to this table over a fixed seed; `npm run bench --
// explore-sensitivity` measures it within a time budget.

export type Expected = { foundBy: string } | { notFound: string };

export const EXPLORED_FAULTS: Readonly<Record<string, Expected>> = {
  // crypto-transfers (4.3, 2.3)
  'wda-id-not-uuid': { foundBy: 'explore.crypto-transfers.answers-hold-2-3' },
  'wda-content-type-text': { foundBy: 'explore.crypto-transfers.answer-is-json' },
  'wda-owner-name-not-stored': { foundBy: 'explore.crypto-transfers.echoes-request' },
  'wda-created-at-local-offset': { foundBy: 'explore.crypto-transfers.answers-hold-2-3' },
  'wda-known-vasp-rejected': { foundBy: 'explore.crypto-transfers.declared-body-accepted' },
  'wda-user-header-optional': { foundBy: 'explore.crypto-transfers.user-header-required' },
  'wda-unknown-user-accepted': { foundBy: 'explore.crypto-transfers.unknown-user-refused' },
  'wda-bearer-not-required': { foundBy: 'explore.crypto-transfers.bearer-required' },
  'wda-bearer-signature-unchecked': { foundBy: 'explore.crypto-transfers.forged-bearer-refused' },
  'wda-malformed-uuid-accepted': { foundBy: 'explore.crypto-transfers.answers-hold-2-3' },
  'wda-parameter-error-409': { foundBy: 'explore.crypto-transfers.parameter-error-code' },
  'wda-long-owner-name-truncated': { foundBy: 'explore.crypto-transfers.echoes-request' },
  'wda-non-ascii-owner-name-mangled': { foundBy: 'explore.crypto-transfers.echoes-request' },
  'wda-omitted-field-500': {
    notFound:
      'a 500 to a body with destination_tag left out stored nothing: section 7 lists 500 for the operation and which fields are required is not shown, so exploration records it (REVIEW) rather than judge it; the hand-written required-fields check reports it',
  },
};
