// An implementation's page (and the new-implementation page): its name and
// profile in the editor (New: ptas init's starter, Save, Check: ptas doctor's
// table), the start-run form and its runs.
import type { DoctorSummary, ImplementationRecord, RunRecord } from '../../app/serve/console/api-types.ts';
import { getJson, messageOf, send } from '../api.ts';
import { fill, h, link, notice } from '../dom.ts';
import type { ProfileEditor } from '../editor.ts';
import { dateTime, shortId, verdictBadge } from '../format.ts';
import { markReady, navigate } from '../router.ts';
import { doctorTable } from './doctor-table.ts';
import { runForm, typedSecrets } from './run-form.ts';

let schema: Promise<object> | undefined;
function profileSchema(): Promise<object> {
  schema ??= getJson<object>('/console/api/profile-schema').catch((error: unknown) => {
    schema = undefined;
    throw error;
  });
  return schema;
}

function runsTable(runs: RunRecord[]): HTMLElement {
  if (!runs.length) return h('p', { class: 'muted' }, 'No run yet.');
  return h(
    'table',
    { class: 'list runs' },
    h('thead', null, h('tr', null, ...['Run', 'Status', 'Verdict', 'Started', 'Finished'].map((t) => h('th', null, t)))),
    h(
      'tbody',
      null,
      ...runs.map((r) =>
        h(
          'tr',
          { dataset: { run: r.id } },
          h('td', null, link(`/console/runs/${encodeURIComponent(r.id)}`, h('code', null, shortId(r.id)))),
          h('td', null, r.status, r.queuePosition ? ` (#${r.queuePosition} in queue)` : ''),
          h('td', null, r.verdict ? verdictBadge(r.verdict) : ''),
          h('td', null, dateTime(r.startedAt ?? r.createdAt)),
          h('td', null, dateTime(r.finishedAt)),
        ),
      ),
    ),
  );
}

interface EditorPart {
  section: HTMLElement;
  editor: ProfileEditor;
  name: HTMLInputElement;
}

type EditorModule = typeof import('../editor.ts');

/**
 * CodeMirror and the schema tools, evaluated when an editor is first needed:
 * esbuild keeps a dynamically imported module in the one script but runs its
 * code only on import, so the other pages do not pay for it.
 */
let editorModule: Promise<EditorModule> | undefined;
const loadEditor = (): Promise<EditorModule> => (editorModule ??= import('../editor.ts'));

/** The name field, the toolbar and the editor; `onSaved` is told of each save. */
function editorPart(record: ImplementationRecord | undefined, text: string, schemaValue: object, { createProfileEditor }: EditorModule, onSaved: (r: ImplementationRecord) => void): EditorPart {
  let saved = record?.profileText ?? '';
  // What "unsaved" is measured against: the stored text, or for a new implementation the starter it opened with.
  let baseline = record ? saved : text;
  let dirty = false;
  const name = h('input', { attrs: { type: 'text', id: 'implementation-name', required: '', maxlength: '200', autocomplete: 'off', placeholder: 'e.g. Acme staging' } });
  name.value = record?.name ?? '';
  const status = h('span', { class: 'editor-status', attrs: { id: 'editor-status', 'aria-live': 'polite' } });
  const host = h('div', { class: 'editor-host', attrs: { id: 'profile-editor' } });
  const doctor = h('div', { attrs: { id: 'doctor' } });
  const save = h('button', { attrs: { type: 'button', id: 'save' } }, record ? 'Save' : 'Create');
  const check = h('button', { attrs: { type: 'button', id: 'check' } }, 'Check');

  const editor = createProfileEditor(host, text, schemaValue, (docChanged) => {
    // Only a change of the text can change whether it is saved (an update is also a cursor move or a lint result).
    if (docChanged) dirty = editor.text() !== baseline;
    const problems = editor.problems();
    status.dataset.problems = String(problems);
    const state = dirty ? 'Unsaved changes' : record ? 'Saved' : 'Not created yet';
    const large = editor.checksAsYouType() ? '' : ' · a large profile: its keys are checked when you Save or Check, not as you type';
    fill(status, state, problems ? ` · ${problems} problem${problems === 1 ? '' : 's'} in the profile` : '', large);
  });

  save.addEventListener('click', () => {
    const input = { name: name.value.trim(), profileText: editor.text() };
    if (!input.name) return fill(status, notice('danger', 'Give the implementation a name.'));
    save.disabled = true;
    const request = record
      ? send<ImplementationRecord>('PUT', `/console/api/implementations/${encodeURIComponent(record.id)}`, input)
      : send<ImplementationRecord>('POST', '/console/api/implementations', input);
    request
      .then((stored) => {
        saved = stored.profileText;
        baseline = saved;
        dirty = editor.text() !== baseline;
        fill(status, 'Saved');
        onSaved(stored);
      })
      .catch((error: unknown) => fill(status, notice('danger', messageOf(error))))
      .finally(() => (save.disabled = false));
  });

  check.addEventListener('click', () => {
    check.disabled = true;
    fill(doctor, h('p', { class: 'muted' }, 'Running ptas doctor…'));
    send<DoctorSummary>('POST', '/console/api/doctor', { profileText: editor.text(), ...typedSecrets() })
      .then((summary) => fill(doctor, h('h2', null, 'Doctor'), doctorTable(summary)))
      .catch((error: unknown) => fill(doctor, notice('danger', messageOf(error))))
      .finally(() => (check.disabled = false));
  });

  const section = h(
    'section',
    { class: 'profile' },
    h('div', { class: 'field' }, h('label', { attrs: { for: 'implementation-name' } }, 'Name'), name),
    h('div', { class: 'toolbar' }, link('/console/implementations/new', 'New'), save, check, status),
    host,
    h('p', { class: 'hint' }, 'Write secrets as env:NAME: the profile is stored as typed, and the values come from the server’s environment or the start-run form (Check uses what is typed there too, once the profile is saved).'),
    doctor,
  );
  return { section, editor, name };
}

export async function implementationPage(main: HTMLElement, params: string[]): Promise<void> {
  const id = params[0];
  const [record, schemaValue, editor] = await Promise.all([id ? getJson<ImplementationRecord>(`/console/api/implementations/${encodeURIComponent(id)}`) : undefined, profileSchema(), loadEditor()]);
  const text = record?.profileText ?? (await getJson<{ profileText: string }>('/console/api/starter')).profileText;
  const runs = record ? await getJson<RunRecord[]>(`/console/api/implementations/${encodeURIComponent(record.id)}/runs`) : [];

  const runSection = h('section', { class: 'start-run' });
  const showRunForm = (r: ImplementationRecord) => fill(runSection, h('h2', null, 'Start a run'), runForm(r.id, r.profileText));
  const part = editorPart(record, text, schemaValue, editor, (stored) => {
    if (!record) navigate(`/console/implementations/${encodeURIComponent(stored.id)}`, { replace: true });
    else {
      fill(heading, stored.name);
      showRunForm(stored);
    }
  });
  const heading = h('h1', null, record?.name ?? 'New implementation');
  if (record) showRunForm(record);

  fill(
    main,
    h('div', { class: 'page-head' }, heading, record ? h('span', { class: 'muted' }, 'id ', h('code', null, record.id)) : null),
    part.section,
    record ? runSection : h('p', { class: 'muted' }, 'Create the implementation to start runs.'),
    record ? h('section', { class: 'runs' }, h('h2', null, 'Runs'), runsTable(runs)) : null,
  );
  markReady();
}
