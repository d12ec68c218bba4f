// `ptas explore` as a user runs it (README "Exploring with generated cases"):
// against a broken reference it finds the fault, shrinks the case to what the
// fault needs, writes a replay file that `--replay` runs again, and exits 1;
// against the clean reference it finds nothing. The shrunk cases of three
// faults hold only what each fault needs, and each replays 10 times out of 10.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runPtas } from '../support/cli.ts';
import { startReference } from '../../reference/server.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { exploreArea, findingsOf, runCase } from '../../explore/engine.ts';
import { exploreTarget } from '../../explore/target.ts';
import { cryptoTransfersModel, type WdaCase } from '../../explore/areas/crypto-transfers.ts';
import { isUnexplorable, type AreaExplorer } from '../../explore/model.ts';
import { readReplayFile } from '../../explore/replay.ts';
import { EXPLORED_AREAS } from '../../explore/area-names.ts';
import type { RunResults } from '../../src/results/model.ts';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'ptas-explore-'));

test('ptas explore finds a fault, shrinks its case, writes a replay file that --replay runs again, and exits 1', async () => {
  const out = path.join(tmp(), 'explored');
  const fault = 'wda-owner-name-not-stored';
  const run = await runPtas(['explore', '--fault', fault, '--area', 'crypto-transfers', '--seed', '7', '--cases', '300', '--out', out]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /exploring crypto-transfers with generated cases .*seed 7/);
  assert.match(run.stdout, /explore\.crypto-transfers\.echoes-request contradicted by create with a valid bearer, the profile's user, the profile's body \(found after \d+ cases, shrunk \d+ times, reproduced 2\/2\)/);
  const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as RunResults;
  const echo = results.checks.find((c) => c.id === 'explore.crypto-transfers.echoes-request')!;
  assert.equal(echo.verdict, 'FAIL');
  assert.equal(echo.basis?.requirement, 'WDA-ECHOES-REQUEST');
  assert.match(echo.reason!, /owner_legal_name sent "Erika Mustermann", returned ""/);
  assert.ok(echo.evidence.length >= 1, 'the shrunk case is the evidence');
  assert.ok(echo.findings.some((f) => /seed -?\d+, shrunk \d+ times, reproduced 2\/2\).*ptas explore --replay explore\/explore\.crypto-transfers\.echoes-request\.replay\.json/.test(f.message)));
  // Every other rule of the area is a check too: exercised and not contradicted.
  assert.ok(results.checks.filter((c) => c.id.startsWith('explore.crypto-transfers.') && c.verdict === 'PASS').length >= 5);
  assert.equal(results.verdict, 'NOT CONFORMANT');
  assert.match(run.stdout, /NOT CERTIFIABLE: none of the \d+ required checks ran/);

  // Judged again offline by the installed suite, from the records: the judgments explored cases applied are the suite's own.
  const rejudged = await runPtas(['rejudge', out, '--out', path.join(tmp(), 'rejudged')]);
  assert.match(rejudged.stdout, /0 changed: NOT CONFORMANT → NOT CONFORMANT/, rejudged.stdout + rejudged.stderr);

  const replayFile = path.join(out, 'explore', 'explore.crypto-transfers.echoes-request.replay.json');
  const replay = readReplayFile(replayFile);
  assert.deepEqual(replay.case, { bearer: 'valid', user: 'declared', body: { kind: 'profile', changes: [] } });
  const again = await runPtas(['explore', '--fault', fault, '--replay', replayFile, '--out', path.join(tmp(), 'replayed')]);
  assert.equal(again.code, 1, again.stdout + again.stderr);
  assert.match(again.stdout, /the case contradicts explore\.crypto-transfers\.echoes-request again/);
});

test('ptas explore against the clean reference contradicts no rule (exit 0)', async () => {
  const out = path.join(tmp(), 'clean');
  const run = await runPtas(['explore', '--area', 'crypto-transfers', '--seed', '11', '--cases', '300', '--out', out]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /no rule contradicted/);
  assert.equal(existsSync(path.join(out, 'explore')), false, 'no finding, no replay file');
});

test('usage errors name what is wrong', async () => {
  const unknownArea = await runPtas(['explore', '--area', 'nowhere', '--base-url', 'http://127.0.0.1:9']);
  assert.equal(unknownArea.code, 2);
  assert.match(unknownArea.stderr, new RegExp(`--area nowhere: no such explored area \\(explored areas: ${EXPLORED_AREAS.join(", ")}\\)`));
  const badBudget = await runPtas(['explore', '--budget', 'soon']);
  assert.equal(badBudget.code, 2);
  assert.match(badBudget.stderr, /a duration of 1 s to 24 h, such as 60s, 2m or 90/);
  const notReplay = path.join(tmp(), 'not-a-replay.json');
  const noFile = await runPtas(['explore', '--replay', notReplay, '--base-url', 'http://127.0.0.1:9']);
  assert.equal(noFile.code, 2);
  assert.match(noFile.stderr, /--replay .*cannot read it \(ENOENT\); give the path of a replay file/);
});

/** Each fault, the shrunk case it needs, and why no less would do. */
const MINIMAL: Array<{ fault: string; check: string; needs: (c: WdaCase) => boolean; what: string }> = [
  {
    fault: 'wda-unknown-user-accepted',
    check: 'explore.crypto-transfers.unknown-user-refused',
    needs: (c) => c.bearer === 'valid' && c.user === 'unknown' && c.body.kind === 'profile' && c.body.changes.length === 0,
    what: "one create for an unknown user, with a valid bearer and the profile's body",
  },
  {
    fault: 'wda-malformed-uuid-accepted',
    check: 'explore.crypto-transfers.answers-hold-2-3',
    needs: (c) => c.bearer === 'valid' && c.user === 'declared' && c.body.kind === 'profile' && c.body.changes.length === 1 && c.body.changes[0]!.field === 'host_id',
    what: 'one create whose body changes host_id alone',
  },
  {
    fault: 'wda-bearer-signature-unchecked',
    check: 'explore.crypto-transfers.forged-bearer-refused',
    needs: (c) => c.bearer === 'forged' && c.user === 'declared' && c.body.kind === 'profile' && c.body.changes.length === 0,
    what: "one create with a forged bearer, the profile's user and body",
  },
];

for (const { fault, check, needs, what } of MINIMAL) {
  test(`the shrunk case of ${fault} is ${what}, and it replays 10 times out of 10`, async () => {
    const reference = await startReference({ port: 0, faults: [fault] });
    const target = exploreTarget(referenceProfile(reference.url, { faults: [fault] }));
    try {
      const exploration = await exploreArea(cryptoTransfersModel, target, { seed: 3, deadline: Date.now() + 60_000, maxCases: 600 });
      const finding = exploration.findings.find((f) => f.rule.id === check);
      assert.ok(finding, `exploration found ${check} (found: ${exploration.findings.map((f) => f.rule.id).join(', ') || 'nothing'})`);
      assert.ok(needs(finding.case as WdaCase), `the shrunk case holds only what the fault needs: ${finding.description}`);
      const prepared = cryptoTransfersModel.prepare(target.profile);
      assert.ok(!isUnexplorable(prepared));
      for (let i = 0; i < 10; i++) {
        const run = await runCase(prepared as AreaExplorer<WdaCase>, cryptoTransfersModel.rules, target, finding.case as WdaCase);
        assert.ok(findingsOf(run).some((rule) => rule.id === check), `replay ${i + 1} of 10 contradicts ${check}`);
      }
    } finally {
      await target.close();
      await reference.close();
    }
  });
}
