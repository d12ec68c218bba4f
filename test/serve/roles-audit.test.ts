// Per-token roles and the audit log (issue 30 item 7), on a real `ptas
// serve` server with its console. A viewer reads and nothing more; a
// certifier also runs, cancels and shares; an admin also edits
// implementations and reads the audit log: each refusal is 403 naming the
// role it needs, before the body is looked at, by the API and the console
// alike. An expired token works no more. The audit log holds who signed in,
// started, shared and edited what (ids, never a body), by which face, and
// what `ptas serve token` made; nothing for a refused request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../../app/serve/contract.ts';
import type { AuditEntry } from '../../app/serve/audit.ts';
import { ROLES } from '../../app/serve/roles.ts';
import { caller, consoleSignIn, startConsoleTestServer, waitForRun, type TestServer } from './support.ts';
import { runPtas } from '../support/cli.ts';

let lab: TestServer;
const narrowRun = { implementation: 'reference', options: { load: false, grep: '@check:auth.missing-bearer-is-401' } };
const profileText = '{\n  "name": "acme",\n  "baseUrl": "https://sandbox.acme.example",\n  "credentials": { "clientId": "partner-a", "clientSecret": "env:ACME_SECRET" }\n}\n';

before(async () => {
  lab = await startConsoleTestServer();
});

after(async () => {
  await lab?.close();
});

test('a viewer reads, a certifier also runs and shares, an admin also edits and reads the audit log; the console holds its sessions to the same roles', async () => {
  const viewer = caller(lab.url, lab.server.services.tokens.create('auditor', { role: 'viewer' }));
  const certifier = caller(lab.url, lab.server.services.tokens.create('ci', { role: 'certifier' }));
  const admin = lab.call;

  assert.equal((await viewer('GET', '/api/implementations')).status, 200);
  const refusedRun = await viewer('POST', '/api/runs', { body: narrowRun });
  assert.equal(refusedRun.status, 403);
  assert.deepEqual([refusedRun.json.error, refusedRun.json.message], ['forbidden', "this token's role is viewer; POST /api/runs needs certifier (ptas serve token create --role certifier)"]);
  assert.equal((await viewer('POST', '/api/runs', { body: { nonsense: true } })).status, 403, 'refused before the body is validated');
  assert.equal((await viewer('GET', '/api/audit')).status, 403);

  const started = await certifier('POST', '/api/runs', { body: narrowRun });
  assert.equal(started.status, 202, started.text);
  const run = await waitForRun(certifier, (started.json as RunRecord).id, ['finished']);
  assert.equal((await certifier('POST', `/api/runs/${run.id}/share`, { body: { expiresInDays: 1 } })).status, 201);
  assert.equal((await certifier('PUT', '/api/implementations/acme', { body: { name: 'Acme', profileText } })).status, 403);
  assert.equal((await certifier('GET', '/api/audit')).status, 403);
  assert.equal((await viewer('GET', `/api/runs/${run.id}/shares`)).status, 200, 'a viewer reads the share list');
  assert.equal((await viewer('DELETE', `/api/runs/${run.id}/share`)).status, 403);

  assert.equal((await admin('PUT', '/api/implementations/acme', { body: { name: 'Acme', profileText } })).status, 201);

  // The console: its session calls the API, held to its token's role: a viewer's reads and is refused a run; a certifier's starts one.
  const viewerSession = await consoleSignIn(lab.url, lab.server.services.tokens.create('viewer-console', { role: 'viewer' }));
  assert.deepEqual((await viewerSession.call('GET', '/console/api/session')).json, { signedInAs: 'viewer-console', role: 'viewer' });
  assert.equal((await viewerSession.call('GET', '/api/implementations')).status, 200);
  const consoleRefused = await viewerSession.call('POST', '/api/runs', { body: narrowRun });
  assert.equal(consoleRefused.status, 403);
  assert.match(consoleRefused.json.message, /this token's role is viewer; POST \/api\/runs needs certifier/);
  assert.equal((await viewerSession.call('PUT', '/api/implementations/acme', { body: { name: 'Acme', profileText } })).status, 403);
  assert.equal((await viewerSession.call('POST', '/api/doctor', { body: { profileText } })).status, 403, 'Check needs certifier');
  const certifierSession = await consoleSignIn(lab.url, lab.server.services.tokens.create('certifier-console', { role: 'certifier' }));
  assert.equal((await certifierSession.call('POST', '/api/implementations', { body: { name: 'Acme two', profileText } })).status, 403, 'a new implementation needs admin');
  const consoleRun = await certifierSession.call('POST', '/api/runs', { body: narrowRun });
  assert.equal(consoleRun.status, 202, consoleRun.text);
  await waitForRun(admin, (consoleRun.json as RunRecord).id, ['finished']);
  // A ticket to read the report is a viewer's, and no action to audit.
  const ticket = await viewerSession.call('POST', `/api/runs/${(consoleRun.json as RunRecord).id}/tickets`, { body: { kind: 'report' } });
  assert.equal(ticket.status, 201, ticket.text);

  // The audit log: who did what, by which face; nothing refused; ids, never a body.
  const audit = await admin('GET', '/api/audit');
  assert.equal(audit.status, 200);
  const entries = audit.json.entries as AuditEntry[];
  const seen = entries.map((e) => `${e.via} ${e.actor} ${e.role} ${e.action}`);
  for (const expected of [
    'api ci certifier POST /api/runs',
    'api ci certifier POST /api/runs/:id/share',
    `api ${lab.server.firstRunToken?.name ?? 'first-run'} admin PUT /api/implementations/:id`,
    'console viewer-console viewer sign in',
    'console certifier-console certifier sign in',
    'console certifier-console certifier POST /api/runs',
  ]) {
    assert.ok(seen.includes(expected), `${expected} in the audit log:\n${seen.join('\n')}`);
  }
  assert.ok(!seen.some((line) => line.includes('auditor') || line.includes('viewer-console viewer POST') || line.includes('viewer-console viewer PUT') || line.includes('certifier-console certifier POST /api/implementations')), 'a refused request is no action, nor is a ticket');
  assert.deepEqual(entries.find((e) => e.action === 'PUT /api/implementations/:id')?.target, { id: 'acme' });
  assert.ok(!audit.text.includes('sandbox.acme.example'), 'no body in the log');
  assert.equal((await admin('GET', '/api/audit?limit=2')).json.entries.length, 2);
  assert.equal((await admin('GET', '/api/audit?limit=0')).status, 400);
});

test('an expired token opens nothing, on the API or at the console\'s login', async () => {
  // Long enough for the first request on a busy machine (50 ms was not, once, in CI), short enough to wait out.
  const lifetimeMs = 1_500;
  const token = lab.server.services.tokens.create('brief', { role: 'admin', expiresInMs: lifetimeMs });
  assert.equal((await caller(lab.url, token)('GET', '/api/implementations')).status, 200);
  await new Promise((resolve) => setTimeout(resolve, lifetimeMs + 50));
  const late = await caller(lab.url, token)('GET', '/api/implementations');
  assert.equal(late.status, 401);
  assert.match(late.json.message, /wrong, revoked or expired/);
  await assert.rejects(consoleSignIn(lab.url, token), /login answered 401/);
});

test('ptas serve token: --role and --expires-in-days, shown by list and recorded in the audit log; the roles are the server\'s', async () => {
  const data = lab.data;
  const made = await runPtas(['serve', 'token', 'create', '--name', 'nightly', '--role', 'certifier', '--expires-in-days', '90', '--data', data]);
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stderr, /token nightly \(certifier, valid until \d{4}-\d{2}-\d{2}T[^)]+\) created/);
  assert.deepEqual(lab.server.services.tokens.verify(made.stdout.trim()), { name: 'nightly', role: 'certifier' }, 'the running server sees it');
  const listed = await runPtas(['serve', 'token', 'list', '--data', data]);
  assert.match(listed.stdout, /^nightly\s+certifier\s+created \S+\s+expires \S+$/m);
  assert.equal((await runPtas(['serve', 'token', 'create', '--name', 'x', '--role', 'owner', '--data', data])).code, 2);
  assert.equal((await runPtas(['serve', 'token', 'create', '--name', 'x', '--expires-in-days', '0', '--data', data])).code, 2);
  const help = await runPtas(['serve', 'token', '--help']);
  assert.ok(help.stdout.includes(`[choices: ${ROLES.map((r) => `"${r}"`).join(', ')}]`), `the CLI offers the server's roles:\n${help.stdout}`);
  const entries = (await lab.call('GET', '/api/audit')).json.entries as AuditEntry[];
  const create = entries.find((e) => e.action === 'token create' && e.target?.token === 'nightly');
  assert.equal(create?.via, 'cli');
  assert.equal(create?.target?.role, 'certifier');
  assert.match(create?.actor ?? '', /\(ptas serve token\)$/);
});
