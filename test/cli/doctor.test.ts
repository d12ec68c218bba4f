// `ptas doctor` as a newcomer meets it (issue 12): on the bundled reference
// with its own profile every configured operation works (exit 0, quickly);
// a profile with one broken template or one wrong recipe declaration is
// named (exit 2) with the fix; an unreachable target is exit 3. The real CLI
// against the real reference: nothing is mocked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPtas } from '../support/cli.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { offerRecipes } from '../../src/config/sections/offer-recipes.ts';
import type { TradingProfile } from '../../src/config/sections/trading.ts';
import type { DoctorSummary } from '../../app/doctor/table.ts';

/** The trading section `ptas doctor` gives the reference it starts (default options, so the same seeded users). */
function referenceTrading(): TradingProfile {
  return referenceProfile('http://127.0.0.1:1', { clientSecret: 'unused' }).trading!;
}

function profileFile(profile: object): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ptas-doctor-')), 'profile.json');
  writeFileSync(file, JSON.stringify(profile, null, 2));
  return file;
}

/** The table row of an operation: "OK      accept offer fast (trading.offerRecipes.fast) …". */
function row(stdout: string, outcome: string, operation: string): RegExp {
  return new RegExp(`^${outcome}\\s+${operation.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm');
}

test('ptas doctor on the bundled reference: every configured operation OK, exit 0, well under 10 s of work', async () => {
  const secret = `ref-doctor-${Date.now()}-secret`;
  const run = await runPtas(['doctor'], { env: { PTAS_REFERENCE_CLIENT_SECRET: secret } });
  console.log(`ptas doctor took ${Math.round(run.durationMs)} ms (process start, reference start and all steps)`);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const out = run.stdout;
  for (const operation of ['token (credentials)', 'user details (users.existingUserId)', 'create user (trading.createUser)']) {
    assert.match(out, row(out, 'OK', operation), `${operation} is OK`);
  }
  const recipes = offerRecipes(referenceTrading())!;
  assert.ok(recipes.answering200.length && recipes.answering202.length, 'the reference declares a 200 and a 202 recipe');
  for (const recipe of recipes.all) {
    assert.match(out, row(out, 'OK', `create offer ${recipe.name} (${recipe.declaredBy})`));
    if (recipe.acceptAnswers) assert.match(out, row(out, 'OK', `accept offer ${recipe.name} (${recipe.declaredBy})`));
  }
  assert.match(out, row(out, 'OK', `status after 200 ${recipes.answering200[0]!.name} (trading.offerStatus)`));
  assert.match(out, new RegExp(`^OK\\s+status after 202 ${recipes.answering202[0]!.name} \\(trading\\.offerStatus\\).*\\(terminal\\) after`, 'm'));
  for (const operation of ['webhook address (webhooks.register)', 'webhook event (webhooks.trigger)', 'webhook signature (webhooks.signature)', 'token JWKS (auth.jwksUrl)']) {
    assert.match(out, row(out, 'OK', operation), `${operation} is OK`);
  }
  assert.doesNotMatch(out, /^PROBLEM/m);
  assert.match(out, /every configured operation works/);
  const requests = Number(/; (\d+) requests in/.exec(out)?.[1]);
  assert.ok(requests > 0 && requests <= 25, `a bounded handful of requests (${requests})`);
  // Generous for a loaded CI machine; on an idle one the whole command takes about 3 s.
  assert.ok(run.durationMs < 20_000, `took ${run.durationMs} ms`);
  assert.ok(!out.includes(secret) && !run.stderr.includes(secret), 'the client secret never appears');
  assert.doesNotMatch(out, /eyJ[A-Za-z0-9_-]{4,}\./, 'no token appears');
});

test('a profile whose createOffer path is wrong: exit 2, trading.createOffer named with the request sent and the fix', async () => {
  const trading = referenceTrading();
  const file = profileFile({ trading: { ...trading, createOffer: { ...trading.createOffer!, path: '/reference/v1/usrs/{userId}/offers' } } });
  const run = await runPtas(['doctor', '-c', file]);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /broken: trading\.createOffer$/m, 'the one broken key, and only it');
  assert.match(run.stdout, /^PROBLEM\s+create offer \S+ \(trading\.createOffer\)\s+POST \/reference\/v1\/usrs\//m);
  assert.match(run.stdout, /problem: trading\.createOffer answered 404/);
  assert.match(run.stdout, /fix: check its method and path.*\(sent POST \/reference\/v1\/usrs\/[0-9a-f]{8}…\/offers\)/);
  assert.match(run.stdout, /^SKIPPED\s+create offer .*not run: trading\.createOffer is broken/m, 'the other recipes are not tried against the same broken template');
  // What works still says so: the problem is the template, not the target.
  assert.match(run.stdout, /^OK\s+token \(credentials\)/m);
  assert.match(run.stdout, /^OK\s+webhook event \(webhooks\.trigger\)/m);
});

test('a recipe declaring acceptAnswers 202 whose offers answer 200: exit 2 naming that recipe (--json)', async () => {
  const { offerRecipes: declared, fastProcessingMs: _a, slowProcessingMs: _b, expiryValiditySeconds: _c, ...trading } = referenceTrading();
  const recipes = { ...declared, notSlow: { values: { processingMs: 10 }, acceptAnswers: 202 } };
  const file = profileFile({ trading: { ...trading, offerRecipes: recipes } });
  const run = await runPtas(['doctor', '-c', file, '--json']);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(run.stderr, /broken: trading\.offerRecipes\.notSlow$/m);
  const summary = JSON.parse(run.stdout) as DoctorSummary;
  assert.deepEqual(summary.broken, ['trading.offerRecipes.notSlow']);
  const accept = summary.rows.find((r) => r.operation === 'accept offer notSlow');
  assert.equal(accept?.outcome, 'PROBLEM', JSON.stringify(summary.rows, null, 2));
  assert.match(accept!.problem!, /declares acceptAnswers 202, the accept answered 200/);
  assert.match(accept!.fix!, /does not make a slow offer/);
  assert.match(accept!.request!, /^PATCH \/v1\/offers\/\S+\/accept$/);
  assert.equal(summary.rows.find((r) => r.operation === 'create offer notSlow')?.outcome, 'OK', 'the offer itself was made');
});

/** The per-request time limit of the unreachable-target test: a wait for it would show as a run of a minute. */
const UNREACHABLE_TIMEOUT_MS = 60_000;

test('an unreachable target: exit 3 within seconds, naming the address', async () => {
  const run = await runPtas(['doctor', '--base-url', 'http://127.0.0.1:9', '--client-id', 'x'], { env: { PTAS_CLIENT_SECRET: 'irrelevant-secret', PTAS_TIMEOUT_MS: String(UNREACHABLE_TIMEOUT_MS) } });
  assert.equal(run.code, 3, run.stdout + run.stderr);
  assert.match(run.stderr, /127\.0\.0\.1:9.*unreachable.*CONNECTION_REFUSED/);
  // Refused at once, not after the per-request time limit: half of it is far beyond a loaded machine's slowness.
  assert.ok(run.durationMs < UNREACHABLE_TIMEOUT_MS / 2, `took ${run.durationMs} ms`);
});

test('a profile without a key a required check needs: the doctor lists it for certification, with the checks that would SKIP; alternatives as "or"', async () => {
  const { pollDeadlineMs: _deadline, ...trading } = referenceTrading();
  // A section of the file replaces the reference's own: this users section names no existing user.
  const file = profileFile({ trading, users: { languages: ['en'] } });
  const run = await runPtas(['doctor', '-c', file, '--json']);
  const summary = JSON.parse(run.stdout) as DoctorSummary;
  const needs = Object.fromEntries(summary.certificationNeeds.map((need) => [need.keys.join(' or '), need.checks]));
  assert.deepEqual(needs['trading.pollDeadlineMs'], ['trading.accepted-202-reaches-terminal-status'], JSON.stringify(summary.certificationNeeds));
  assert.ok(needs['auth.protectedPath or users.existingUserId']?.includes('auth.access-token-opens-api'), 'a need either key meets says so');
  assert.ok(needs['users.existingUserId']?.includes('users.details-schema'), 'a key needed on its own is listed on its own');
  const table = await runPtas(['doctor', '-c', file]);
  assert.match(table.stdout, /^certification: \d+ required checks? would SKIP, and ptas verify refuses a bundle with one; set$/m);
  assert.match(table.stdout, /^ {2}trading\.pollDeadlineMs: trading\.accepted-202-reaches-terminal-status$/m);
  const complete = await runPtas(['doctor', '--json']);
  assert.deepEqual((JSON.parse(complete.stdout) as DoctorSummary).certificationNeeds, [], "the reference's own profile needs nothing more");
});
