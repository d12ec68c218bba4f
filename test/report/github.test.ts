// `--reporter github`: workflow-command annotations (escaped as GitHub's
// runner reads them), one ::error per FAIL naming requirement and clause, and
// the Markdown job summary (counts, failing table, load, regressions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { compareWithBaseline } from '../../reports/baseline.ts';
import { emitGithubReport, escapeCommandData, escapeCommandProperty, githubAnnotations, githubSummary } from '../../reports/github.ts';
import { SUMMARY_ROW_LIMIT } from '../../reports/github-summary.ts';
import { requirementById } from '../../src/requirements.ts';
import { REQ, run } from './support/nights.ts';

/**
 * A workflow command as GitHub's runner parses it: the header ends at the
 * first `::` after the leading one, properties split on `,` and at their
 * first `=`, then unescaped (%25 last, so an escaped % never decodes twice).
 */
function parseCommand(line: string): { command: string; properties: Record<string, string>; message: string } {
  assert.ok(line.startsWith('::'), line);
  assert.ok(!/[\r\n]/.test(line), `a workflow command is one line: ${JSON.stringify(line)}`);
  const end = line.indexOf('::', 2);
  assert.ok(end > 0, line);
  const header = line.slice(2, end);
  const space = header.indexOf(' ');
  const command = space < 0 ? header : header.slice(0, space);
  const unescapeData = (s: string) => s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
  const unescapeProperty = (s: string) => s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%3A', ':').replaceAll('%2C', ',').replaceAll('%25', '%');
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of header.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
  }
  return { command, properties, message: unescapeData(line.slice(end + 2)) };
}

const HOSTILE = 'rate 100% exceeded: token, then\r\nsecond line %0A literal, and: more';

test('data escapes %, CR and LF; properties also : and , — % first', () => {
  assert.equal(escapeCommandData('100% a:b,c\r\nx %0A'), '100%25 a:b,c%0D%0Ax %250A');
  assert.equal(escapeCommandProperty('100% a:b,c\r\nx %0A'), '100%25 a%3Ab%2Cc%0D%0Ax %250A');
});

test('a reason with %, a line break, a colon and a comma survives the round trip through the runner', () => {
  const results = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.hostile', verdict: 'FAIL', reason: HOSTILE, requirements: [REQ[0], REQ[1]] }]);
  const [error] = githubAnnotations(results).filter((l) => l.startsWith('::error'));
  const parsed = parseCommand(error!);
  assert.equal(parsed.command, 'error');
  assert.deepEqual(Object.keys(parsed.properties), ['title'], 'the commas of the title did not split it into more properties');
  assert.ok(parsed.message.startsWith(HOSTILE), parsed.message);
  assert.ok(parsed.properties.title!.includes(`${REQ[0]}, ${REQ[1]}`), parsed.properties.title);
});

test('one ::error per FAIL, naming the check, its requirements and the clause (or the profile key)', () => {
  const results = run('2026-11-22T02:17:00.000Z', [
    { id: 'auth.spec-fail', verdict: 'FAIL', requirements: [REQ[0]] },
    { id: 'trading.declared-fail', verdict: 'FAIL', requirements: [REQ[2]], declaredBy: 'trading.offerRecipes' },
    { id: 'auth.error', verdict: 'ERROR', reason: 'connection reset' },
    { id: 'auth.warn', verdict: 'WARN' },
    { id: 'auth.pass', verdict: 'PASS' },
    { id: 'auth.skip', verdict: 'SKIP' },
    { id: 'auth.review', verdict: 'REVIEW' },
  ]);
  const parsed = githubAnnotations(results).map(parseCommand);
  const fails = parsed.filter((a) => a.command === 'error' && a.properties.title!.startsWith('FAIL '));
  assert.equal(fails.length, 2);
  const spec = fails.find((a) => a.properties.title!.includes('auth.spec-fail'))!;
  const clause0 = requirementById(REQ[0])!;
  assert.equal(spec.properties.title, `FAIL auth.spec-fail — ${REQ[0]} — spec ${clause0.clause}`);
  assert.equal(spec.message, `auth.spec-fail said FAIL\nspec ${clause0.clause}: "${clause0.quote}"`);
  const declared = fails.find((a) => a.properties.title!.includes('trading.declared-fail'))!;
  assert.match(declared.properties.title!, new RegExp(`— ${REQ[2]} — profile-declared trading\\.offerRecipes; spec `));
  const error = parsed.filter((a) => a.command === 'error' && a.properties.title!.startsWith('ERROR '));
  assert.deepEqual(error.map((a) => [a.properties.title, a.message]), [[`ERROR auth.error could not run — ${REQ[0]}`, 'connection reset']]);
  assert.deepEqual(parsed.filter((a) => a.command === 'warning').map((a) => a.properties.title!.split(' — ')[0]), ['WARN auth.warn']);
  const named = parsed.map((a) => a.properties.title ?? '').join('\n');
  for (const quiet of ['auth.pass', 'auth.skip', 'auth.review']) assert.ok(!named.includes(quiet), `${quiet} is not annotated`);
  const notice = parsed.filter((a) => a.command === 'notice');
  assert.deepEqual(notice.map((a) => a.properties.title), ['ptas: NOT CONFORMANT']);
  assert.match(notice[0]!.message, /^2 checks found a contradiction/);
});

test('with a baseline, a newly failing check is titled REGRESSION; an old failure is not', () => {
  const before = run('2026-11-21T02:17:00.000Z', [{ id: 'auth.old', verdict: 'FAIL' }, { id: 'auth.new', verdict: 'PASS' }]);
  const now = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.old', verdict: 'FAIL' }, { id: 'auth.new', verdict: 'FAIL' }]);
  const titles = githubAnnotations(now, compareWithBaseline(before, now)).map((l) => parseCommand(l).properties.title ?? '');
  assert.ok(titles.some((t) => t.startsWith('REGRESSION FAIL auth.new')), titles.join('\n'));
  assert.ok(titles.some((t) => t.startsWith('FAIL auth.old')), titles.join('\n'));
  assert.match(titles.at(-1)!, /^ptas: NOT CONFORMANT/);
  assert.match(parseCommand(githubAnnotations(now, compareWithBaseline(before, now)).at(-1)!).message, /1 regression since the baseline/);
});

test('a verdict this version does not know is counted, never annotated nor a crash', () => {
  const results = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.pass', verdict: 'PASS' }, { id: 'auth.odd', verdict: 'QUARANTINED' }]);
  assert.ok(!githubAnnotations(results).some((l) => l.includes('auth.odd')));
  assert.match(githubSummary(results), /\| QUARANTINED \|/);
});

test('the summary has the verdict and why, the counts, the failing table and the load figures', () => {
  const results = run(
    '2026-11-22T02:17:00.000Z',
    [
      { id: 'auth.one', verdict: 'FAIL', reason: 'pipe | and <script>alert(1)</script> and [x](http://e.example)' },
      { id: 'auth.two', verdict: 'ERROR', reason: 'reset' },
      { id: 'auth.three', verdict: 'PASS' },
      { id: 'auth.four', verdict: 'WARN' },
    ],
    { onsetRps: 120, smallest413: 65_537, p95Ms: 14 },
  );
  const md = githubSummary(results);
  assert.match(md, /^## ptas: NOT CONFORMANT\n\n\*\*1 check found a contradiction/);
  const counts = md.split('\n').findIndex((l) => l.startsWith('| PASS | FAIL | WARN |'));
  assert.ok(counts > 0, md);
  assert.match(md.split('\n')[counts + 2]!, /^\| 1 \| 1 \| 1 \| 0 \| 0 \| 1 \|/);
  assert.match(md, /### Failing checks \(2\)/);
  const row = md.split('\n').find((l) => l.includes('`auth.one`'))!;
  const clause = requirementById(REQ[0])!.clause;
  assert.ok(row.includes(`| \`${REQ[0]}\` |`) && row.includes(`| spec ${clause}: “`), row);
  assert.equal(row.split(/(?<!\\)\|/).length - 2, 5, `five cells: the reason's pipe is escaped: ${row}`);
  assert.ok(row.includes('&lt;script&gt;') && !row.includes('<script'), row);
  assert.ok(row.includes('\\[x\\](http'), 'a link in a reason is text, not a link');
  assert.match(md, /\| `auth.two` \| .* \| could not run \| reset \|/);
  assert.match(md, /### Load figures/);
  assert.match(md, /\| load\.token-rate-limit \(POST \/v1\/oauth\/token\) \| 429 onset \| 120 req\/s \|/);
  assert.match(md, /\| smallest 413 body \| 65537 B \|/);
  assert.match(md, /\| p95 latency \| 14 ms \|/);
});

test('the summary carries the regressions when a baseline diff is given', () => {
  const before = run('2026-11-21T02:17:00.000Z', [{ id: 'auth.a', verdict: 'PASS' }, { id: 'auth.b', verdict: 'FAIL' }], { onsetRps: 120 });
  const now = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.a', verdict: 'FAIL', reason: 'broke tonight' }, { id: 'auth.b', verdict: 'PASS' }], { onsetRps: 60 });
  const md = githubSummary(now, compareWithBaseline(before, now));
  assert.match(md, /### Compared with the baseline of 2026-11-21 02:17:00 UTC/);
  assert.match(md, /\*\*1 regression\*\*, 1 newly passing/);
  assert.match(md, /#### Regressions: newly failing\n\n\| Check \| Requirements \| Was \| Now \| Reason \|\n\| --- .*\n\| `auth.a` \| .* \| PASS \| FAIL \| broke tonight \|/);
  assert.match(md, /\| 429 onset \| 120 req\/s \| 60 req\/s \| changed \|/);
  assert.ok(!githubSummary(now).includes('Compared with the baseline'), 'no baseline, no comparison');
});

test('a long list of failures is cut, and the summary says where the rest is', () => {
  const many = Array.from({ length: SUMMARY_ROW_LIMIT + 5 }, (_, i) => ({ id: `auth.f${i}`, verdict: 'FAIL' }));
  const md = githubSummary(run('2026-11-22T02:17:00.000Z', many));
  assert.equal(md.split('\n').filter((l) => l.startsWith('| **FAIL**')).length, SUMMARY_ROW_LIMIT);
  assert.match(md, /… and 5 more: see the report/);
});

function collect(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({ write: (chunk, _enc, done) => ((text += String(chunk)), done()) });
  return { stream, text: () => text };
}

test('emitGithubReport prints the annotations and appends the summary to the file it is given', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-github-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const summaryFile = path.join(dir, 'summary.md');
  writeFileSync(summaryFile, '# written before by another tool\n');
  const results = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.x', verdict: 'FAIL' }]);
  const out = collect();
  await emitGithubReport(results, { stdout: out.stream, summaryFile });
  assert.equal(out.text(), githubAnnotations(results).join('\n') + '\n');
  assert.equal(readFileSync(summaryFile, 'utf8'), '# written before by another tool\n' + githubSummary(results));

  const unwritable = collect();
  await emitGithubReport(results, { stdout: unwritable.stream, summaryFile: dir });
  assert.match(unwritable.text(), /^::warning title=ptas%3A no job summary::cannot append to /m, 'a directory is no summary file: a warning, not a crash');
  const none = collect();
  await emitGithubReport(results, { stdout: none.stream });
  assert.equal(none.text(), out.text(), 'without a summary file, only the annotations');
});

test('a WAIVED check is a ::notice naming its waiver; a waiver that waived nothing is a warning, an error under --strict-waivers', () => {
  const results = run('2026-11-22T02:17:00.000Z', [{ id: 'auth.known', verdict: 'WAIVED', reason: 'still reused' }, { id: 'auth.ok', verdict: 'PASS' }]);
  const waiver = (pointer: string, id: string) => ({
    pointer,
    selector: { kind: 'check' as const, id },
    reason: 'fix scheduled, ticket open',
    owner: 'team-auth',
    tracking: 'https://tracker.example/PTAS-1',
    expires: '2026-12-31',
    expect: { verdict: 'FAIL' as const },
  });
  results.checks[0]!.waived = { verdict: 'FAIL', waiver: waiver('/waivers/0', 'auth.known') };
  results.waivers = {
    file: 'waivers.json',
    sha256: '00',
    strict: true,
    evaluatedAt: '2026-11-22T02:17:00.000Z',
    outcomes: [
      { waiver: waiver('/waivers/0', 'auth.known'), status: 'applied', checks: [], note: 'applied' },
      { waiver: waiver('/waivers/1', 'auth.ok'), status: 'stale', checks: [], note: 'auth.ok passes now: remove the waiver' },
      { waiver: waiver('/waivers/2', 'auth.gone'), status: 'expired', checks: [], note: 'expired on 2026-11-01' },
    ],
  };
  const parsed = githubAnnotations(results).map(parseCommand);
  const notice = parsed.find((a) => a.properties.title!.startsWith('WAIVED auth.known'))!;
  assert.equal(notice.command, 'notice');
  assert.equal(notice.message, 'still reused\nwaived FAIL: fix scheduled, ticket open (owner team-auth, until 2026-12-31, https://tracker.example/PTAS-1)');
  assert.deepEqual(
    parsed.filter((a) => a.properties.title!.includes(' waiver ')).map((a) => [a.command, a.properties.title]),
    [
      ['error', 'stale waiver /waivers/1 (check auth.ok)'],
      ['warning', 'expired waiver /waivers/2 (check auth.gone)'],
    ],
  );
});
