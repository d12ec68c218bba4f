// `ptas load --engine embedded --instances N`: N embedded-engine processes
// split by the same segment rules as k6 instances (k6-operator's even split)
// and merged by the same code. Each prepares, says it is ready, and all are
// given one start time a moment ahead (a barrier: a process that loads
// slower does not start later), as k6-operator resumes its paused runners.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ResolvedProfile } from '../../src/config/profile.ts';
import { fromRoot } from '../../src/paths.ts';
import type { InstanceInfo } from '../result/instance.ts';
import type { LoadScenario } from '../scenarios/types.ts';
import type { InstanceRun, NamedRun } from './compatible.ts';
import type { InstanceMessage, InstanceSpec } from './instance-spec.ts';
import { evenSplit } from './segment.ts';

export interface EmbeddedInstancesOptions {
  instances: number;
  scenario: LoadScenario;
  profile: ResolvedProfile;
  /** What every instance shares; each gets its segment of the even split. */
  info: Omit<InstanceInfo, 'segment' | 'sequence'>;
  maxInFlight?: number;
  output: NodeJS.WritableStream;
  signal?: AbortSignal;
  /** Write every instance's raw samples here (instance-N.samples.ndjson), to check the merge against them. */
  rawSamplesDir?: string;
  /** The start is this far after the last instance is ready (default 300 ms). */
  startDelayMs?: number;
  readyTimeoutMs?: number;
}

interface Started {
  child: ChildProcess;
  label: string;
  segment: string;
  resultPath: string;
  ready: Promise<void>;
  exited: Promise<number | null>;
  stderr: () => string;
}

function start(spec: InstanceSpec, specPath: string, label: string, secret: string): Omit<Started, 'segment' | 'resultPath'> {
  writeFileSync(specPath, JSON.stringify(spec), { mode: 0o600 });
  const child = spawn(process.execPath, ['--import', 'tsx', fromRoot('load', 'distributed', 'instance-process.ts'), specPath], {
    cwd: fromRoot(),
    env: { ...process.env, PTAS_CLIENT_SECRET: secret },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if ((JSON.parse(line) as InstanceMessage).event === 'ready') resolve();
    });
    void exited.then((code) => reject(new Error(`${label} exited with ${code} before it was ready: ${stderr.trim()}`)));
  });
  ready.catch(() => undefined);
  return { child, label, ready, exited, stderr: () => stderr };
}

export async function runEmbeddedInstances(options: EmbeddedInstancesOptions): Promise<NamedRun[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-instances-'));
  const started: Started[] = [];
  const abort = () => started.forEach((s) => s.child.kill('SIGKILL'));
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const { sequence, segments } = evenSplit(options.instances);
    const { clientSecret, ...credentials } = options.profile.credentials;
    for (const [i, segment] of segments.entries()) {
      const label = `embedded ${i + 1}/${segments.length}`;
      const resultPath = path.join(dir, `instance-${i + 1}.json`);
      const spec: InstanceSpec = {
        scenario: options.scenario,
        profile: { ...options.profile, credentials: { ...credentials, clientSecret: '' } },
        info: { ...options.info, segment, sequence },
        maxInFlight: options.maxInFlight,
        resultPath,
        ...(options.rawSamplesDir ? { rawSamplesPath: path.join(options.rawSamplesDir, `instance-${i + 1}.samples.ndjson`) } : {}),
      };
      started.push({ ...start(spec, path.join(dir, `spec-${i + 1}.json`), label, clientSecret), segment, resultPath });
    }
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the instances were not ready in time')), options.readyTimeoutMs ?? 120_000).unref());
    await Promise.race([Promise.all(started.map((s) => s.ready)), timeout]);
    const atMs = Date.now() + (options.startDelayMs ?? 300);
    for (const s of started) s.child.stdin!.write(`${JSON.stringify({ event: 'start', atMs } satisfies InstanceMessage)}\n`);
    options.output.write(`ptas load: ${started.length} embedded instances ready; started together at ${new Date(atMs).toISOString()}\n`);
    const codes = await Promise.all(started.map((s) => s.exited));
    const failed = started.flatMap((s, i) => (codes[i] === 0 ? [] : [`${s.label} exited with ${codes[i]}: ${s.stderr().trim()}`]));
    if (failed.length) throw new Error(failed.join('\n'));
    return started.map((s) => ({ name: `${s.label} (${s.segment})`, run: JSON.parse(readFileSync(s.resultPath, 'utf8')) as InstanceRun }));
  } finally {
    options.signal?.removeEventListener('abort', abort);
    for (const s of started) {
      s.child.stdin!.end();
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
