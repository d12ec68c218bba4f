// check.need(profile, key, missing): the profile's value at a dotted key, or
// the SKIP that names the key to set. The suites' helpers that use it skip
// with the reasons and keys they gave when each wrote its own condition
// (app/init/unlocks.json is generated from those keys).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckContext, CheckSkip } from '../../runner/index.ts';
import { Redactor } from '../../src/http/redact.ts';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { profileValue } from '../../src/config/key-path.ts';
import { existingUserId, requireAssetValue } from '../../suites/users/support.ts';
import { ownerAndOtherUser, pollOffer, statusSettings, tradingSection, type CreatedOffer } from '../../suites/trading/support.ts';
import { withdrawalFixture } from '../../suites/crypto-transfers/support.ts';
import type { HttpClient } from '../../src/http/client.ts';

const base: ResolvedProfile = { baseUrl: 'http://127.0.0.1:1', credentials: { clientId: 'c', clientSecret: 'secret-value' } };
const operation = { method: 'POST', path: '/x' } as const;

/** The SKIP a call ends with: its reason and key. */
async function skipOf(run: (check: CheckContext) => unknown): Promise<{ reason: string; configKey?: string }> {
  const check = new CheckContext(new Redactor([['secret-value', 'client_secret']]));
  try {
    await run(check);
  } catch (error) {
    assert.ok(error instanceof CheckSkip, String(error));
    assert.deepEqual(check.skipped, { reason: error.message, configKey: error.configKey });
    return check.skipped!;
  }
  assert.fail('did not skip');
}

test('need returns the value at the key, typed', () => {
  const check = new CheckContext(new Redactor());
  const profile: ResolvedProfile = { ...base, trading: { createOffer: { ...operation, extract: { offerId: '/id' } }, terminalStatuses: ['done'] } };
  const template = check.need(profile, 'trading.createOffer', 'no operation');
  assert.equal(template.path, '/x');
  assert.equal(check.need(profile, 'trading.createOffer.extract.offerId', 'no extract'), '/id');
  assert.deepEqual(check.need(profile, 'trading.terminalStatuses', 'no list'), ['done']);
  assert.equal(profileValue(profile, 'trading.offerStatus.extract.status'), undefined);
});

test('need skips naming the key when the value is absent, empty or an empty list; the reason is redacted', async () => {
  assert.deepEqual(await skipOf((check) => check.need(base, 'trading.userId', 'no user')), {
    reason: 'no user (set trading.userId in the profile to run it)',
    configKey: 'trading.userId',
  });
  assert.equal((await skipOf((check) => check.need({ ...base, trading: { userId: '' } }, 'trading.userId', 'no user'))).configKey, 'trading.userId');
  assert.equal((await skipOf((check) => check.need({ ...base, trading: { terminalStatuses: [] } }, 'trading.terminalStatuses', 'no list'))).configKey, 'trading.terminalStatuses');
  assert.equal((await skipOf((check) => check.need(base, 'users.existingUserId', 'no user for secret-value'))).reason.includes('secret-value'), false);
});

test("the suites' helpers skip with the reasons and keys they always gave", async () => {
  const http = {} as HttpClient;
  const expected: Array<[(check: CheckContext) => unknown, string, string]> = [
    [(check) => existingUserId(base, check), 'no user to read', 'users.existingUserId'],
    [(check) => requireAssetValue(base, check, 'source_asset_group', 'send with user_flow trade_swap'), 'no source_asset_group value to send with user_flow trade_swap', 'users.sourceAssetGroup'],
    [(check) => tradingSection(base, check), 'no operation to create a trade offer (not shown by the spec)', 'trading.createOffer'],
    [(check) => tradingSection({ ...base, trading: { createOffer: operation } }, check), 'trading.createOffer does not extract the offer id', 'trading.createOffer.extract.offerId'],
    [(check) => ownerAndOtherUser({ check, http, profile: { ...base, trading: { userId: 'u' } } }, 'bearer'), "no second user to try someone else's offer with", 'trading.otherUserId'],
    [(check) => ownerAndOtherUser({ check, http, profile: { ...base, trading: { userId: 'u', otherUserId: 'u' } } }, 'bearer'), 'trading.otherUserId is the same user as trading.userId', 'trading.otherUserId'],
    [(check) => statusSettings({}, check), 'no operation to read an offer status (not shown by the spec)', 'trading.offerStatus'],
    [(check) => statusSettings({ offerStatus: operation }, check), 'trading.offerStatus does not extract the status', 'trading.offerStatus.extract.status'],
    [(check) => statusSettings({ offerStatus: { ...operation, extract: { status: '/s' } } }, check), 'no list of terminal offer statuses', 'trading.terminalStatuses'],
    [
      (check) => pollOffer(check, http, { offerStatus: { ...operation, extract: { status: '/s' } }, terminalStatuses: ['done'] }, 'bearer', {} as CreatedOffer),
      'no deadline for polling the offer status after a 202',
      'trading.pollDeadlineMs',
    ],
    [(check) => withdrawalFixture(base, check), 'no user to create withdrawal addresses for', 'cryptoTransfers.userId'],
    [(check) => withdrawalFixture({ ...base, cryptoTransfers: { userId: 'u' } }, check), 'no withdrawal-address body the implementation accepts', 'cryptoTransfers.withdrawalAddress'],
  ];
  for (const [run, missing, key] of expected) {
    assert.deepEqual(await skipOf(run), { reason: `${missing} (set ${key} in the profile to run it)`, configKey: key });
  }
});
