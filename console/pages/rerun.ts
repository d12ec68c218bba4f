// Under a finished run that has checks to try again (FAIL, FLAKY, ERROR,
// SKIP, or not reached): "Run again only those", with the one-run secrets
// its implementation's profile asks for. The server plans the re-run and
// joins it to this run as `ptas merge` joins attempts (app/serve/rerun.ts);
// what it refuses (nothing to re-run, the profile saved since) is shown here.
import type { ImplementationRecord, RunRecord } from '../../app/serve/console/api-types.ts';
import { RERUN_VERDICTS } from '../../src/check/verdict-names.ts';
import { h } from '../dom.ts';
import { oneRunSecretFields, startRun } from './run-form.ts';

/** Whether the run may have something to run again: the server's plan has the last word. */
function hasSomethingToTryAgain(run: RunRecord): boolean {
  if (!run.bundle) return false;
  return run.status === 'cancelled' || run.verdict === 'INCOMPLETE' || RERUN_VERDICTS.some((v) => (run.counts?.[v] ?? 0) > 0);
}

export function rerunPart(run: RunRecord, implementation: ImplementationRecord | undefined): HTMLElement | null {
  if (!hasSomethingToTryAgain(run)) return null;
  // What the implementation's saved profile asks for with each run (the re-run's profile is that one: the server refuses a re-run once it was saved again).
  const secrets = oneRunSecretFields(run.implementation, implementation?.profileText ?? '');
  const submit = h('button', { attrs: { type: 'submit', id: 'rerun' } }, 'Run again only these');
  const status = h('div', { class: 'form-status' });
  const form = h(
    'form',
    { class: 'rerun-form', attrs: { id: 'rerun-form' } },
    h('h2', null, 'Run again what failed or did not run'),
    h(
      'p',
      { class: 'hint' },
      'Only the checks that failed, erred or were skipped, and any the run did not reach, run again, with this run’s options. ' +
        'The new run’s bundle joins both attempts as ptas merge does: a check that failed and then passes is FLAKY, an error or skip followed by a verdict takes that verdict.',
    ),
    secrets.fieldset,
    h('div', { class: 'actions' }, submit),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    startRun({ implementation: run.implementation, options: { rerunOf: run.id } }, secrets, submit, status);
  });
  return form;
}
