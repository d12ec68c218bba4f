// `ptas load --engine k6 --instances N`: N local k6 processes, each running
// its --execution-segment of one --execution-segment-sequence (k6-operator's
// even split), started together the way k6-operator starts its runners:
// each waits --paused behind its REST API until all are up, then all are
// resumed (PATCH /v1/status). Each writes its points (--out json); they
// become instance results (points-instance.ts) for the merge.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { InstanceInfo } from '../result/instance.ts';
import type { NamedRun } from '../distributed/compatible.ts';
import { evenSplit } from '../distributed/segment.ts';
import { k6Args, k6Environment, k6Variables, writeProfileFile, type K6Invocation } from './invocation.ts';
import { instanceFromPoints } from './points-instance.ts';

export interface K6InstancesOptions extends K6Invocation {
  binary: string;
  instances: number;
  /** What every instance shares; each gets its segment of the even split. */
  info: Omit<InstanceInfo, 'segment' | 'sequence'>;
  output: NodeJS.WritableStream;
  signal?: AbortSignal;
  /** How long the processes may take to come up, paused (default 60 s). */
  readyTimeoutMs?: number;
}

export interface K6InstancesResult {
  runs: NamedRun[];
  exitCodes: Array<number | null>;
}

const RESUME = JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: false } } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Each line of the child's output, prefixed with the instance, on the shared output. */
function relay(child: ChildProcess, label: string, output: NodeJS.WritableStream): void {
  for (const stream of [child.stdout!, child.stderr!]) createInterface({ input: stream }).on('line', (line) => output.write(`[${label}] ${line}\n`));
}

/** Polls k6's REST API until it answers; fails as soon as the process has exited. */
async function untilReady(address: string, child: ChildProcess, label: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode} before it was ready`);
    try {
      const res = await fetch(`http://${address}/v1/status`);
      await res.arrayBuffer();
      if (res.status < 400) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${label}: k6's REST API at ${address} did not answer within ${timeoutMs} ms`);
}

async function resume(address: string, label: string): Promise<void> {
  const res = await fetch(`http://${address}/v1/status`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: RESUME });
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`${label}: k6 refused to resume (${res.status})`);
}

export async function runK6Instances(options: K6InstancesOptions): Promise<K6InstancesResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-k6-instances-'));
  const children: ChildProcess[] = [];
  const abort = () => children.forEach((c) => c.kill('SIGINT'));
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const { sequence, segments } = evenSplit(options.instances);
    const profileFile = writeProfileFile(dir, options.profile);
    const started = await Promise.all(
      segments.map(async (segment, i) => {
        const label = `k6 ${i + 1}/${segments.length}`;
        const address = `127.0.0.1:${await freePort()}`;
        const points = path.join(dir, `instance-${i + 1}.ndjson`);
        const vars = k6Variables(options, { profile: profileFile, result: path.join(dir, `summary-${i + 1}.json`) });
        const flags = ['--quiet', '--paused', '--address', address, `--execution-segment=${segment}`, `--execution-segment-sequence=${sequence}`, '--out', `json=${points}`, '--tag', `instance_id=${i + 1}`];
        const child = spawn(options.binary, k6Args(flags, vars, options.script), { env: k6Environment(options.profile), stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        relay(child, label, options.output);
        return { child, label, address, points, segment, exited: new Promise<number | null>((resolve) => child.once('close', resolve)) };
      }),
    );
    await Promise.all(started.map((s) => untilReady(s.address, s.child, s.label, options.readyTimeoutMs ?? 60_000)));
    options.output.write(`ptas load: ${started.length} k6 instances up and paused; resuming them together\n`);
    await Promise.all(started.map((s) => resume(s.address, s.label)));
    const exitCodes = await Promise.all(started.map((s) => s.exited));
    const runs: NamedRun[] = [];
    for (const s of started) {
      const { run } = await instanceFromPoints(s.points, options.scenario, { ...options.info, segment: s.segment, sequence });
      runs.push({ name: `${s.label} (${s.segment})`, run });
    }
    return { runs, exitCodes };
  } finally {
    options.signal?.removeEventListener('abort', abort);
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
