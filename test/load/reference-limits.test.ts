// The reference's limiters and body limit under the load variants
// (reference/limits/, reference/variants/load.ts): the algorithms on a fake
// clock, and over real HTTP what a 429 and a 413 carry under each variant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { FixedWindow } from '../../reference/limits/fixed-window.ts';
import { TokenBucket } from '../../reference/limits/token-bucket.ts';
import { LARGE_TOKEN_BODY_LIMIT_BYTES } from '../../reference/limits/token-limits.ts';
import { startReference } from '../../reference/server.ts';
import type { ReferenceOptions } from '../../reference/options.ts';
import { referenceProfile } from '../../reference/profile.ts';
import { analyzeRetryAdvice } from '../../load/probes/rate-limit/headers.ts';

test('a bucket of one token has no burst: requests closer than 1/rate are refused, spaced ones pass', () => {
  let now = 0;
  const bucket = new TokenBucket(200, 1, () => now);
  assert.equal(bucket.take(), true);
  now += 3; // 3 ms later: the next token is due at 5 ms
  assert.equal(bucket.take(), false);
  now += 2;
  assert.equal(bucket.take(), true);
  now += 1_000; // a long pause saves nothing up
  assert.equal(bucket.take(), true);
  assert.equal(bucket.take(), false);
});

test('a fixed window admits its quota at once, then refuses until the next window', () => {
  let now = 10_000;
  const window = new FixedWindow(3, 1, () => now);
  assert.deepEqual([window.take(), window.take(), window.take(), window.take()], [true, true, true, false]);
  now += 400;
  assert.equal(window.take(), false);
  assert.equal(window.retryAfterSeconds(), 1);
  now += 600; // the next window
  assert.equal(window.take(), true);
});

const tokenBody = (options: ReferenceOptions) =>
  JSON.stringify({ grant_type: 'client_credentials', client_id: options.clientId, client_secret: options.clientSecret });

/** Token requests until the first 429; its headers. */
async function first429(options: Partial<ReferenceOptions>): Promise<Record<string, string>> {
  const ref = await startReference({ port: 0, tokenRatePerSecond: 5, tokenBurst: 2, acceptRatePerSecond: 5, acceptBurst: 2, ...options });
  try {
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${ref.url}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tokenBody(ref.options) });
      await res.arrayBuffer();
      if (res.status === 429) return Object.fromEntries(res.headers.entries());
    }
    throw new Error('no 429 in 20 requests');
  } finally {
    await ref.close();
  }
}

test('what a 429 carries under each header variant parses without a problem', async () => {
  const plain = await first429({});
  assert.ok(plain['retry-after'] && plain['ratelimit-policy']);
  assert.deepEqual(analyzeRetryAdvice(plain).problems, []);

  const none = await first429({ variants: ['rate-limit-no-retry-after'] });
  assert.equal(none['retry-after'], undefined);
  assert.deepEqual(Object.keys(none).filter((h) => /ratelimit/.test(h)), []);

  const ietf = await first429({ variants: ['rate-limit-ietf-fields'] });
  assert.equal(ietf['retry-after'], undefined);
  const ietfAdvice = analyzeRetryAdvice(ietf);
  assert.deepEqual(ietfAdvice.problems, []);
  assert.equal(ietfAdvice.advertisedRps, 5);
  assert.ok(ietfAdvice.resetSec !== undefined && ietfAdvice.resetSec >= 1);
  assert.match(ietf['ratelimit']!, /"token-hourly";r=\d+/);

  const legacy = await first429({ variants: ['rate-limit-legacy-fields'] });
  const legacyAdvice = analyzeRetryAdvice(legacy);
  assert.deepEqual(legacyAdvice.problems, []);
  assert.match(legacy['retry-after']!, /GMT$/);
  assert.equal(legacyAdvice.retryAfterSec, 1);
  assert.equal(legacy['x-ratelimit-limit'], '5');
});

/** One token request with a Content-Length body of `size` bytes on its own connection: status and Connection header. */
function sized(url: string, options: ReferenceOptions, size: number): Promise<{ status: number; connection?: string }> {
  const base = tokenBody(options);
  const body = base.slice(0, -1) + ' '.repeat(Math.max(0, size - base.length)) + '}';
  return new Promise((resolve, reject) => {
    // A keep-alive client: without one Node asks the server to close, and the answer's Connection says nothing.
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(`${url}/v1/oauth/token`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => {
        agent.destroy();
        resolve({ status: res.statusCode!, connection: res.headers.connection });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('body-limit variants: a limit above the probe range, and a 413 after the body was read on a connection kept open', async () => {
  assert.ok(LARGE_TOKEN_BODY_LIMIT_BYTES > 1024 * 1024, 'above the probe\'s default largest body');
  const above = await startReference({ port: 0, variants: ['token-body-limit-above-probe-range'] });
  const drained = await startReference({ port: 0, variants: ['token-body-limit-drained'] });
  try {
    assert.equal((await sized(above.url, above.options, 1024 * 1024)).status, 200);
    assert.equal(referenceProfile(above.url, above.options).load?.tokenBodyLimit, undefined, 'the profile documents no limit');
    const limit = drained.options.tokenBodyLimitBytes;
    assert.equal((await sized(drained.url, drained.options, limit)).status, 200);
    const refused = await sized(drained.url, drained.options, limit + 1);
    assert.equal(refused.status, 413);
    assert.notEqual(refused.connection, 'close');
  } finally {
    await above.close();
    await drained.close();
  }
});
