// `ptas verify`, what the bundle says: results.json agrees with itself (its
// verdict and counts are what its checks fold to), with the manifest, with
// junit.xml and with the data index.html renders; a merged check with
// attempts has the verdict they fold to (src/results/attempts.ts); and every
// check the catalogue requires has exactly one final verdict, none SKIP.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Manifest } from '../../src/certify/manifest.ts';
import { attemptsDisagree } from '../../src/results/attempts.ts';
import type { RunResults } from '../../src/results/model.ts';
import { countVerdicts, runVerdict, verdictInputOf } from '../../src/results/verdict.ts';
import { certifiability } from '../../src/certify/certifiability.ts';
import type { VerifyStep } from './steps.ts';

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function verifyResultsAgree(manifest: Manifest, results: RunResults): VerifyStep {
  const name = 'results.json';
  const counts = countVerdicts(results.checks);
  if (!sameJson(counts, results.counts)) return { name, ok: false, detail: `results.json: its counts are not what its checks add up to (${JSON.stringify(counts)})` };
  const verdict = runVerdict(verdictInputOf(results));
  if (verdict !== results.verdict) return { name, ok: false, detail: `results.json: says ${results.verdict}, but its checks fold to ${verdict}` };
  if (manifest.run.verdict !== results.verdict || !sameJson(manifest.run.counts, results.counts)) {
    return { name, ok: false, detail: `manifest.json: records ${manifest.run.verdict}, results.json ${results.verdict} (or their counts differ)` };
  }
  const attempted = results.checks.filter((c) => c.attempts?.length);
  const partRuns = new Set((results.run.mergedFrom ?? []).map((r) => r.manifestSha256));
  for (const check of attempted) {
    const wrong = attemptsDisagree(check) ?? (check.attempts!.some((a) => !partRuns.has(a.run.manifestSha256)) ? 'an attempt names a part run that run.mergedFrom does not list' : undefined);
    if (wrong) return { name, ok: false, detail: `results.json: check ${check.id} (target ${check.target}): ${wrong}` };
  }
  const attempts = attempted.length ? `, ${attempted.length} with attempts that fold to their verdict` : '';
  return { name, ok: true, detail: `${results.verdict}, ${results.checks.length} checks${attempts}, counts as its checks add up, as the manifest records` };
}

/** Testcases, failures and errors over every <testsuite> of junit.xml. */
function junitTotals(xml: string): { tests: number; failures: number; errors: number } {
  const totals = { tests: 0, failures: 0, errors: 0 };
  for (const match of xml.matchAll(/<testsuite\b[^>]*>/g)) {
    const attribute = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(match[0])?.[1] ?? 0);
    totals.tests += attribute('tests');
    totals.failures += attribute('failures');
    totals.errors += attribute('errors');
  }
  return totals;
}

export function verifyJunitAgrees(dir: string, results: RunResults): VerifyStep {
  const name = 'junit.xml';
  const xml = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
  const totals = junitTotals(xml);
  const testcases = xml.match(/<testcase\b/g)?.length ?? 0;
  // A FLAKY check is a junit failure too (reports/junit.ts); ?? 0: results written before FLAKY existed.
  const flaky = results.counts.FLAKY ?? 0;
  const expected = { tests: results.checks.length, failures: results.counts.FAIL + flaky, errors: results.counts.ERROR };
  if (testcases !== expected.tests || !sameJson(totals, expected)) {
    return {
      name,
      ok: false,
      detail: `junit.xml: ${testcases} testcases, ${totals.failures} failures, ${totals.errors} errors; results.json has ${expected.tests} checks, ${results.counts.FAIL} FAIL${flaky ? ` and ${flaky} FLAKY` : ''}, ${expected.errors} ERROR`,
    };
  }
  return { name, ok: true, detail: `${testcases} testcases, ${totals.failures} failures, ${totals.errors} errors, as results.json` };
}

/** The data the report renders: the ptas-data element of index.html (reports/html.ts). */
function htmlData(html: string): { results?: RunResults } & Partial<RunResults> {
  const element = /<script type="application\/json" id="ptas-data">([\s\S]*?)<\/script>/.exec(html);
  if (!element) throw new Error('no ptas-data element');
  return JSON.parse(element[1]!) as { results?: RunResults } & Partial<RunResults>;
}

export function verifyHtmlAgrees(dir: string, results: RunResults): VerifyStep {
  const name = 'index.html';
  let data: ReturnType<typeof htmlData>;
  try {
    data = htmlData(readFileSync(path.join(dir, 'index.html'), 'utf8'));
  } catch (error) {
    return { name, ok: false, detail: `index.html: the report's data cannot be read (${(error as Error).message})` };
  }
  const shown = data.results ?? data;
  const summary = (r: Partial<RunResults>) => ({ verdict: r.verdict, checks: (r.checks ?? []).map((c) => [c.target, c.id, c.verdict, c.reason ?? null, (c.attempts ?? []).map((a) => a.verdict)]) });
  if (!sameJson(summary(shown), summary(results))) return { name, ok: false, detail: "index.html: the verdicts it shows are not results.json's" };
  return { name, ok: true, detail: `shows ${results.verdict} and the same ${results.checks.length} verdicts as results.json` };
}

export function verifyRequiredChecks(manifest: Manifest, results: RunResults, catalogue: { sha256: string; requiredChecks: string[] }): VerifyStep {
  const name = 'required checks';
  if (manifest.catalogue.sha256 === catalogue.sha256 && !sameJson([...manifest.requiredChecks].sort(), [...catalogue.requiredChecks].sort())) {
    return { name, ok: false, detail: "manifest.json: its required-check list is not the catalogue's (same catalogue hash, other list)" };
  }
  // The same function that tells the run's every rendering whether it is certifiable.
  const certification = certifiability(results, manifest.requiredChecks);
  const first = certification.gaps[0];
  if (first) return { name, ok: false, detail: `results.json: ${first.problem} (fix: ${first.fix})${certification.gaps.length > 1 ? `; ${certification.gaps.length - 1} more` : ''}` };
  if (results.certification && !sameJson(results.certification, certification)) {
    return { name, ok: false, detail: 'results.json: its "certification" is not what its checks give against the manifest\'s required checks' };
  }
  const same = manifest.catalogue.sha256 === catalogue.sha256 ? "the catalogue's" : `the manifest's (its catalogue, ${manifest.catalogue.specVersion}, is not this suite's)`;
  return { name, ok: true, detail: `all ${manifest.requiredChecks.length} of ${same} list have exactly one final verdict, none SKIP or ERROR` };
}
