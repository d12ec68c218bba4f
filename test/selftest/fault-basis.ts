// What each reference fault must be caught on (issue 29: "the self-test
// checks the basis"): the check that concerns it and what its FAIL (or a
// SHOULD or REVIEW check's WARN) rests on — a catalogue sentence id (the
// spec's words or a standard's section, schemas/requirements.json) or
// `profile:KEY`, the profile's declaration. The self-test fails a fault
// caught only on another basis, and lists as collateral every other check's
// finding in the fault's run: a FAIL must name only its own fault.
// A fault caught by more than one check lists each; PTAS_SELFTEST_BASIS=file
// writes what a run observed, in this shape.

/** A check id and the basis name of its finding (test/support/selftest.ts basisName). */
export type ExpectedCatch = readonly [check: string, basis: string];

export const FAULT_BASIS: Record<string, readonly ExpectedCatch[]> = {};
