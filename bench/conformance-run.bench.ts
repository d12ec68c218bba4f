// Times a full conformance run (no load stage) against the reference, with 1
// and with the default number of Playwright workers, against a baseline from
// the same run: the fixed cost of a run that selects no check. A last run
// gives the webhook checks one user, so they take turns instead of running
// side by side (suites/webhooks/support.ts).
import { referenceProfile } from '../reference/profile.ts';
import { spawnReference } from '../app/run/reference-process.ts';
import { runConformance } from '../app/run/conformance.ts';

const reference = await spawnReference();
const profile = referenceProfile(reference.url, reference.options);

const oneWebhookUser = { ...profile, webhooks: { ...profile.webhooks, additionalUsers: undefined } };

async function timed(label: string, options: { grep?: string; workers?: number }, target = profile): Promise<number> {
  const started = performance.now();
  const output = await runConformance({ targets: [{ name: 'target', profile: target }], progress: false, ...options });
  const ms = performance.now() - started;
  const bad = output.checks.filter((c) => c.verdict === 'FAIL' || c.verdict === 'ERROR').length;
  console.log(`${label.padEnd(34)} ${(ms / 1000).toFixed(2).padStart(6)} s  ${output.checks.length} checks${bad ? `, ${bad} FAIL/ERROR` : ''}`);
  return ms;
}

try {
  const baseline = await timed('baseline (no check selected)', { grep: '@no-such-check' });
  const serial = await timed('full run, 1 worker', { workers: 1 });
  const parallel = await timed('full run, default workers', {});
  const turns = await timed('... with one webhook user', {}, oneWebhookUser);
  console.log(`ratio full/baseline: ${(parallel / baseline).toFixed(2)}; speed-up of default workers over 1: ${(serial / parallel).toFixed(2)}×; of the profile's webhook users (one per webhook check) over one: ${(turns / parallel).toFixed(2)}×`);
  console.log(`target (issue 14): full run at most 10 s — ${parallel <= 10_000 ? 'met' : 'NOT met'}`);
} finally {
  await reference.stop();
}
