// The start-run form's choices as the API's run request (POST /api/runs):
// areas become a grep (@area:A|@area:B), empty fields are left out, and a
// one-run secret left empty is left to the server's environment. No DOM
// here, so the rules are tested on their own.
import type { RunOptionsInput } from '../app/serve/contract.ts';
import type { RunSecrets } from '../app/serve/profile-text.ts';
import { AREAS } from '../src/check/model.ts';

/** The areas a run may be narrowed to: the load probes have their own switch, the cross-cutting checks run with every area. */
export const RUN_AREAS = AREAS.filter((a) => a !== 'load' && a !== 'errors');

/** What the form holds. */
export interface RunChoices {
  areas?: string[];
  grep?: string;
  load?: boolean;
  /** Seconds of exploration with generated cases (0 or empty: none). */
  explore?: number;
  nonce?: string;
  /** The values typed for the profile's env:NAME references, by name. */
  secrets?: Record<string, string>;
  clientSecret?: string;
}

/** The run options of the form: areas or a grep (not both), the load stage, an exploration's seconds, the nonce; a message for the page when the choice cannot run. */
export function runOptionsOf(choices: RunChoices): RunOptionsInput | string {
  const grep = choices.grep?.trim();
  const areas = choices.areas ?? [];
  if (grep && areas.length) return 'choose areas or a grep, not both';
  if (grep) {
    try {
      new RegExp(grep);
    } catch {
      return `the grep is not a regular expression: ${grep}`;
    }
  }
  if (choices.explore !== undefined && (!Number.isInteger(choices.explore) || choices.explore < 0 || choices.explore > 600)) return 'explore for a whole number of seconds, 0 to 600';
  const options: RunOptionsInput = { load: choices.load ?? false };
  if (choices.explore) options.explore = choices.explore;
  if (grep) options.grep = grep;
  else if (areas.length) options.grep = areas.map((a) => `@area:${a}`).join('|');
  const nonce = choices.nonce?.trim();
  if (nonce) options.nonce = nonce;
  return options;
}

/** The one-run secrets given a value (an empty field means "from the server's environment"), or undefined for none. */
export function givenSecrets(choices: Pick<RunChoices, 'secrets' | 'clientSecret'>): RunSecrets | undefined {
  const env = Object.fromEntries(Object.entries(choices.secrets ?? {}).filter(([, value]) => value !== ''));
  const given: RunSecrets = { ...(Object.keys(env).length ? { env } : {}), ...(choices.clientSecret ? { clientSecret: choices.clientSecret } : {}) };
  return Object.keys(given).length ? given : undefined;
}
