// app/init/unlocks.json, the map of profile keys to the checks they unlock
// that `ptas init` writes into its comments, is what the suite does now: the
// suite runs again against the bundled reference (about half a minute) and
// the result must equal the committed file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeUnlocks } from '../../app/init/unlocks-run.ts';
import { UNLOCKS_COMMAND, describeUnlocksDrift, readNeeds, readUnlocks } from '../../app/init/unlocks.ts';

test('the committed map of what each profile key unlocks matches a fresh run of the suite', { timeout: 300_000 }, async () => {
  // One Playwright worker per round rather than two: this run looks for SKIPs, which do not depend on the worker count, and a
  // second worker per round costs another load of every check for checks that mostly skip at once.
  const current = await computeUnlocks({ workers: 1 });
  const committed = readUnlocks();
  const drift = describeUnlocksDrift({ unlocks: committed, needs: readNeeds() }, current);
  assert.ok(
    drift.length === 0,
    `app/init/unlocks.json is stale (+ a check now SKIPs without the key, - it no longer does, ~ it needs other keys):\n${drift.join('\n')}\nRefresh it with \`${UNLOCKS_COMMAND}\` and commit the result.`,
  );
  assert.ok((committed['trading.createOffer'] ?? []).length > 5, 'the map knows what trading.createOffer unlocks');
  assert.ok((committed['webhooks.register'] ?? []).length > 5, 'and keys a check only asks for once an earlier one is set');
});
