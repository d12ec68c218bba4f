// A real `ptas serve` for the tests: in-process (createServer on 127.0.0.1,
// a free port, a fresh store) or as the command line's child process, and the
// HTTP calls a CI job would make against it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromRoot } from '../../src/paths.ts';
import type { RunEvent, RunRecord } from '../../app/serve/contract.ts';
import { createServer, type ServeServer, type ServerOptions } from '../../app/serve/server.ts';
import { registerConsoleOnServer } from '../../app/serve/console-on-server.ts';
import type { ConsoleOptions } from '../../app/serve/console/routes.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export type Call = (method: string, route: string, options?: { body?: unknown; token?: string | null; raw?: string; headers?: Record<string, string> }) => Promise<Answer>;

/** Calls the server; the token is the given one (null: none). */
export function caller(url: string, token: string, seen?: string[]): Call {
  return async (method, route, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const bearer = options.token === undefined ? token : options.token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${url}${route}`, { method, headers, body });
    const text = await response.text();
    seen?.push(text, [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n'));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}

export interface TestServer {
  server: ServeServer;
  url: string;
  token: string;
  data: string;
  logs: string[];
  call: Call;
  close(): Promise<void>;
}

export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const data = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-'));
  const logs: string[] = [];
  const server = await createServer({ host: '127.0.0.1', port: 0, log: (line) => logs.push(line), ...options, dataDir: data });
  const token = server.firstRunToken?.token ?? server.services.tokens.create(`test-${Date.now()}`);
  return { server, url: server.url, token, data, logs, call: caller(server.url, token), close: () => server.close() };
}

/** A real server with the console registered as `ptas serve` registers it (bin/serve-command.ts); `console` changes its options (a session's idle time). */
export function startConsoleTestServer(options: Partial<ServerOptions> = {}, console: ConsoleOptions = {}): Promise<TestServer> {
  return startTestServer({ registerExtra: (app, services, log) => registerConsoleOnServer(app, services, log, console), ...options });
}

/** A run of the bundled reference as narrow as a run gets (one check, no load stage): a real run that ends within seconds. */
export const NARROW_RUN = { implementation: 'reference', options: { load: false, grep: '@check:auth.missing-bearer-is-401' } } as const;

/**
 * A run with a bundle within a second or two, for a test that needs one but
 * not its checks: NARROW_RUN (or the run `runId`, started already),
 * cancelled once it is under way (its first line of output), which writes its
 * partial bundle (an INCOMPLETE report); a run that finished first is as good.
 */
export async function cancelledWhileRunning(lab: TestServer, runId?: string): Promise<RunRecord> {
  let id = runId;
  if (id === undefined) {
    const started = await lab.call('POST', '/api/runs', { body: NARROW_RUN });
    if (started.status !== 202) throw new Error(`the run did not start: ${started.status} ${started.text}`);
    id = (started.json as RunRecord).id;
  }
  const underWay = new AbortController();
  const response = await fetch(`${lab.url}/api/runs/${id}/events`, { headers: { authorization: `Bearer ${lab.token}` }, signal: underWay.signal });
  let seen = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    seen += Buffer.from(chunk).toString('utf8');
    if (seen.includes('event: log\n')) break;
  }
  underWay.abort();
  await lab.call('POST', `/api/runs/${id}/cancel`);
  const ended = await waitForRun(lab.call, id, ['cancelled', 'finished']);
  if (!ended.bundle) throw new Error(`run ${id} wrote no bundle: ${JSON.stringify(ended)}`);
  return ended;
}

/** Starts NARROW_RUN (or another run request) and waits until it finished. */
export async function finishedRun(call: Call, body: unknown = NARROW_RUN): Promise<RunRecord> {
  const started = await call('POST', '/api/runs', { body });
  if (started.status !== 202) throw new Error(`the run did not start: ${started.status} ${started.text}`);
  return waitForRun(call, (started.json as RunRecord).id, ['finished']);
}

export interface ConsoleSession {
  /** The session cookie, as a Cookie header's value. */
  cookie: string;
  /** The session's secret, as the login's answer handed it to the browser (its bearer). */
  secret: string;
  /** Calls the server (the API, the console's session endpoint) with the session's cookie and its secret as the bearer. */
  call: Call;
  /** A one-use URL of a run's report or bundle, as the run page asks for one. */
  ticket(runId: string, kind: 'report' | 'bundle'): Promise<string>;
  /** Fetches a run's report or bundle as the browser does: a ticket first, then the URL with the cookie. */
  file(runId: string, kind: 'report' | 'bundle'): Promise<Response>;
}

/** The secret the login's answer page carries for the browser's storage (app/serve/console/pages.ts signedInPage). */
export function secretOfSignInPage(html: string): string | undefined {
  return /<meta name="ptas-session-secret" content="([^"]+)">/.exec(html)?.[1];
}

/** Signs in to the console as its login form does (POST /login with the token), and takes the secret from the answer as the browser's script does. */
export async function consoleSignIn(url: string, token: string, seen?: string[]): Promise<ConsoleSession> {
  const login = await fetch(`${url}/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url }, body: new URLSearchParams({ token, next: '/' }).toString() });
  const page = await login.text();
  if (login.status !== 200) throw new Error(`the console's login answered ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const secret = secretOfSignInPage(page);
  if (!secret) throw new Error(`no session secret in the login's answer:\n${page}`);
  const call = caller(url, secret, seen);
  const session: ConsoleSession = {
    cookie,
    secret,
    call: (method, route, options = {}) => call(method, route, { ...options, headers: { cookie, ...(method === 'GET' ? {} : { origin: url }), ...options.headers } }),
    ticket: async (runId, kind) => {
      const answer = await session.call('POST', `/api/runs/${runId}/tickets`, { body: { kind } });
      if (answer.status !== 201) throw new Error(`no ${kind} ticket for ${runId}: ${answer.status} ${answer.text}`);
      return answer.json.url as string;
    },
    file: async (runId, kind) => fetch(`${url}${await session.ticket(runId, kind)}`, { headers: { cookie } }),
  };
  return session;
}

/** Asks until the run's status is one of `statuses`, or fails after `timeoutMs`. */
export async function waitForRun(call: Call, runId: string, statuses: RunRecord['status'][], timeoutMs = 120_000): Promise<RunRecord> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { json } = await call('GET', `/api/runs/${runId}`);
    if (statuses.includes((json as RunRecord).status)) return json as RunRecord;
    if (performance.now() > deadline) throw new Error(`run ${runId} is still ${(json as RunRecord).status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface StreamedEvent {
  id: number;
  event: string;
  data: RunEvent;
}

/** Reads a run's server-sent events until the server ends the stream (after `end`); the raw text too. */
export async function readEvents(url: string, token: string, runId: string, onEvent?: (event: StreamedEvent) => void): Promise<{ events: StreamedEvent[]; raw: string; contentType: string | null }> {
  const response = await fetch(`${url}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${token}` } });
  const events: StreamedEvent[] = [];
  let raw = '';
  let pending = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    const text = decoder.decode(chunk, { stream: true });
    raw += text;
    pending += text;
    let boundary: number;
    while ((boundary = pending.indexOf('\n\n')) >= 0) {
      const block = pending.slice(0, boundary);
      pending = pending.slice(boundary + 2);
      const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      if (!fields.event) continue;
      const event = { id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data!) as RunEvent };
      events.push(event);
      onEvent?.(event);
    }
  }
  return { events, raw, contentType: response.headers.get('content-type') };
}

/** Extracts a .tar.gz with the system's tar, as a certifier would; returns the folder it extracted into. */
export function extractArchive(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ptas-serve-archive-'));
  const file = path.join(dir, 'bundle.tar.gz');
  writeFileSync(file, bytes);
  const into = path.join(dir, 'extracted');
  mkdirSync(into);
  execFileSync('tar', ['xzf', file, '-C', into]);
  return into;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** The first-run token, when this start printed one. */
  token?: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `ptas serve --port 0 --data DIR [args]` as a child process; resolves once it printed its address (and first-run token, if any). */
export function startServeProcess(data: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [fromRoot('bin', 'ptas.js'), 'serve', '--port', '0', '--data', data, ...args], {
    cwd: fromRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ptas serve did not start:\n${stdout}\n${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      const firstRun = /first-run token/.test(stdout);
      const token = /\n(ptas_[A-Za-z0-9_-]+)\n/.exec(stdout)?.[1];
      if (url && (!firstRun || token)) {
        clearTimeout(timer);
        resolve({ child, url, ...(token ? { token } : {}), stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`ptas serve exited with ${code}:\n${stdout}\n${stderr}`));
    });
  });
}
