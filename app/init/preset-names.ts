// The names `ptas init`'s --help shows — its presets (presets.ts renders
// them) and the file it writes by default — apart, so that the command
// starts without loading the reference.
export const DEFAULT_PROFILE_FILE = 'ptas-profile.jsonc';
export const PRESETS = ['reference', 'deployed-api'] as const;
export type Preset = (typeof PRESETS)[number];
