// The store of `ptas serve` (app/serve/store/, tokens.ts, shares.ts): records
// written whole or not at all, even under SIGKILL; the run list rebuilt from
// the bundles alone; tokens and share links kept only as SHA-256 hashes, and
// revocable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';
import type { RunResults } from '../../src/results/model.ts';
import { writeReport } from '../../reports/write.ts';
import { writeBundle } from '../../app/certify/write-bundle.ts';
import type { ImplementationRecord, RunRecord } from '../../app/serve/contract.ts';
import { RunQueue } from '../../app/serve/queue.ts';
import { ShareStore } from '../../app/serve/shares.ts';
import { readJsonFile, writeJsonAtomic } from '../../app/serve/store/atomic.ts';
import { ImplementationStore } from '../../app/serve/store/implementations.ts';
import { StoreLayout } from '../../app/serve/store/layout.ts';
import { rebuildIndex } from '../../app/serve/store/rebuild-index.ts';
import { RunStore } from '../../app/serve/store/runs.ts';
import { TokenStore } from '../../app/serve/tokens.ts';
import { run as sampleRun } from '../support/waiver-fixtures.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-store-'));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('a record is written whole or not at all: a writer killed mid-write leaves a complete record, and its temporary files go at the next start', { timeout: 60_000 }, async () => {
  const layout = new StoreLayout(tmp());
  layout.ensure();
  // A writer that rewrites one implementation as fast as it can, each version 2 MB and self-checking.
  const script = path.join(layout.root, 'writer.ts');
  writeFileSync(
    script,
    `import { ImplementationStore } from ${JSON.stringify(fromRoot('app', 'serve', 'store', 'implementations.ts'))};
import { StoreLayout } from ${JSON.stringify(fromRoot('app', 'serve', 'store', 'layout.ts'))};
const store = new ImplementationStore(new StoreLayout(${JSON.stringify(layout.root)}));
for (let version = 0; ; version++) {
  const filler = String(version % 10).repeat(2_000_000);
  store.save({ id: 'acme', name: String(version), profileText: filler, createdAt: '', updatedAt: String(filler.length) });
  if (version === 2) process.stdout.write('writing\\n');
}
`,
  );
  const writer = spawn(process.execPath, ['--import', 'tsx', script], { cwd: fromRoot(), stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => writer.stdout.once('data', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 150));
  writer.kill('SIGKILL');
  await new Promise((resolve) => writer.once('exit', resolve));

  const raw = readJsonFile<ImplementationRecord>(layout.implementationFile('acme'));
  assert.ok(raw, 'the record parses');
  assert.equal(raw.profileText.length, Number(raw.updatedAt), 'and is one whole version');
  assert.equal(new Set(raw.profileText).size, 1);
  const store = new ImplementationStore(layout);
  assert.deepEqual(
    readdirSync(layout.implementationsDir).filter((name) => name.endsWith('.tmp')),
    [],
    'the temporary file of the killed write is gone',
  );
  assert.deepEqual(store.list().map((i) => i.id), ['acme']);
});

/** A real bundle (reports and manifest) of these results under runs/<id>/bundle. */
function bundleOf(layout: StoreLayout, runId: string, results: RunResults, options: { grep?: string; nonce?: string } = {}): void {
  const dir = layout.bundleDir(runId);
  mkdirSync(dir, { recursive: true });
  writeReport(results, dir);
  writeBundle({ dir, results, profile: { salt: 'x', hashedSecrets: [], content: { name: results.run.implementation } }, tlsCertificateSha256: null, requiredChecks: [], ...options });
}

test('rebuildIndex: the run list from the bundles alone (results.json, manifest.json), and a store whose run.json files are lost or broken indexes them again', () => {
  const layout = new StoreLayout(tmp());
  layout.ensure();
  const acme: ImplementationRecord = { id: 'acme', name: 'Acme Payments', profileText: '{"baseUrl": "https://sandbox.example.com"}', createdAt: '', updatedAt: '' };
  new ImplementationStore(layout).save(acme);

  const older = sampleRun({ 'auth.refresh-token-single-use': 'PASS' });
  bundleOf(layout, 'run-acme-1', older, { grep: '@area:auth', nonce: 'n-1' });
  const newer = sampleRun();
  newer.run = { ...newer.run, startedAt: '2027-01-01T21:00:00.000Z', finishedAt: '2027-01-01T21:05:00.000Z', implementation: 'Acme Payments' };
  bundleOf(layout, 'run-acme-2', newer);
  const reference = sampleRun({ 'auth.refresh-token-single-use': 'PASS' });
  reference.run = { ...reference.run, startedAt: '2027-01-02T21:00:00.000Z', target: 'http://127.0.0.1:40000', reference: { faults: [], variants: [], conditions: [] }, interrupted: 'interrupted (SIGINT)' };
  reference.verdict = 'INCOMPLETE';
  bundleOf(layout, 'run-ref', reference);
  mkdirSync(layout.runDir('empty-run'), { recursive: true });
  mkdirSync(path.join(layout.runsDir, 'not an id'), { recursive: true });

  const index = rebuildIndex(layout.runsDir, [acme]);
  assert.deepEqual(index.map((r) => r.id), ['run-ref', 'run-acme-2', 'run-acme-1'], 'newest first; a folder without a bundle is left out');
  const byId = new Map(index.map((r) => [r.id, r]));
  assert.deepEqual(
    { ...byId.get('run-acme-1')!, note: undefined },
    {
      id: 'run-acme-1',
      implementation: 'acme',
      options: { load: false, grep: '@area:auth', nonce: 'n-1' },
      status: 'finished',
      createdAt: older.run.startedAt,
      startedAt: older.run.startedAt,
      finishedAt: older.run.finishedAt,
      verdict: 'CONFORMANT',
      counts: older.counts,
      note: undefined,
    },
  );
  assert.equal(byId.get('run-acme-2')!.implementation, 'acme', 'matched by name');
  assert.equal(byId.get('run-acme-2')!.verdict, 'NOT CONFORMANT');
  assert.equal(byId.get('run-ref')!.implementation, 'reference');
  assert.equal(byId.get('run-ref')!.verdict, 'INCOMPLETE');
  assert.match(byId.get('run-ref')!.note!, /interrupted \(SIGINT\): the bundle is partial/);
  assert.equal(rebuildIndex(layout.runsDir).find((r) => r.id === 'run-acme-1')!.implementation, 'unknown', 'no implementation to match: unknown');

  // The store at start-up: no run.json anywhere, one broken one; every bundle is indexed and its run.json written.
  writeFileSync(layout.runFile('run-acme-2'), '{"id": "run-acme-2", "stat');
  const store = new RunStore(layout, () => [acme]);
  assert.deepEqual(store.list().map((r) => r.id), ['run-ref', 'run-acme-2', 'run-acme-1']);
  for (const id of ['run-ref', 'run-acme-2', 'run-acme-1']) assert.deepEqual(readJsonFile<RunRecord>(layout.runFile(id)), byId.get(id), id);
  assert.equal(existsSync(layout.runFile('empty-run')), false);
  // A run.json that is there wins over the bundle.
  writeJsonAtomic(layout.runFile('run-acme-1'), { ...byId.get('run-acme-1')!, note: 'kept' });
  assert.equal(new RunStore(layout).get('run-acme-1')!.note, 'kept');
});

test('tokens are stored as SHA-256 only, verified against every hash, and stop working when revoked (also for a store reading the file another process wrote)', () => {
  const layout = new StoreLayout(tmp());
  layout.ensure();
  const server = new TokenStore(layout.tokensFile);
  const first = server.createFirstRunToken()!;
  assert.equal(first.name, 'first-run');
  assert.match(first.token, /^ptas_[A-Za-z0-9_-]{43}$/);
  assert.equal(server.createFirstRunToken(), undefined, 'one live token: no other first-run token');
  const cli = new TokenStore(layout.tokensFile);
  const ci = cli.create('ci-nightly');
  const file = readFileSync(layout.tokensFile, 'utf8');
  assert.ok(!file.includes(first.token) && !file.includes(ci), 'no token in the clear');
  assert.ok(file.includes(sha256(ci)) && file.includes(sha256(first.token)));
  assert.deepEqual(server.verify(ci), { name: 'ci-nightly', role: 'admin' }, 'the server sees a token the CLI made');
  assert.deepEqual(server.verify(first.token), { name: 'first-run', role: 'admin' });
  for (const wrong of [undefined, '', 'ptas_', `${ci}x`, ci.slice(0, -1), sha256(ci)]) assert.equal(server.verify(wrong), undefined, String(wrong));
  assert.throws(() => cli.create('ci-nightly'), /a token named ci-nightly exists; revoke it first/);
  assert.throws(() => cli.create('../x'), /a token name is/);

  assert.equal(cli.revoke('ci-nightly'), true);
  assert.equal(cli.revoke('ci-nightly'), false, 'revoked once');
  assert.equal(server.verify(ci), undefined, 'the server sees the revocation at once');
  assert.deepEqual(server.verify(first.token), { name: 'first-run', role: 'admin' });
  assert.ok(server.list().find((t) => t.name === 'ci-nightly')!.revokedAt);
  assert.ok(server.list().every((t) => !('sha256' in t)), 'the list shows no hash');
  const renewed = cli.create('ci-nightly');
  assert.deepEqual(server.verify(renewed), { name: 'ci-nightly', role: 'admin' });
  assert.equal(server.verify(ci), undefined, 'the old one stays revoked');

  server.revoke('first-run');
  server.revoke('ci-nightly');
  assert.equal(server.verify(first.token), undefined);
  assert.equal(server.createFirstRunToken()!.name, 'first-run-2', 'no live token left: a new first-run token');
});

test('tokens have roles and may expire: an expired one verifies no more, is not live, and a store with only expired ones makes a first-run token; one stored before roles is admin', () => {
  const layout = new StoreLayout(tmp());
  layout.ensure();
  let now = Date.parse('2026-11-27T10:00:00Z');
  const tokens = new TokenStore(layout.tokensFile, () => now);
  const viewer = tokens.create('auditor', { role: 'viewer', expiresInMs: 3_600_000 });
  assert.deepEqual(tokens.verify(viewer), { name: 'auditor', role: 'viewer' });
  assert.deepEqual(tokens.list().map((t) => [t.name, t.role, t.expiresAt]), [['auditor', 'viewer', '2026-11-27T11:00:00.000Z']]);
  assert.throws(() => tokens.create('x', { expiresInMs: 0 }), /expires a positive time/);
  now += 3_600_000;
  assert.equal(tokens.verify(viewer), undefined, 'expired at its time');
  assert.equal(tokens.isLiveInfo(tokens.list()[0]!), false);
  assert.equal(tokens.revoke('auditor'), false, 'nothing live to revoke');
  assert.equal(tokens.createFirstRunToken()?.name, 'first-run', 'only an expired token left: a first start makes one');
  const again = tokens.create('auditor', { role: 'certifier' });
  assert.deepEqual(tokens.verify(again), { name: 'auditor', role: 'certifier' }, 'the name of an expired token may be used again');
  // A token stored before roles and expiry existed.
  writeFileSync(layout.tokensFile, JSON.stringify({ tokens: [{ name: 'old', sha256: sha256('ptas_old'), createdAt: '2026-01-01T00:00:00.000Z' }] }));
  assert.deepEqual(new TokenStore(layout.tokensFile).verify('ptas_old'), { name: 'old', role: 'admin' });
});

test('share links: unguessable, stored hashed, each resolving to its run until the run\'s links are revoked', () => {
  const layout = new StoreLayout(tmp());
  layout.ensure();
  const shares = new ShareStore(layout.sharesFile);
  const a = shares.create('run-a').token;
  const b = shares.create('run-a').token;
  const c = shares.create('run-b').token;
  assert.match(a, /^[A-Za-z0-9_-]{32}$/);
  assert.notEqual(a, b);
  assert.ok(!readFileSync(layout.sharesFile, 'utf8').includes(a));
  const reopened = new ShareStore(layout.sharesFile);
  assert.equal(reopened.resolve(a)?.runId, 'run-a');
  assert.equal(reopened.resolve(c)?.runId, 'run-b');
  assert.equal(reopened.resolve('A'.repeat(32)), undefined);
  assert.equal(reopened.revoke('run-a'), 2);
  assert.equal(reopened.resolve(a), undefined);
  assert.equal(reopened.resolve(b), undefined);
  assert.equal(new ShareStore(layout.sharesFile).resolve(c)?.runId, 'run-b', 'the other run\'s link lives on, after a restart too');
});

test('share links: one that expires stops resolving then; each is listed by its public id, never its token, and revoked alone', () => {
  const layout = new StoreLayout(tmp());
  layout.ensure();
  let now = Date.parse('2026-11-27T10:00:00Z');
  const shares = new ShareStore(layout.sharesFile, () => now);
  const day = shares.create('run-a', { expiresInMs: 86_400_000, createdBy: 'certifier' });
  const forever = shares.create('run-a');
  assert.equal(day.share.expiresAt, '2026-11-28T10:00:00.000Z');
  assert.equal(day.share.createdBy, 'certifier');
  assert.match(day.share.id, /^[0-9a-f]{12}$/);
  assert.equal(shares.resolve(day.token)?.expiresAt, day.share.expiresAt);
  now += 86_400_000;
  assert.equal(shares.resolve(day.token), undefined, 'expired at its time');
  assert.equal(shares.resolve(forever.token)?.runId, 'run-a');
  const listed = shares.list('run-a');
  assert.deepEqual(listed.map((s) => [s.id, s.live]), [[day.share.id, false], [forever.share.id, true]]);
  assert.ok(!JSON.stringify(listed).includes(forever.token), 'no token in the list');
  const other = shares.create('run-a');
  assert.equal(shares.revoke('run-a', forever.share.id), 1);
  assert.equal(shares.revoke('run-a', forever.share.id), 0, 'revoked already');
  assert.equal(shares.resolve(forever.token), undefined);
  assert.equal(shares.resolve(other.token)?.runId, 'run-a', 'the run\'s other link lives on');
  assert.equal(shares.revoke('run-b', other.share.id), 0, 'an id of another run revokes nothing');
  assert.ok(new ShareStore(layout.sharesFile).list('run-a').find((s) => s.id === forever.share.id)?.revokedAt, 'kept across a restart');
});

test('the queue: one run at a time per implementation, at most maxConcurrent over all, in the order asked, positions per implementation', () => {
  const queue = new RunQueue(2);
  for (const [runId, implementation] of [
    ['a1', 'a'],
    ['a2', 'a'],
    ['b1', 'b'],
    ['c1', 'c'],
    ['a3', 'a'],
  ]) queue.enqueue({ runId: runId!, implementation: implementation! });
  assert.deepEqual(queue.startable().map((r) => r.runId), ['a1', 'b1']);
  assert.deepEqual([...queue.positions()], [['a2', 1], ['c1', 1], ['a3', 2]]);
  assert.deepEqual(queue.startable(), [], 'two at once');
  queue.finished('b1');
  assert.deepEqual(queue.startable().map((r) => r.runId), ['c1'], 'a2 waits for a1, c1 goes ahead');
  assert.equal(queue.remove('a2'), true);
  assert.deepEqual([...queue.positions()], [['a3', 1]]);
  queue.finished('a1');
  assert.deepEqual(queue.startable().map((r) => r.runId), ['a3']);
  assert.throws(() => new RunQueue(0));
  const one = new RunQueue();
  one.enqueue({ runId: 'x', implementation: 'x' });
  one.enqueue({ runId: 'y', implementation: 'y' });
  assert.deepEqual(one.startable().map((r) => r.runId), ['x']);
  assert.deepEqual([...one.positions()], [['y', 1]]);
});
