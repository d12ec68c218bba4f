// A replay file: one finding's shrunk case, with the seed and path fast-check
// found it by, written beside the run's results (`<out>/explore/<check>.json`).
// `ptas explore --replay FILE` runs the case itself again: the case is data,
// so it replays even when the generators changed since (a seed and path only
// replay under the same generators; they are kept for fast-check's own replay).
import { readFileSync } from 'node:fs';
import { ConfigError } from '../src/config/errors.ts';

export const REPLAY_FORMAT = 'ptas-explore-replay/1';

export interface ReplayFile {
  format: typeof REPLAY_FORMAT;
  /** The explored area, and the check the case contradicted. */
  area: string;
  check: string;
  description: string;
  seed: number;
  path: string;
  shrinks: number;
  suiteVersion: string;
  case: unknown;
}

/** Where a finding's replay file goes, relative to the run's output folder. */
export function replayFileName(checkId: string): string {
  return `explore/${checkId}.replay.json`;
}

export function readReplayFile(file: string): ReplayFile {
  let text: string;
  let parsed: unknown;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`--replay ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)}); give the path of a replay file an exploration wrote to <out>/explore/`);
  }
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`--replay ${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const replay = parsed as Partial<ReplayFile>;
  if (replay?.format !== REPLAY_FORMAT) throw new ConfigError(`--replay ${file}: not a replay file of ptas explore (its "format" is not "${REPLAY_FORMAT}")`);
  for (const key of ['area', 'check', 'description'] as const) {
    if (typeof replay[key] !== 'string') throw new ConfigError(`--replay ${file}: "${key}" is missing or not a string`);
  }
  if (replay.case === undefined) throw new ConfigError(`--replay ${file}: it holds no "case"`);
  return replay as ReplayFile;
}
