// What a profile still needs for a certifiable run (app/certify/certification-needs.ts):
// the need groups of unlocks.json, met by any one key of a group, and the
// load probes' own: limits for a target not on this machine, a probe not
// turned off, offers to accept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { certificationNeeds } from '../../app/certify/certification-needs.ts';
import { needGroups } from '../../app/init/unlocks.ts';
import type { Profile } from '../../src/config/profile.ts';

const needs = {
  'a.check': [['trading.createOffer'], ['trading.createUser', 'trading.userId']],
  'b.check': [['trading.createOffer']],
  'not.required': [['users.termsCases']],
};
const byKeys = (profile: Profile, required: string[]) => Object.fromEntries(certificationNeeds(profile, required, needs).map((n) => [n.keys.join(' or '), n.checks]));

test('need groups: every group met by any one of its keys; unmet groups listed with the required checks waiting on them, most first', () => {
  const local = { baseUrl: 'http://127.0.0.1:8080' } as Profile;
  assert.deepEqual(certificationNeeds(local, ['a.check', 'b.check'], needs), [
    { keys: ['trading.createOffer'], checks: ['a.check', 'b.check'] },
    { keys: ['trading.createUser', 'trading.userId'], checks: ['a.check'] },
  ]);
  const withUser = { ...local, trading: { userId: 'u-1' } } as Profile;
  assert.deepEqual(Object.keys(byKeys(withUser, ['a.check', 'b.check'])), ['trading.createOffer'], 'one key of a choice meets it');
  assert.equal(byKeys(local, ['b.check'])['users.termsCases'], undefined, 'only required checks count');
});

test('the load probes: a target not on this machine needs load.caps; a probe turned off needs turning on; on loopback nothing', () => {
  const remote = { baseUrl: 'https://api.example.com', trading: { userId: 'u', createOffer: { method: 'POST', path: '/o' } } } as Profile;
  const load = ['load.token-rate-limit', 'load.accept-rate-limit', 'load.token-body-size-limit'];
  assert.deepEqual(byKeys(remote, load), { 'load.caps': ['load.token-rate-limit', 'load.accept-rate-limit'] });
  const capped = { ...remote, load: { caps: { rps: 100, durationSeconds: 10 }, probes: { tokenBodyLimit: false } } } as Profile;
  assert.deepEqual(byKeys(capped, load), { 'load.probes.tokenBodyLimit': ['load.token-body-size-limit'] });
  assert.deepEqual(byKeys({ ...remote, baseUrl: 'http://127.0.0.1:9' } as Profile, load), {});
});

test("a SKIP's keys are alternatives when its words offer a choice, else each is needed", () => {
  assert.deepEqual(needGroups('auth.jwksUrl (or auth.jwksFile)', ['auth.jwksUrl', 'auth.jwksFile']), [['auth.jwksFile', 'auth.jwksUrl']]);
  assert.deepEqual(needGroups('users.assetGroup / users.sourceAssetGroup', ['users.assetGroup', 'users.sourceAssetGroup']), [['users.assetGroup', 'users.sourceAssetGroup']]);
  assert.deepEqual(needGroups('trading.offerStatus, trading.terminalStatuses and trading.pollDeadlineMs', ['trading.offerStatus', 'trading.pollDeadlineMs']), [['trading.offerStatus'], ['trading.pollDeadlineMs']]);
});
