// The "load" section of the reference's own implementation profile.
import type { LoadProfile } from '../../src/config/sections/load.ts';
import type { ReferenceOptions } from '../options.ts';

export function loadSection(_baseUrl: string, _options: ReferenceOptions): LoadProfile | undefined {
  return undefined;
}
