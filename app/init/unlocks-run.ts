// Runs the suite against the bundled reference to find which checks each
// profile key unlocks (the method: app/init/unlocks.ts). Rounds: the first
// runs every check with only baseUrl and credentials; each later one reruns
// the checks that skipped, each with the reference's values of the keys it has
// named so far. Checks that have named the same keys share a target; every
// target gets a reference server of its own, so no two share a webhook
// receiving address or an offer history.
import { referenceProfile } from '../../reference/profile.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { runConformance } from '../run/conformance.ts';
import { spawnReferences } from '../run/reference-process.ts';
import type { RunTarget } from '../../runner/run-targets.ts';
import { bundleProfileSchema } from './schema-bundle.ts';
import { keysNamedBy, needGroups, setValueAt, valueAt, type NeedsMap, type Unlocks, type UnlocksMap } from './unlocks.ts';

/** Enough for the longest chain of keys a check tests one after another; more means a check keeps asking. */
const MAX_ROUNDS = 10;

/**
 * Settings that only pace checks (how long to watch for redeliveries, how
 * often to poll), given to every target so a check that gets to run does not
 * wait out the defaults (a 5 s webhook observation window, 16 times over):
 * this run wants SKIPs, not verdicts. None gates a check; a SKIP naming one
 * stops the run, as it would then have to be discovered like every other key.
 */
export const PACE_VALUES: Readonly<Record<string, unknown>> = {
  'webhooks.observationWindowMs': 100,
  'trading.pollIntervalMs': 20,
  'trading.pollMaxIntervalMs': 200,
};

interface Group {
  /** Keys set from the reference's profile, sorted. */
  keys: string[];
  checkIds: string[];
}

/** Playwright --grep for exactly these checks (not an id that merely starts with one of them). */
function grepFor(checkIds: string[]): string {
  const escaped = checkIds.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `@check:(?:${escaped.join('|')})(?:\\s|$)`;
}

function groupByKeys(pending: Map<string, string[]>): Group[] {
  const groups = new Map<string, Group>();
  for (const [checkId, keys] of pending) {
    const id = keys.join('\n');
    const group = groups.get(id) ?? { keys, checkIds: [] };
    group.checkIds.push(checkId);
    groups.set(id, group);
  }
  return [...groups.values()];
}

function profileWith(reference: ResolvedProfile, keys: string[]): ResolvedProfile {
  const profile = { name: reference.name, baseUrl: reference.baseUrl, credentials: reference.credentials };
  for (const [key, value] of Object.entries(PACE_VALUES)) setValueAt(profile, key, value);
  for (const key of keys) setValueAt(profile, key, valueAt(reference, key));
  return profile;
}

export interface UnlocksRunOptions {
  workers?: number;
  /** One line per round (default: nothing). */
  log?: (line: string) => void;
}

export async function computeUnlocks(options: UnlocksRunOptions = {}): Promise<Unlocks> {
  const topLevelKeys = new Set(Object.keys((bundleProfileSchema().properties ?? {}) as object));
  const unlocks: UnlocksMap = {};
  const needs: NeedsMap = {};
  // Check id → the keys its next run gets; round 1: every check (grep: none), no keys.
  let pending = new Map<string, string[]>([['*', []]]);
  for (let round = 1; pending.size; round++) {
    if (round > MAX_ROUNDS) throw new Error(`checks still name new profile keys after ${MAX_ROUNDS} rounds: ${[...pending.keys()].join(', ')}`);
    const groups = groupByKeys(pending);
    const farm = await spawnReferences(groups.map(() => ({})));
    const next = new Map<string, string[]>();
    try {
      const references = farm.servers.map((server) => referenceProfile(server.url, server.options));
      const targets: RunTarget[] = groups.map((group, i) => ({
        name: `unlocks-${i}`,
        profile: profileWith(references[i]!, group.keys),
        grep: round === 1 ? undefined : grepFor(group.checkIds),
      }));
      const output = await runConformance({ targets, progress: false, workers: options.workers ?? 2 });
      if (output.errors.length) throw new Error(`the check run reported errors: ${output.errors.join('; ')}`);
      for (const check of output.checks) {
        if (check.verdict !== 'SKIP' || !check.configKey) continue;
        const i = targets.findIndex((t) => t.name === check.target);
        const named = keysNamedBy(check.configKey, topLevelKeys);
        const pace = named.find((key) => key in PACE_VALUES);
        if (pace) throw new Error(`${check.id} skips naming ${pace}, which app/init/unlocks-run.ts sets to pace the run: remove it from PACE_VALUES`);
        // A key the profile has is not what the check missed (e.g. "the accept answered 200" naming the recipe).
        const missing = named.filter((key) => valueAt(targets[i]!.profile, key) === undefined);
        for (const key of missing) (unlocks[key] ??= []).push(check.id);
        (needs[check.id] ??= []).push(...needGroups(check.configKey, missing));
        const available = missing.filter((key) => valueAt(references[i], key) !== undefined);
        if (available.length) next.set(check.id, [...new Set([...groups[i]!.keys, ...available])].sort());
      }
    } finally {
      await farm.stop();
    }
    options.log?.(`round ${round}: ${groups.length} target(s); ${next.size} check(s) named a key the reference's profile sets`);
    pending = next;
  }
  return { unlocks, needs };
}
