// The recorded corpus: what the self-test's checks observed and said against
// every fault, variant and condition of the reference (each check's record,
// src/check/record.ts), with the verdict and basis each was judged to, kept
// in the repository, compressed (CORPUS_FILE below), so the verdict policy is
// guarded in seconds: judged again by the suite as it now is, every verdict
// and basis must be the one recorded, every fault caught on the basis
// test/selftest/fault-basis.ts names, every variant and condition
// CONFORMANT. The live self-test stays the proof that the records are
// faithful to what the implementation does; it also proves, on every run,
// that judging its records again gives its verdicts.
import { gunzipSync, gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import type { CheckResult, Verdict } from '../../src/check/model.ts';
import type { RecordedExchange } from '../../src/http/exchange.ts';
import type { RunResults } from '../../src/results/model.ts';
import { rejudgeRun, type JudgingSuite } from '../../src/results/rejudge.ts';
import { fromRoot } from '../../src/paths.ts';
import { basisName, type SelfTestResult } from './selftest.ts';

export const CORPUS_FILE = fromRoot('test', 'corpus', 'selftest.json.gz');

/** One check of a corpus target: the record it was judged from, and what it was judged to. */
export interface CorpusCheck {
  id: string;
  verdict: Verdict;
  /** basisName of the basis its verdict rested on ('none' without one). */
  basis: string;
  record: NonNullable<CheckResult['record']>;
  /** Only the exchanges a cross-cutting check reads (error answers, and the attempts that repeated one): the rest decides no judgment. */
  evidence?: RecordedExchange[];
}

export interface CorpusTarget {
  target: string;
  kind: 'clean' | 'fault' | 'variant' | 'condition';
  /** A fault target's fault. */
  fault?: string;
  checks: CorpusCheck[];
  /** The load stage's checks, judged apart: the self-test's cross-cutting check saw only the conformance checks' exchanges. */
  loadChecks: CorpusCheck[];
}

export interface Corpus {
  /** What recorded it: the suite's version and commit, and when. */
  recordedBy: { suiteVersion: string; gitCommit: string | null; at: string };
  targets: CorpusTarget[];
}

const isLoad = (c: Pick<CheckResult, 'area'>) => c.area === 'load';

/**
 * The exchanges a cross-cutting judgment reads (src/crosscut/error-answers.ts):
 * answers of 400 or above, and the attempts that repeated an earlier one; of
 * each only what it reads — the request's method and URL, the answer's
 * status, Content-Type and body, whether the suite invented the input. The
 * rest (request bodies, other headers, curl lines) decides no judgment and
 * would make the corpus ten times larger.
 */
function errorEvidence(evidence: readonly RecordedExchange[]): RecordedExchange[] {
  return evidence
    .filter((e) => (e.response?.status ?? 0) >= 400 || e.retryOf !== undefined)
    .map((e) => ({
      id: e.id,
      startedAt: '',
      durationMs: 0,
      request: { method: e.request.method, url: e.request.url, headers: {}, bodyBytes: 0 },
      ...(e.response ? { response: keptResponse(e.response) } : {}),
      ...(e.invented ? { invented: e.invented } : {}),
      ...(e.retryOf !== undefined ? { retryOf: e.retryOf } : {}),
      curl: '',
    }));
}

function keptResponse(response: NonNullable<RecordedExchange['response']>): NonNullable<RecordedExchange['response']> {
  const contentType = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type');
  return { ...response, headers: contentType ? { [contentType[0]]: contentType[1] } : {} };
}

function corpusCheck(check: CheckResult): CorpusCheck {
  if (!check.record) throw new Error(`${check.target} ${check.id}: no record to keep (every check keeps one: src/check/record.ts)`);
  const evidence = errorEvidence(check.evidence);
  return { id: check.id, verdict: check.verdict, basis: basisName(check.basis), record: check.record, ...(evidence.length ? { evidence } : {}) };
}

function corpusTarget(target: string, kind: CorpusTarget['kind'], checks: readonly CheckResult[], fault?: string): CorpusTarget {
  return { target, kind, ...(fault ? { fault } : {}), checks: checks.filter((c) => !isLoad(c)).map(corpusCheck), loadChecks: checks.filter(isLoad).map(corpusCheck) };
}

/** Every target of a self-test run as the corpus keeps it. */
export function corpusOf(result: SelfTestResult, recordedBy: Corpus['recordedBy']): Corpus {
  return {
    recordedBy,
    targets: [
      corpusTarget('clean', 'clean', result.clean),
      ...result.faults.map((f) => corpusTarget(f.target, 'fault', f.checks, f.fault.name)),
      ...result.variants.map((v) => corpusTarget(v.target, 'variant', v.checks)),
      ...result.conditions.map((c) => corpusTarget(c.target, 'condition', c.checks)),
    ],
  };
}

export function readCorpus(file = CORPUS_FILE): Corpus {
  return JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Corpus;
}

/** Written compact and compressed at the highest level: the file is in the repository. */
export function writeCorpus(corpus: Corpus, file = CORPUS_FILE): number {
  const bytes = gzipSync(JSON.stringify(corpus), { level: 9 });
  writeFileSync(file, bytes);
  return bytes.length;
}

/** A stored run of these checks of one target, as rejudgeRun reads it: their metadata is the installed suite's, their verdicts the recorded ones. */
function storedRun(target: string, checks: readonly CorpusCheck[], suite: JudgingSuite): RunResults {
  const results: CheckResult[] = checks.map((c) => {
    const meta = suite.metaOf(c.id) ?? { id: c.id, title: c.id, area: 'errors' as const, requirements: [], severity: 'MUST' as const };
    return { ...meta, verdict: c.verdict, findings: [], evidence: c.evidence ?? [], timeline: [], target, durationMs: 0, record: c.record };
  });
  const run = { target, suiteVersion: suite.version, specVersion: '', profileHash: '', startedAt: '', finishedAt: '', durationMs: 0, insecureTls: false };
  return { schemaVersion: 1, run, verdict: 'CONFORMANT', counts: {} as RunResults['counts'], checks: results, requirements: [], errors: [] };
}

/** The checks of one target judged again by `suite`: the conformance checks with the cross-cutting ones over their exchanges, then the load stage's. */
export function rejudgeTarget(target: CorpusTarget, suite: JudgingSuite): CheckResult[] {
  const judge = (checks: readonly CorpusCheck[]) => (checks.length ? rejudgeRun(storedRun(target.target, checks, suite), suite).results.checks : []);
  return [...judge(target.checks), ...judge(target.loadChecks)];
}

/** A check judged otherwise than the corpus recorded: its target (and fault), its id, the recorded and the new verdict on their bases. */
export interface CorpusFlip {
  target: string;
  fault?: string;
  check: string;
  recorded: string;
  now: string;
}

const judgedAs = (verdict: string, basis: string) => `${verdict} on ${basis}`;

/** Every check of every target whose verdict or basis, judged again, is not the recorded one. */
export function corpusFlips(corpus: Corpus, suite: JudgingSuite): { flips: CorpusFlip[]; judged: Map<CorpusTarget, CheckResult[]> } {
  const flips: CorpusFlip[] = [];
  const judged = new Map<CorpusTarget, CheckResult[]>();
  for (const target of corpus.targets) {
    const again = rejudgeTarget(target, suite);
    judged.set(target, again);
    const byId = new Map(again.map((c) => [c.id, c]));
    for (const recorded of [...target.checks, ...target.loadChecks]) {
      const now = byId.get(recorded.id);
      const nowJudged = now ? judgedAs(now.verdict, basisName(now.basis)) : 'not judged (no such check in the suite)';
      if (nowJudged !== judgedAs(recorded.verdict, recorded.basis)) {
        flips.push({ target: target.target, ...(target.fault ? { fault: target.fault } : {}), check: recorded.id, recorded: judgedAs(recorded.verdict, recorded.basis), now: nowJudged });
      }
    }
  }
  return { flips, judged };
}

export const describeFlip = (f: CorpusFlip): string => `${f.fault ? `fault ${f.fault} (target ${f.target})` : `target ${f.target}`}: ${f.check}: recorded ${f.recorded}, now ${f.now}`;

/** The corpus with the verdicts and bases `suite` now gives (npm run corpus:update, once the flips are the ones a policy change meant). */
export function acceptJudgments(corpus: Corpus, judged: Map<CorpusTarget, CheckResult[]>): Corpus {
  return {
    ...corpus,
    targets: corpus.targets.map((target) => {
      const byId = new Map((judged.get(target) ?? []).map((c) => [c.id, c]));
      const accept = (c: CorpusCheck): CorpusCheck => {
        const now = byId.get(c.id);
        return now ? { ...c, verdict: now.verdict, basis: basisName(now.basis) } : c;
      };
      return { ...target, checks: target.checks.map(accept), loadChecks: target.loadChecks.map(accept) };
    }),
  };
}
