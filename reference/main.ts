// Entry point of a reference process started by `ptas run` or the tests.
// Options arrive as one JSON argument: an object for one server, or an array
// for several in one process (the self-test runs one server per fault). Once
// all accept connections it prints {"event":"listening","urls":[…]}.
import { startReference, type RunningReference } from './server.ts';
import type { ReferenceOptions } from './options.ts';

const parsed = JSON.parse(process.argv[2] ?? '{}') as Partial<ReferenceOptions> | Array<Partial<ReferenceOptions>>;
const optionsList = Array.isArray(parsed) ? parsed : [parsed];
// The secret travels by environment, never on the command line (ps would show it).
const secret = process.env.PTAS_REFERENCE_CLIENT_SECRET;
const issuedTokenLog = process.env.PTAS_REFERENCE_TOKEN_LOG;
const servers: RunningReference[] = await Promise.all(
  optionsList.map((options) =>
    startReference({ ...options, ...(secret ? { clientSecret: secret } : {}), ...(issuedTokenLog ? { issuedTokenLog } : {}) }),
  ),
);
process.stdout.write(JSON.stringify({ event: 'listening', urls: servers.map((s) => s.url) }) + '\n');
const stop = () => void Promise.all(servers.map((s) => s.close())).then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Exit with the parent: a reference must never outlive the run that started it.
process.stdin.on('end', stop);
process.stdin.resume();
