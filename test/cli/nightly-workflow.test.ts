// examples/github-nightly.yml is the nightly CI a newcomer copies: it must be
// a workflow GitHub runs (schedule and manual trigger, Node 20, the bundle
// uploaded, the previous night fetched), and every `npx ptas …` line in it —
// commented alternatives included — must name a command and long flags that
// `ptas <command> --help` lists. Flags still being added to `ptas run` are
// listed below by name, so nothing else can slip through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fromRoot } from '../../src/paths.ts';
import { runPtas } from '../support/cli.ts';

const WORKFLOW = fromRoot('examples', 'github-nightly.yml');


interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

const workflow = parse(readFileSync(WORKFLOW, 'utf8')) as { on: Record<string, unknown>; jobs: Record<string, { steps: Step[] }> };
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

interface Invocation {
  line: string;
  command: string;
  flags: string[];
}

/** Every `npx ptas …` of a shell script, commented lines included, continuation lines joined. */
function ptasInvocations(script: string): Invocation[] {
  const lines = script.replace(/\\\n\s*/g, ' ').split('\n');
  const found: Invocation[] = [];
  for (const raw of lines) {
    for (const match of raw.matchAll(/npx ptas\s+([^;&|\n]*)/g)) {
      const words = match[1]!.trim().split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=')[0]!);
      found.push({ line: raw.trim(), command: words[0] ?? '', flags });
    }
  }
  return found;
}

/** The long options a help text lists in its option column (not ones merely mentioned in a description). */
function optionsOfHelp(help: string): Set<string> {
  return new Set([...help.matchAll(/^\s{2,}(?:-[a-zA-Z], )?--([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!));
}

function problemsOf(invocations: Invocation[], commands: Set<string>, optionsOf: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  for (const { line, command, flags } of invocations) {
    if (!commands.has(command)) {
      problems.push(`${line}: ptas has no command "${command}"`);
      continue;
    }
    const known = optionsOf.get(command)!;
    for (const flag of flags) {
      const negated = flag.startsWith('no-') && known.has(flag.slice(3));
      if (!known.has(flag) && !negated) problems.push(`${line}: ptas ${command} has no --${flag}`);
    }
  }
  return problems;
}

test('the workflow runs nightly and by hand, on Node 20, with secrets, and keeps the bundle', () => {
  assert.ok(Array.isArray(workflow.on.schedule) && (workflow.on.schedule as Array<{ cron: string }>)[0]!.cron.split(' ').length === 5, 'a cron schedule');
  assert.ok('workflow_dispatch' in workflow.on);
  const uses = steps.map((s) => s.uses ?? '');
  assert.ok(uses.some((u) => u.startsWith('actions/checkout@')));
  assert.equal(steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version'], 20);
  assert.ok(steps.some((s) => s.run?.trim() === 'npm ci'));
  const uploads = steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@')).map((s) => [s.with?.name, s.with?.path]);
  assert.deepEqual(uploads.map(([name]) => name).sort(), ['ptas-bundle', 'ptas-compared', 'ptas-history']);
  const fetch = steps.find((s) => s.run?.includes('gh run download'))!;
  assert.match(fetch.run!, /--name ptas-bundle --dir previous/, "the previous night's bundle is the one this workflow uploads");
  const secrets = steps.find((s) => s.run?.includes('npx ptas run'))!.env!;
  for (const name of ['PTAS_BASE_URL', 'PTAS_CLIENT_ID', 'PTAS_CLIENT_SECRET']) assert.equal(secrets[name], `\${{ secrets.${name} }}`);
});

test('every ptas command and long flag the workflow uses exists (or is one being added, named above)', async () => {
  const invocations = steps.flatMap((s) => ptasInvocations(s.run ?? ''));
  const used = invocations.map((i) => `${i.command} ${i.flags.map((f) => `--${f}`).join(' ')}`);
  assert.ok(used.some((u) => u.startsWith('run ') && u.includes('--reporter')), used.join('\n'));
  assert.ok(used.some((u) => u.startsWith('run ') && u.includes('--sign-key') && u.includes('--nonce')), 'the commented signed alternative is checked too');
  assert.ok(used.some((u) => u.startsWith('report ') && u.includes('--baseline') && u.includes('--fail-on-regression') && u.includes('--reporter')));
  assert.ok(used.some((u) => u.startsWith('report ') && u.includes('--history')));

  const main = await runPtas(['--help']);
  const commands = new Set([...main.stdout.matchAll(/^\s+ptas ([a-z]+)/gm)].map((m) => m[1]!));
  assert.ok(commands.has('run') && commands.has('report'), main.stdout);
  const optionsOf = new Map<string, Set<string>>();
  for (const command of new Set(invocations.map((i) => i.command).filter((c) => commands.has(c)))) {
    const help = await runPtas([command, '--help']);
    assert.equal(help.code, 0, help.stderr);
    optionsOf.set(command, optionsOfHelp(help.stdout));
  }
  assert.deepEqual(problemsOf(invocations, commands, optionsOf), []);

  // The check catches what it is for: an unknown flag, an unknown command, a flag only described in a help text.
  const fake = ptasInvocations('npx ptas run --out b --no-such-flag\n# npx ptas frobnicate --x\nnpx ptas report r.json --no-load');
  assert.deepEqual(problemsOf(fake, commands, optionsOf), [
    'npx ptas run --out b --no-such-flag: ptas run has no --no-such-flag',
    '# npx ptas frobnicate --x: ptas has no command "frobnicate"',
    'npx ptas report r.json --no-load: ptas report has no --no-load',
  ]);
});
