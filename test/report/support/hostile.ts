// Results carrying what a hostile implementation could put into evidence:
// markup that would run script if it reached the page unescaped, a premature
// </script>, URLs a careless page would load, and characters XML forbids.
import type { RunResults } from '../../../src/results/model.ts';
import { syntheticResults } from './synthetic.ts';

/** Each payload sets window.__pwned or fetches a URL if it ever executes. */
export const PAYLOADS = [
  '</script><script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '"><svg onload="window.__pwned = 3"><a href="javascript:window.__pwned = 4">x</a>',
  '<!-- \u2028\u2029 --> <style>body{background:url(http://evil.example/track.png)}</style>',
  "'; window.__pwned = 5; //",
  '<link rel=stylesheet href="http://evil.example/x.css"><iframe src="http://evil.example/"></iframe>',
  'control characters \u0000\u0001\u001b[31m and a lone surrogate \ud800 end',
];

export const HOSTILE_TEXT = PAYLOADS.join(' | ');

export function hostileResults(): RunResults {
  const results = syntheticResults({ checks: 6, loadRequests: 50_000, seed: 7 });
  results.run.target = `http://127.0.0.1:9/${PAYLOADS[1]}`;
  results.run.implementation = PAYLOADS[0];
  results.run.interrupted = PAYLOADS[2];
  results.run.insecureTls = true;
  results.errors = [HOSTILE_TEXT];
  const check = results.checks[0]!;
  check.verdict = 'FAIL';
  check.reason = HOSTILE_TEXT;
  check.details = { expected: PAYLOADS[0], actual: { [PAYLOADS[1]!]: PAYLOADS[2] } };
  check.findings = [{ level: 'WARN', message: PAYLOADS[3]!, details: { x: PAYLOADS[5] } }];
  check.timeline = [{ atMs: 1, event: PAYLOADS[4]!, detail: PAYLOADS[6] }];
  check.evidence = [
    {
      id: 1,
      label: PAYLOADS[0],
      startedAt: '2026-11-22T21:13:47.196Z',
      durationMs: 3,
      request: { method: 'GET', url: `http://127.0.0.1:9/${PAYLOADS[5]}`, headers: { [PAYLOADS[1]!]: PAYLOADS[2]! }, bodyBytes: 0 },
      response: {
        status: 500,
        headers: { 'content-type': 'text/html', [`x-${PAYLOADS[0]}`]: HOSTILE_TEXT },
        body: `<html><body>${HOSTILE_TEXT}</body></html>`,
        bodyBytes: 400,
        truncated: true,
      },
      error: { code: 'RESET', message: HOSTILE_TEXT },
      curl: `curl -sS '${PAYLOADS[0]}'`,
      schemaErrors: [{ instancePath: `/${PAYLOADS[1]}`, message: PAYLOADS[2]!, keyword: 'type', params: { type: PAYLOADS[0] }, kind: 'violation' }],
    },
  ];
  const probe = results.load!.probes[0]!;
  probe.reason = HOSTILE_TEXT;
  probe.operation = PAYLOADS[1]!;
  if (probe.kind === 'rate-limit' && probe.headers) probe.headers.fields = { [PAYLOADS[0]!]: PAYLOADS[5]! };
  results.load!.profiles[0]!.scenario = PAYLOADS[2]!;
  results.load!.profiles[0]!.thresholds = [{ name: PAYLOADS[0]!, ok: false }];
  results.load!.profiles[0]!.statusCounts = { [PAYLOADS[1]!]: 3 };
  return results;
}
