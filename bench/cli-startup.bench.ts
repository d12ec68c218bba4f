// How much the command line costs before it does anything: every `ptas`
// command a CI job or a test spawns pays it. A command's handler imports what
// it runs when it runs (bin/*-command.ts), so `--help` and `ptas verify`
// never load the checks, the server or the load engine. The yardstick,
// measured in the same run: Node starting with tsx registered and nothing
// else. Budget: `ptas --help` at most 3× that yardstick's CPU (it was about 5.4×
// when every command was imported at start-up). CPU is user + system as
// /usr/bin/time reports it for the whole process; figures are medians.
// `npm run bench -- cli-startup`
import { spawnSync } from 'node:child_process';
import { fromRoot } from '../src/paths.ts';
import { endWithBudgets, median } from './support/figures.ts';

const RUNS = 9;
const HELP_BUDGET_RATIO = 3;

/** CPU seconds (user + system) of one run of the command, as /usr/bin/time reports it. */
function cpuSeconds(args: string[]): number {
  const run = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, ...args], { cwd: fromRoot(), encoding: 'utf8' });
  const line = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(run.stderr);
  if (!line) throw new Error(`no CPU figure from /usr/bin/time for ${args.join(' ')}: ${run.stderr.slice(-300)}`);
  return Number(line[1]) + Number(line[2]);
}

function medianCpu(args: string[]): number {
  cpuSeconds(args); // warm: tsx's transform cache
  return median(Array.from({ length: RUNS }, () => cpuSeconds(args)));
}

const ptas = fromRoot('bin', 'ptas.js');
const yardstick = medianCpu(['--import', 'tsx', '-e', '0']);
const commands: Array<[string, string[]]> = [
  ['ptas --help', [ptas, '--help']],
  ['ptas verify --help', [ptas, 'verify', '--help']],
  ['ptas run --help', [ptas, 'run', '--help']],
  ['ptas list', [ptas, 'list']],
];
console.log(`yardstick (node --import tsx -e 0): ${yardstick.toFixed(2)} s CPU, median of ${RUNS}`);
const figures = commands.map(([name, args]) => {
  const cpu = medianCpu(args);
  console.log(`${name.padEnd(20)} ${cpu.toFixed(2)} s CPU = ${(cpu / yardstick).toFixed(2)}× the yardstick`);
  return { name, ratio: cpu / yardstick };
});
const help = figures[0]!;
endWithBudgets([help.ratio > HELP_BUDGET_RATIO && `${help.name} costs ${help.ratio.toFixed(2)}× the yardstick's CPU, over ${HELP_BUDGET_RATIO}×`]);
