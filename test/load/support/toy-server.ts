// A trivial HTTP server in a child process (so it does not share the event
// loop with the engine under test): answers 200 {"ok":true}, optionally after
// a delay, or drops every connection; or ('errors') answers in turn 429 with
// a JSON body, 429 with a chunked HTML page, and 200.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export type ToyBehaviour = { kind: 'ok' } | { kind: 'slow'; delayMs: number } | { kind: 'reset' } | { kind: 'errors' };

const SERVER = `
const http = require('node:http');
const behaviour = JSON.parse(process.argv[1]);
const body = JSON.stringify({ ok: true });
let n = 0;
const server = http.createServer((req, res) => {
  req.resume();
  if (behaviour.kind === 'errors') {
    const turn = n++ % 3;
    if (turn === 0) { const json = JSON.stringify({ error: 'slow down' }); res.writeHead(429, { 'content-type': 'application/json', 'content-length': json.length }); return res.end(json); }
    if (turn === 1) { res.writeHead(429, { 'content-type': 'text/html' }); res.write('<html><body>Too Many'); return res.end(' Requests</body></html>'); }
  }
  const answer = () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }); res.end(body); };
  if (behaviour.kind === 'reset') return req.socket.destroy();
  if (behaviour.kind === 'slow') return setTimeout(answer, behaviour.delayMs);
  answer();
});
server.keepAliveTimeout = 10000;
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

export async function startToyServer(behaviour: ToyBehaviour = { kind: 'ok' }): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SERVER, JSON.stringify(behaviour)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`toy server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
