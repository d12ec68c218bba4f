// A stand-in for the k6 binary (PTAS_K6), for testing how ptas drives k6
// instances where no k6 is installed: it reads `k6 run`'s flags and -e
// variables as k6 does, answers k6's REST API (GET and PATCH /v1/status)
// while --paused, and once resumed runs its --execution-segment of the
// scenario — read by the k6 script's own config code — on the embedded
// engine, writing the answers as k6 points (--out json=FILE) tagged with
// --tag. Its argv goes to FAKE_K6_LOG, one JSON line per process.
//
//   PTAS_K6=test/load/support/fake-k6.sh
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { runEngine, type AnswerSample } from '../../../load/engine/engine.ts';
import { scenarioByName } from '../../../load/scenarios/index.ts';
import type { LoadScenario, OperationName, ScenarioParams } from '../../../load/scenarios/types.ts';
import type { Variables } from '../../../src/template.ts';
import { k6PointsFile } from './k6-points.ts';

/** What the fake uses of load/k6/lib/config.ts. */
interface K6ConfigModule {
  readConfig(): { baseUrl: string; scenarioName: string; maxInFlight: number };
  paramsFor(config: unknown, operation: OperationName, profileLengthSec?: number): ScenarioParams;
  variablesFor(config: unknown, operation: OperationName): Variables;
}

const argv = process.argv.slice(2);
if (process.env.FAKE_K6_LOG) appendFileSync(process.env.FAKE_K6_LOG, JSON.stringify(argv) + '\n');

function flag(name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i]!.includes('=') && argv[i]!.startsWith(`${name}=`) ? argv[i]!.slice(name.length + 1) : argv[i + 1];
}

const env: Record<string, string> = { ...(process.env as Record<string, string>) };
for (let i = 0; i < argv.length; i++) {
  if (argv[i] !== '-e') continue;
  const [k, ...v] = argv[i + 1]!.split('=');
  env[k!] = v.join('=');
}
const tags = Object.fromEntries(argv.flatMap((a, i) => (a === '--tag' ? [argv[i + 1]!.split('=')] : [])));
const out = flag('--out')!.replace(/^json=/, '');

// The k6 script's own reading of -e variables and the profile (load/k6/lib/config.ts), given
// k6's globals; imported by a computed name, as the Node type-check leaves load/k6 to its own (load/tsconfig.json).
Object.assign(globalThis, { __ENV: env, open: (file: string) => readFileSync(file, 'utf8') });
const k6Config = '../../../load/k6/lib/config.ts';
const { readConfig, paramsFor, variablesFor } = (await import(k6Config)) as K6ConfigModule;
const config = readConfig();
const entry = scenarioByName(config.scenarioName)!;
const scenario = entry.build(paramsFor(config, entry.operation, entry.kind === 'profile' ? Infinity : undefined), { maxInFlight: config.maxInFlight }) as LoadScenario;

async function run(): Promise<void> {
  const samples: AnswerSample[] = [];
  const result = await runEngine({
    baseUrl: config.baseUrl,
    scenario,
    variables: variablesFor(config, entry.operation),
    rateLimitExpected: scenario.kind === 'rate-breakpoint',
    segment: { segment: flag('--execution-segment')!, sequence: flag('--execution-segment-sequence') },
    onAnswer: (s) => void samples.push(s),
  });
  const instanceId = tags.instance_id ? Number(tags.instance_id) : undefined;
  writeFileSync(out, k6PointsFile(samples, { startedAtMs: Date.parse(result.startedAt), plan: scenario.scenarios, instanceId }));
}

const [host, port] = (flag('--address') ?? '127.0.0.1:6565').split(':');
const server = http.createServer((req, res) => {
  req.resume();
  const resumed = req.method === 'PATCH';
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: !resumed } } }));
  if (resumed) {
    server.close();
    run().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`fake k6: ${String(error)}\n`);
        process.exit(1);
      },
    );
  }
});
if (argv.includes('--paused')) server.listen(Number(port), host);
else run().then(() => process.exit(0));
