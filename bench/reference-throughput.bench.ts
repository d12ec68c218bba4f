// Reference throughput on loopback, measured with wrk: GET /v2/users/{id}
// with a bearer (acceptance bar: at least 5,000 requests/s) and POST
// /v1/oauth/token (client_credentials), each next to a same-run baseline of
// a trivial node:http server returning the same JSON body, so the figures
// read as ratios rather than as numbers that depend on the machine.
// The reference runs in its own process (as under `ptas run`) with a rate
// limit far above what wrk can offer, so the limiter never answers 429.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { seedUsers } from '../reference/fixtures/users.ts';
import { REFERENCE_DEFAULTS } from '../reference/options.ts';
import { spawnReference } from '../app/run/reference-process.ts';

const USERS_BAR_RPS = 5_000;
const WRK = { threads: 1, connections: 32, warmupSeconds: 2, seconds: 8 };

interface WrkResult {
  rps: number;
  requests: number;
  non2xx: number;
  socketErrors: number;
  avgLatencyMs: number;
  p99LatencyMs: number;
}

function findWrk(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'wrk');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  console.error('reference-throughput: wrk is not installed or not on PATH; install it (Debian/Ubuntu: apt-get install wrk) and run again');
  process.exit(2);
}

function milliseconds(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

function parseWrk(output: string): WrkResult {
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  const latency = /Latency\s+([\d.]+)(us|ms|s|m)\b/.exec(output);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\b/m.exec(output);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const rps = number(/Requests\/sec:\s+([\d.]+)/);
  if (!rps) throw new Error(`could not read wrk's output:\n${output}`);
  return {
    rps,
    requests: number(/(\d+) requests in/),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    socketErrors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    avgLatencyMs: latency ? milliseconds(latency[1]!, latency[2]!) : NaN,
    p99LatencyMs: p99 ? milliseconds(p99[1]!, p99[2]!) : NaN,
  };
}

/** One warm-up run (JIT, connection set-up), then the measured run. */
function runWrk(wrk: string, url: string, script: string | undefined): WrkResult {
  const args = (seconds: number) => [
    `-t${WRK.threads}`,
    `-c${WRK.connections}`,
    `-d${seconds}s`,
    '--latency',
    ...(script ? ['-s', script] : []),
    url,
  ];
  spawnSync(wrk, args(WRK.warmupSeconds), { encoding: 'utf8' });
  const run = spawnSync(wrk, args(WRK.seconds), { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk failed (exit ${run.status}): ${run.stderr || run.stdout}`);
  return parseWrk(run.stdout);
}

/** A Lua string literal; the values are ours (token, JSON) but escaping keeps the script valid whatever they hold. */
const lua = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** The trivial server: fixed JSON body, same headers as the reference's sendJson; started in its own process like the reference. */
const BASELINE_SERVER = `
const body = process.env.BASELINE_BODY;
const length = Buffer.byteLength(body);
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': length, 'cache-control': 'no-store' });
  res.end(body);
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

async function startBaseline(body: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', BASELINE_SERVER], { env: { ...process.env, BASELINE_BODY: body }, stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`baseline server exited with code ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, child };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function line(label: string, result: WrkResult, baseline?: WrkResult): string {
  const ratio = baseline ? `${(result.rps / baseline.rps).toFixed(2)} × baseline` : '';
  const latency = `avg ${result.avgLatencyMs.toFixed(2)} ms, p99 ${result.p99LatencyMs.toFixed(2)} ms`;
  return `  ${label.padEnd(44)} ${result.rps.toFixed(0).padStart(7)} req/s  ${ratio.padEnd(16)} (${result.requests} requests, ${latency})`;
}

/** Every answer must be a 2xx and every connection must hold, or the rate measures refusals. */
function assertClean(label: string, result: WrkResult): void {
  if (result.non2xx || result.socketErrors) {
    throw new Error(`${label}: ${result.non2xx} non-2xx answers and ${result.socketErrors} socket errors: the figure does not measure successful requests`);
  }
}

const wrk = findWrk();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ptas-bench-'));
const reference = await spawnReference({ tokenRatePerSecond: 1e9, tokenBurst: 1e9, accessTokenTtlSeconds: 3_600 });
let baseline: { url: string; child: ChildProcess } | undefined;
let failed = false;
try {
  const { clientId, clientSecret, seed } = { ...REFERENCE_DEFAULTS, ...reference.options };
  const tokenBody = JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  const issued = await fetch(`${reference.url}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenBody });
  if (issued.status !== 200) throw new Error(`the reference did not issue a token: ${issued.status}`);
  const { access_token: accessToken } = (await issued.json()) as { access_token: string };
  const userUrl = `${reference.url}/v2/users/${seedUsers(seed)[0]!.id}`;
  const userRes = await fetch(userUrl, { headers: { authorization: `Bearer ${accessToken}` } });
  if (userRes.status !== 200) throw new Error(`GET ${userUrl} answered ${userRes.status}`);
  const userBody = await userRes.text();

  // Scripts hold the token and the secret: they go in a private scratch directory, never on wrk's command line.
  const getScript = path.join(scratch, 'get-user.lua');
  writeFileSync(getScript, `wrk.method = "GET"\nwrk.headers["Authorization"] = ${lua(`Bearer ${accessToken}`)}\n`, { mode: 0o600 });
  const postScript = path.join(scratch, 'post-token.lua');
  writeFileSync(postScript, `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = ${lua(tokenBody)}\n`, { mode: 0o600 });

  baseline = await startBaseline(userBody);
  const [load1] = os.loadavg();
  console.log(
    `reference throughput: wrk, ${WRK.threads} thread, ${WRK.connections} connections, ${WRK.seconds} s per endpoint after ${WRK.warmupSeconds} s warm-up; ` +
      `${os.availableParallelism()} cores, load average ${load1!.toFixed(2)} at start; body ${Buffer.byteLength(userBody)} bytes`,
  );
  const base = runWrk(wrk, baseline.url, undefined);
  assertClean('baseline', base);
  console.log(line('baseline: node:http, fixed JSON body', base));
  const users = runWrk(wrk, userUrl, getScript);
  assertClean('GET /v2/users/{id}', users);
  console.log(line('GET /v2/users/{User-ID} (bearer)', users, base));
  const token = runWrk(wrk, `${reference.url}/v1/oauth/token`, postScript);
  assertClean('POST /v1/oauth/token', token);
  console.log(line('POST /v1/oauth/token (client_credentials)', token, base));

  const verdict = users.rps >= USERS_BAR_RPS ? 'PASS' : 'FAIL';
  console.log(`acceptance: GET /v2/users sustains ${users.rps.toFixed(0)} req/s, bar ${USERS_BAR_RPS} req/s: ${verdict}`);
  failed = verdict === 'FAIL';
} catch (error) {
  console.error(`reference-throughput: ${(error as Error).message}`);
  failed = true;
} finally {
  if (baseline) await stopChild(baseline.child);
  await reference.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
