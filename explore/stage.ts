// The exploration stage of a run (`ptas explore`, `ptas run --explore`):
// each chosen area explored in turn within its share of the budget, each
// rule's result told as a `check` event like any check's, and each finding's
// shrunk case written as a replay file in the run's folder (replay.ts). With
// a replay file instead, the one case it holds is run again and judged.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedProfile } from '../src/config/profile.ts';
import type { CheckResult } from '../src/check/model.ts';
import { ConfigError } from '../src/config/errors.ts';
import type { RunEventSink } from '../src/run-events/events.ts';
import { suiteVersion } from '../src/version.ts';
import { exploreArea, findingsOf, runCase, type AreaExploration, type RuleFinding } from './engine.ts';
import { explorationResults } from './results.ts';
import { REPLAY_FORMAT, replayFileName, type ReplayFile } from './replay.ts';
import { AREA_MODELS, AREA_NAMES, areaModel } from './areas/index.ts';
import { isUnexplorable, type AreaModel } from './model.ts';
import { exploreTarget } from './target.ts';

export interface ExploreChoices {
  /** How long exploring may take, all areas together. */
  budgetMs: number;
  /** The seed; default one drawn at random, printed and recorded. */
  seed?: number;
  /** The areas to explore (default all). */
  areas?: string[];
  /** Stop each area after this many generated cases (a deterministic exploration). */
  maxCases?: number;
  /** Run the one case of this replay file instead. */
  replay?: ReplayFile;
}

export interface ExploreStageInput extends ExploreChoices {
  profile: ResolvedProfile;
  outDir: string;
  events: RunEventSink;
  signal?: AbortSignal;
}

/** The areas chosen, or a usage error naming the ones ptas has. */
export function chosenAreas(areas: readonly string[] | undefined): AreaModel<any>[] {
  if (!areas?.length) return [...AREA_MODELS];
  return areas.map((name) => {
    const model = areaModel(name);
    if (!model) throw new ConfigError(`--area ${name}: no such explored area (explored areas: ${AREA_NAMES.join(', ')})`);
    return model;
  });
}

/** A seed fast-check takes: a 32-bit integer. */
export function randomSeed(): number {
  return (Math.random() * 0x7fffffff) | 0;
}

export async function runExploreStage(input: ExploreStageInput): Promise<CheckResult[]> {
  const log = (line: string) => input.events({ kind: 'log', line });
  const target = exploreTarget(input.profile);
  try {
    if (input.replay) return await replayCase(input, input.replay, target, log);
    const models = chosenAreas(input.areas);
    const seed = input.seed ?? randomSeed();
    log(`ptas: exploring ${models.map((m) => m.area).join(', ')} with generated cases for ${(input.budgetMs / 1000).toFixed(0)} s (seed ${seed}; replay this exploration with --seed ${seed})`);
    const results: CheckResult[] = [];
    const started = Date.now();
    for (const [index, model] of models.entries()) {
      // Each area gets an equal share of what is left, so an area that ends early leaves its time to the next.
      const share = (input.budgetMs - (Date.now() - started)) / (models.length - index);
      const areaStarted = Date.now();
      const source = `explore ${model.area}`;
      let shownAt = 0;
      const exploration = await exploreArea(model, target, {
        // Live progress about once a second: a terminal redraws it in place, a log keeps one every few seconds.
        onCase: (so) => {
          if (Date.now() - shownAt < 1000) return;
          shownAt = Date.now();
          const elapsedSec = (shownAt - areaStarted) / 1000;
          input.events({ kind: 'progress', source, elapsedSec, line: `${source}: ${so.cases} cases in ${elapsedSec.toFixed(0)} s, ${so.findings.length} rule(s) contradicted` });
        },
        seed,
        deadline: areaStarted + Math.max(0, share),
        maxCases: input.maxCases,
        signal: input.signal,
        progress: log,
        findingNote: (finding) => findingNote(finding),
      });
      input.events({ kind: 'progress-end', source });
      writeReplayFiles(input.outDir, exploration, (message) => input.events({ kind: 'problem', message }));
      log(summaryLine(exploration, Date.now() - areaStarted));
      for (const check of explorationResults(exploration, target.redactor, Date.now() - areaStarted)) {
        results.push(check);
        input.events({ kind: 'check', check });
      }
    }
    return results;
  } finally {
    await target.close();
  }
}

function findingNote(finding: Omit<RuleFinding, 'run'>): string {
  return `generated case (seed ${finding.seed}, shrunk ${finding.shrinks} times, reproduced 2/2): ${finding.description}; run it again with ptas explore --replay ${replayFileName(finding.rule.id)}`;
}

function summaryLine(exploration: AreaExploration, ms: number): string {
  if (exploration.unexplorable) return `explore ${exploration.area}: not explored: ${exploration.unexplorable.unexplorable}${exploration.unexplorable.configKey ? ` (set ${exploration.unexplorable.configKey})` : ''}`;
  const found = exploration.findings.length ? `${exploration.findings.length} rule(s) contradicted: ${exploration.findings.map((f) => f.rule.id).join(', ')}` : 'no rule contradicted';
  return `explore ${exploration.area}: ${exploration.cases} generated case(s) in ${(ms / 1000).toFixed(1)} s (${exploration.extraRuns} more to shrink and reproduce), ${found}${exploration.stopped ? `; ${exploration.stopped}` : ''}`;
}

function writeReplayFiles(outDir: string, exploration: AreaExploration, problem: (message: string) => void): void {
  for (const finding of exploration.findings) {
    const file = path.join(outDir, replayFileName(finding.rule.id));
    mkdirSync(path.dirname(file), { recursive: true });
    const kept = finding.run.target.redactor.redactJson(finding.case);
    // A case is generated data, no secret; what the redactor would withhold (a key named token, …) would leave the file unreplayable.
    if (JSON.stringify(kept) !== JSON.stringify(finding.case)) {
      problem(`no replay file for ${finding.rule.id}: its case holds what the redactor withholds (a key named like a secret), so it would not replay; a bug of the ${exploration.area} model`);
      continue;
    }
    const replay: ReplayFile = {
      format: REPLAY_FORMAT,
      area: exploration.area,
      check: finding.rule.id,
      description: finding.description,
      seed: finding.seed,
      path: finding.path,
      shrinks: finding.shrinks,
      suiteVersion,
      case: kept,
    };
    writeFileSync(file, `${JSON.stringify(replay, null, 2)}\n`);
  }
}

/** The replay file's case, run once and judged: the result of the rule it names (and of any other rule it contradicts). */
async function replayCase(input: ExploreStageInput, replay: ReplayFile, target: ReturnType<typeof exploreTarget>, log: (line: string) => void): Promise<CheckResult[]> {
  const model = chosenAreas([replay.area])[0]!;
  const prepared = model.prepare(input.profile);
  if (isUnexplorable(prepared)) throw new ConfigError(`--replay: the profile cannot explore ${replay.area}: ${prepared.unexplorable}${prepared.configKey ? ` (set ${prepared.configKey})` : ''}`);
  log(`ptas: replaying ${replay.check}: ${replay.description}`);
  const started = Date.now();
  const run = await runCase(prepared, model.rules, target, replay.case, (rule) => `replayed from a replay file (seed ${replay.seed}, found by ${replay.check}): ${replay.description}`);
  const found = findingsOf(run).map((rule) => rule.id);
  log(found.includes(replay.check) ? `ptas: the case contradicts ${replay.check} again` : `ptas: the case does not contradict ${replay.check} this time${found.length ? ` (it contradicts ${found.join(', ')})` : ''}`);
  const results = run.reachedRules().map((rule): CheckResult => ({ ...rule, ...run.outcome(rule), target: 'target', durationMs: Date.now() - started }));
  for (const check of results) input.events({ kind: 'check', check });
  return results;
}
