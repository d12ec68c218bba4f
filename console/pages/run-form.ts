// Starting a run of the saved profile: the areas to run or a grep, the load
// stage on or off, seconds of exploration with generated cases, the
// certifier's nonce, and a value for each env:NAME the
// profile references, sent with this run only (password fields, never
// stored; an empty one is left to the server's environment). Those fields
// and the request that starts the run are shared with a run page's "Run
// again only these" (rerun.ts).
import type { RunRecord } from '../../app/serve/console/api-types.ts';
import { messageOf, send } from '../api.ts';
import { fill, h, notice } from '../dom.ts';
import { navigate } from '../router.ts';
import { envReferences, setsClientSecret } from '../profile-secrets.ts';
import { givenSecrets, RUN_AREAS, runOptionsOf, type RunChoices } from '../run-options.ts';
import type { RunSecrets } from '../../app/serve/profile-text.ts';
import type { RunOptionsInput } from '../../app/serve/contract.ts';

function field(label: string, input: HTMLElement, hint?: string): HTMLElement {
  return h('div', { class: 'field' }, h('label', null, label, input), hint ? h('span', { class: 'hint' }, hint) : null);
}

/** The one-run secrets typed into this page's start-run form, if it has one: Check sends them as a run does, so a profile of env: references can be checked. */
export function typedSecrets(): RunSecrets | undefined {
  const form = document.getElementById('run-form');
  if (!form) return undefined;
  const typed = [...form.querySelectorAll<HTMLInputElement>('input[name^="secret-"]')];
  const clientSecret = form.querySelector<HTMLInputElement>('input[name="client-secret"]')?.value;
  return givenSecrets({ secrets: Object.fromEntries(typed.map((input) => [input.name.slice('secret-'.length), input.value])), ...(clientSecret ? { clientSecret } : {}) });
}

export function runForm(implementationId: string, savedProfileText: string): HTMLFormElement {
  const areaBoxes = RUN_AREAS.map((area) => h('input', { attrs: { type: 'checkbox', name: 'area', value: area } }));
  const grep = h('input', { attrs: { type: 'text', name: 'grep', placeholder: '@area:auth or USERS-ACCEPT-LANGUAGE', autocomplete: 'off' } });
  // On by default: a run without the load stage is never certifiable (its load checks are required).
  const load = h('input', { attrs: { type: 'checkbox', name: 'load', checked: '' } });
  const explore = h('input', { attrs: { type: 'number', name: 'explore', min: '0', max: '600', step: '1', value: '0' } });
  const nonce = h('input', { attrs: { type: 'text', name: 'nonce', autocomplete: 'off', placeholder: 'the certifier’s nonce (optional)' } });
  const secrets = oneRunSecretFields(implementationId, savedProfileText);
  const status = h('div', { class: 'form-status' });
  const submit = h('button', { attrs: { type: 'submit' } }, 'Start run');

  const form = h(
    'form',
    { class: 'run-form', attrs: { id: 'run-form' } },
    h('fieldset', null, h('legend', null, 'Areas (none checked: every area)'), ...areaBoxes.map((box, i) => h('label', { class: 'inline' }, box, ` ${RUN_AREAS[i]}`))),
    field('…or a grep ', grep, 'A Playwright grep over the checks’ tags: a requirement id, @check:…, @area:…'),
    h(
      'div',
      { class: 'field' },
      h('label', { class: 'inline' }, load, ' Run the load stage (the 429 and 413 probes)'),
      h('span', { class: 'hint' }, 'Needed to certify: without it the required load checks have no verdict, and ptas verify refuses the bundle.'),
    ),
    field(
      'Explore for (seconds) ',
      explore,
      'Generated cases from the spec’s rules after the checks (0: none). Their findings are checks explore.<area>.<rule>; a certification does not require them.',
    ),
    field('Nonce ', nonce),
    secrets.fieldset,
    h('div', { class: 'actions' }, submit),
    status,
  );

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const choices: RunChoices = {
      load: load.checked,
      explore: explore.value === '' ? 0 : Number(explore.value),
      areas: areaBoxes.filter((b) => b.checked).map((b) => b.value),
      grep: grep.value,
      nonce: nonce.value,
    };
    const options = runOptionsOf(choices);
    if (typeof options === 'string') return void fill(status, notice('danger', options));
    startRun({ implementation: implementationId, options }, secrets, submit, status);
  });
  return form;
}

/** Posts the run with the typed one-run secrets (then cleared) and goes to its page; a refusal is shown in `status`. */
export function startRun(request: { implementation: string; options: RunOptionsInput }, secrets: OneRunSecretFields, submit: HTMLButtonElement, status: HTMLElement): void {
  const oneRun = secrets.values();
  submit.disabled = true;
  fill(status, 'Starting…');
  send<RunRecord>('POST', '/api/runs', { ...request, ...(oneRun ? { secrets: oneRun } : {}) })
    .then((run) => {
      secrets.clear();
      navigate(`/console/runs/${encodeURIComponent(run.id)}`);
    })
    .catch((error: unknown) => {
      submit.disabled = false;
      fill(status, notice('danger', messageOf(error)));
    });
}

export interface OneRunSecretFields {
  /** The fieldset, or null when the profile needs no secret typed. */
  fieldset: HTMLElement | null;
  /** The values typed (an empty field is left to the server's environment), or undefined for none. */
  values(): RunSecrets | undefined;
  clear(): void;
}

/** The bundled reference's implementation id: it has its own credentials, and a run of it takes no secret (the server refuses one). */
const REFERENCE_ID = 'reference';

/** A password field for each env:NAME the saved profile's values reference, and for the client secret when the profile sets none; none for the bundled reference. */
export function oneRunSecretFields(implementationId: string, savedProfileText: string): OneRunSecretFields {
  if (implementationId === REFERENCE_ID) return { fieldset: null, values: () => undefined, clear: () => undefined };
  const secrets = envReferences(savedProfileText).map((name) => ({ name, input: h('input', { attrs: { type: 'password', name: `secret-${name}`, autocomplete: 'new-password' } }) }));
  // A profile that leaves the client secret out gets it with each run (README, "The console and its API").
  const clientSecret = setsClientSecret(savedProfileText) ? undefined : h('input', { attrs: { type: 'password', name: 'client-secret', autocomplete: 'new-password' } });
  const fieldset =
    secrets.length || clientSecret
      ? h(
          'fieldset',
          { class: 'secrets' },
          h('legend', null, 'Secrets for this run only'),
          h('p', { class: 'hint' }, 'Values for the profile’s env: references, sent with this run and never stored; leave one empty to use the server’s environment.'),
          ...secrets.map((s) => field(`${s.name} `, s.input)),
          clientSecret ? field('Client secret ', clientSecret, 'The profile sets no credentials.clientSecret: the secret for this run.') : null,
        )
      : null;
  return {
    fieldset,
    values: () => givenSecrets({ secrets: Object.fromEntries(secrets.map((s) => [s.name, s.input.value])), ...(clientSecret?.value ? { clientSecret: clientSecret.value } : {}) }),
    clear: () => {
      for (const s of secrets) s.input.value = '';
      if (clientSecret) clientSecret.value = '';
    },
  };
}
