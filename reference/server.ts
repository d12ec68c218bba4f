// The reference implementation's HTTP server. Bad input of any kind gets a
// client error; an exception in a handler is logged and answered 500 without
// taking the server down. Each request runs in a response scope
// (response-variants.ts) so the common variants (reference/variants/common.ts:
// media type, error body shape, extra members) reach every route's answers,
// the 404 and 405 of the router included, without any route knowing them.
// The conditions that sit in front of every operation (latency, closed
// connections, a proxy, transient answers) are layers around routing and
// the operation (conditions/http-layers.ts); none is active by default.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReferenceContext } from './context.ts';
import { FaultSet } from './faults/index.ts';
import { VariantSet } from './variants/index.ts';
import { ConditionSet } from './conditions/index.ts';
import { conditionLayers } from './conditions/http-layers.ts';
import { referenceClock } from './conditions/second-resolution.ts';
import { seedUsers } from './fixtures/users.ts';
import { sendError } from './http-util.ts';
import { TokenKeys } from './keys.ts';
import { REFERENCE_DEFAULTS, type ReferenceOptions } from './options.ts';
import { Router } from './router.ts';
import { registerRoutes } from './routes/index.ts';
import { withResponseScope } from './response-variants.ts';

export interface RunningReference {
  url: string;
  port: number;
  options: ReferenceOptions;
  close(): Promise<void>;
}

export async function startReference(overrides: Partial<ReferenceOptions> = {}): Promise<RunningReference> {
  const options: ReferenceOptions = { ...REFERENCE_DEFAULTS, ...overrides };
  const faults = new FaultSet(options.faults);
  const conditions = new ConditionSet(options.conditions);
  let baseUrl = '';
  const ctx: ReferenceContext = {
    options,
    faults,
    variants: new VariantSet(options.variants),
    conditions,
    clock: referenceClock(conditions.has('second-resolution')),
    keys: await TokenKeys.create('ptas-reference', faults.has('jwks-wrong-key')),
    users: new Map(seedUsers(options.seed).map((u) => [u.id, u])),
    opaqueTokens: new Map(),
    verifiedAccessTokens: new Map(),
    baseUrl: () => baseUrl,
  };
  const router = new Router();
  registerRoutes(router, ctx);
  const layers = conditionLayers(conditions);

  const server: Server = createServer({ maxHeaderSize: layers.maxHeaderSize ?? 16 * 1024, requestTimeout: 30_000 }, (raw, res) => {
    if (layers.beforeRouting(raw, res)) return;
    const url = new URL(raw.url ?? '/', 'http://reference.invalid');
    // Every answer of this request, also those written after an await, sees the common variants.
    const scope = { variants: ctx.variants, faults: ctx.faults, clock: ctx.clock, method: raw.method ?? 'GET', pathname: url.pathname };
    withResponseScope(scope, () => serve(raw, res, url));
  });

  function serve(raw: IncomingMessage, res: ServerResponse, url: URL): void {
    const match = router.match(raw.method ?? 'GET', url.pathname);
    if (match.kind === 'not-found') return sendError(res, 404, 'not_found', `no operation at ${url.pathname}`);
    if (match.kind === 'method-not-allowed') {
      return sendError(res, 405, 'method_not_allowed', `use ${match.allowed.join(', ')}`, { allow: match.allowed.join(', ') });
    }
    if (layers.beforeOperation(match.route, res)) return;
    Promise.resolve(match.handler({ raw, method: raw.method ?? 'GET', url, params: match.params }, res)).catch((error: unknown) => {
      console.error('reference: handler failed:', error);
      if (!res.headersSent) sendError(res, 500, 'internal_error', 'unexpected server error');
      else res.destroy();
    });
  }

  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${options.host}:${port}`;
  return {
    url: baseUrl,
    port,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
