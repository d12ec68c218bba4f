// The names of `ptas init`'s presets (presets.ts renders them): apart, so
// that the command's --help lists them without loading the reference.
export const PRESETS = ['reference', 'deployed-api'] as const;
export type Preset = (typeof PRESETS)[number];
