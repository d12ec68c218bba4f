// Acceptance of the 413 probe (issue 7): against the reference with a body
// limit of L bytes, for two different L, the probe finds L exactly (the
// largest accepted body; L + 1 is the smallest refused) within
// 2·⌈log2(range)⌉ + 4 requests, every framing included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runBodySizeProbe } from '../../load/probes/body-size/run.ts';
import { tokenRequest } from '../../load/scenarios/operations.ts';
import { spawnReferences } from '../../app/run/reference-process.ts';
import { REFERENCE_DEFAULTS } from '../../reference/options.ts';

const MAX_BYTES = 1024 * 1024;

test('the 413 boundary is found to the byte within the request budget, for two limits', { timeout: 60_000 }, async (t) => {
  const limits = [1000, 65_536];
  const farm = await spawnReferences(limits.map((tokenBodyLimitBytes) => ({ tokenBodyLimitBytes })));
  try {
    for (const [i, limit] of limits.entries()) {
      const server = farm.servers[i]!;
      const run = await runBodySizeProbe({
        baseUrl: server.url,
        request: tokenRequest(),
        variables: { clientId: REFERENCE_DEFAULTS.clientId, clientSecret: server.options.clientSecret },
        maxBytes: MAX_BYTES,
      });
      const budget = 2 * Math.ceil(Math.log2(MAX_BYTES - run.minBytes)) + 4;
      t.diagnostic(`limit ${limit}: found ${run.judgement.largestAcceptedBytes} (refused from ${run.judgement.smallestRejectedBytes}) in ${run.requests} requests, budget ${budget}; ${run.judgement.verdict}`);
      assert.equal(run.judgement.verdict, 'PASS', run.judgement.reason);
      assert.equal(run.judgement.largestAcceptedBytes, limit);
      assert.equal(run.judgement.smallestRejectedBytes, limit + 1);
      assert.equal(run.requestBudget, budget);
      assert.ok(run.requests <= budget, `${run.requests} requests, budget ${budget}`);
      const framings = new Set(run.steps.filter((s) => s.sizeBytes === limit + 1).map((s) => s.framing));
      assert.deepEqual([...framings].sort(), ['chunked', 'content-length', 'expect-100-continue']);
      assert.ok(run.steps.every((s) => s.outcome !== '5xx'));
    }
  } finally {
    await farm.stop();
  }
});
