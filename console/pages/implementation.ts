// An implementation's page (and the new-implementation page): its name and
// profile in the editor (New: ptas init's starter, Save, Check: ptas doctor's
// table), the start-run form, its runs and its unstable checks. Unsaved
// edits are kept as a draft of this tab (drafts.ts) and the page opens on it
// again; leaving the page or the tab with unsaved edits asks first.
import type { DoctorSummary, ImplementationRecord, RunRecord } from '../../app/serve/console/api-types.ts';
import { getJson, messageOf, send } from '../api.ts';
import { fill, h, link, notice } from '../dom.ts';
import type { ProfileEditor } from '../editor.ts';
import { dateTime, shortId, verdictBadge } from '../format.ts';
import { type Draft, dropDraft, keepDraft, readDraft } from '../drafts.ts';
import { guardLeaving, markReady, navigate, type Cleanup } from '../router.ts';
import { doctorTable } from './doctor-table.ts';
import { runForm, typedSecrets } from './run-form.ts';
import { unstableChecksPart } from './unstable-checks.ts';

let schema: Promise<object> | undefined;
function profileSchema(): Promise<object> {
  schema ??= getJson<object>('/api/profile-schema').catch((error: unknown) => {
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
  /** Whether the name or the profile differs from what is stored. */
  unsaved(): boolean;
  /** A new implementation's editor starts again from `text` (a preset): nothing unsaved. */
  startFrom(text: string): void;
}

/** What "New implementation" can start from: ptas init's starter, or one of its presets (app/init/presets.ts). */
const STARTS = [
  { preset: '', label: 'ptas init’s starter: every key, commented, to fill in' },
  { preset: 'reference', label: 'the bundled reference, as `ptas reference` starts it: complete' },
  { preset: 'deployed-api', label: 'the deployed-API reference, as `ptas reference --deployed-api` starts it: complete' },
] as const;

/** The New page's "Start from" row: the starter or a preset for a reference at the address given. */
function startFromPart(part: EditorPart): HTMLElement {
  const choice = h('select', { attrs: { id: 'start-from' } }, ...STARTS.map((s) => h('option', { attrs: { value: s.preset } }, s.label)));
  const baseUrl = h('input', { attrs: { type: 'url', id: 'start-base-url', placeholder: 'http://127.0.0.1:8080', autocomplete: 'off', 'aria-label': 'The reference’s address' } });
  const use = h('button', { attrs: { type: 'button', id: 'use-start' } }, 'Use');
  const problem = h('span', { attrs: { id: 'start-problem', 'aria-live': 'polite' } });
  const showAddress = () => (baseUrl.hidden = !choice.value);
  choice.addEventListener('change', showAddress);
  showAddress();
  use.addEventListener('click', () => {
    if (part.unsaved() && !confirm('Replace the profile in the editor, and its unsaved changes?')) return;
    const query = choice.value ? `?${new URLSearchParams({ preset: choice.value, baseUrl: baseUrl.value.trim() })}` : '';
    use.disabled = true;
    fill(problem);
    getJson<{ profileText: string }>(`/api/starter${query}`)
      .then(({ profileText }) => part.startFrom(profileText))
      .catch((error: unknown) => fill(problem, notice('danger', messageOf(error))))
      .finally(() => (use.disabled = false));
  });
  return h('div', { class: 'field start-from' }, h('label', { attrs: { for: 'start-from' } }, 'Start from'), choice, baseUrl, use, problem);
}

/** How long the page waits after an edit before keeping the draft: a pasted megabyte is not serialised on every keystroke. */
const KEEP_DRAFT_AFTER_MS = 300;

/** Asked before leaving the page, or the tab, with unsaved edits. */
const LEAVE_QUESTION = 'The profile has unsaved changes. They stay as a draft in this tab until you save or discard them. Leave this page?';

type EditorModule = typeof import('../editor.ts');

/**
 * CodeMirror and the schema tools, evaluated when an editor is first needed:
 * esbuild keeps a dynamically imported module in the one script but runs its
 * code only on import, so the other pages do not pay for it.
 */
let editorModule: Promise<EditorModule> | undefined;
const loadEditor = (): Promise<EditorModule> => (editorModule ??= import('../editor.ts'));

/** The name field, the toolbar and the editor; `onSaved` is told of each save. */
function editorPart(record: ImplementationRecord | undefined, text: string, draft: Draft | undefined, schemaValue: object, { createProfileEditor }: EditorModule, onSaved: (r: ImplementationRecord) => void): EditorPart {
  let saved = record?.profileText ?? '';
  // What "unsaved" is measured against: the stored text, or for a new implementation the starter it opened with.
  let baseline = record ? saved : text;
  let savedName = record?.name ?? '';
  const name = h('input', { attrs: { type: 'text', id: 'implementation-name', required: '', maxlength: '200', autocomplete: 'off', placeholder: 'e.g. Acme staging' } });
  name.value = draft?.name ?? savedName;
  let dirty = draft !== undefined && (draft.profileText !== baseline || draft.name !== savedName);
  const status = h('span', { class: 'editor-status', attrs: { id: 'editor-status', 'aria-live': 'polite' } });
  const host = h('div', { class: 'editor-host', attrs: { id: 'profile-editor' } });
  const doctor = h('div', { attrs: { id: 'doctor' } });
  const save = h('button', { attrs: { type: 'button', id: 'save' } }, record ? 'Save' : 'Create');
  const check = h('button', { attrs: { type: 'button', id: 'check' } }, 'Check');

  const draftNotice = h('div', { attrs: { id: 'draft-notice' } });
  let keepTimer: ReturnType<typeof setTimeout> | undefined;
  const keepOrDrop = () => {
    clearTimeout(keepTimer);
    keepTimer = undefined;
    if (!dirty) return dropDraft(record?.id);
    if (!keepDraft(record?.id, { name: name.value, profileText: editor.text(), base: record?.profileText ?? '' })) {
      fill(draftNotice, notice('warn', 'This browser would not keep a draft of these changes (storage off, or the profile too large for it): save them before leaving the page.'));
    }
  };
  const edited = () => {
    dirty = editor.text() !== baseline || name.value !== savedName;
    clearTimeout(keepTimer);
    keepTimer = setTimeout(keepOrDrop, KEEP_DRAFT_AFTER_MS);
  };

  const editor = createProfileEditor(host, draft?.profileText ?? text, schemaValue, (docChanged) => {
    // Only a change of the text can change whether it is saved (an update is also a cursor move or a lint result).
    if (docChanged) edited();
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
      ? send<ImplementationRecord>('PUT', `/api/implementations/${encodeURIComponent(record.id)}`, input)
      : send<ImplementationRecord>('POST', '/api/implementations', input);
    request
      .then((stored) => {
        saved = stored.profileText;
        baseline = saved;
        savedName = stored.name;
        dirty = editor.text() !== baseline || name.value !== savedName;
        // The draft was of this implementation (or of "New"): what it held is stored now. An edit typed while
        // the save was on its way is kept again as this implementation's draft.
        clearTimeout(keepTimer);
        dropDraft(record?.id);
        if (dirty && record) keepOrDrop();
        if (!dirty) fill(draftNotice);
        fill(status, 'Saved');
        onSaved(stored);
      })
      .catch((error: unknown) => fill(status, notice('danger', messageOf(error))))
      .finally(() => (save.disabled = false));
  });

  check.addEventListener('click', () => {
    check.disabled = true;
    fill(doctor, h('p', { class: 'muted' }, 'Running ptas doctor…'));
    const secrets = typedSecrets();
    send<DoctorSummary>('POST', '/api/doctor', { profileText: editor.text(), ...(secrets ? { secrets } : {}) })
      .then((summary) => fill(doctor, h('h2', null, 'Doctor'), doctorTable(summary)))
      .catch((error: unknown) => fill(doctor, notice('danger', messageOf(error))))
      .finally(() => (check.disabled = false));
  });

  name.addEventListener('input', () => {
    edited();
    editor.view.dispatch({});
  });

  if (draft && dirty) {
    const discard = h('button', { attrs: { type: 'button', id: 'discard-draft' } }, 'Discard changes');
    discard.addEventListener('click', () => {
      name.value = savedName;
      editor.setText(baseline);
      dirty = false;
      keepOrDrop();
      fill(draftNotice);
      editor.view.dispatch({});
    });
    const changedSince = record && draft.base !== record.profileText ? ' The stored profile has changed since they began: Save replaces it with them.' : '';
    fill(draftNotice, notice('info', `Your unsaved changes of ${dateTime(draft.keptAt)} are back (kept in this tab).${changedSince} `, discard));
  }

  const section = h(
    'section',
    { class: 'profile' },
    h('div', { class: 'field' }, h('label', { attrs: { for: 'implementation-name' } }, 'Name'), name),
    draftNotice,
    h('div', { class: 'toolbar' }, link('/console/implementations/new', 'New'), save, check, status),
    host,
    h('p', { class: 'hint' }, 'Write secrets as env:NAME: the profile is stored as typed, and the values come from the server’s environment or the start-run form (Check uses what is typed there too, once the profile is saved).'),
    doctor,
  );
  const startFrom = (next: string) => {
    baseline = next;
    editor.setText(next);
    dirty = name.value !== savedName;
    keepOrDrop();
    fill(draftNotice);
  };
  return { section, editor, name, unsaved: () => dirty, startFrom };
}

export async function implementationPage(main: HTMLElement, params: string[]): Promise<Cleanup> {
  const id = params[0];
  const [record, schemaValue, editor] = await Promise.all([id ? getJson<ImplementationRecord>(`/api/implementations/${encodeURIComponent(id)}`) : undefined, profileSchema(), loadEditor()]);
  const text = record?.profileText ?? (await getJson<{ profileText: string }>('/api/starter')).profileText;
  const [runs, unstable] = record ? await Promise.all([getJson<RunRecord[]>(`/api/runs?implementation=${encodeURIComponent(record.id)}`), unstableChecksPart(record.id)]) : [[], null];

  const runSection = h('section', { class: 'start-run' });
  const showRunForm = (r: ImplementationRecord) => fill(runSection, h('h2', null, 'Start a run'), runForm(r.id, r.profileText));
  const part = editorPart(record, text, readDraft(record?.id), schemaValue, editor, (stored) => {
    // Created: its own page, with nothing left to ask about.
    if (!record) navigate(`/console/implementations/${encodeURIComponent(stored.id)}`, { replace: true, force: true });
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
    record ? null : startFromPart(part),
    part.section,
    record ? runSection : h('p', { class: 'muted' }, 'Create the implementation to start runs.'),
    record ? h('section', { class: 'runs' }, h('h2', null, 'Runs'), runsTable(runs)) : null,
    unstable,
  );
  guardLeaving(() => (part.unsaved() ? LEAVE_QUESTION : undefined));
  // Closing or reloading the tab: the browser asks its own question (the draft survives a reload, not a closed tab).
  const beforeUnload = (event: BeforeUnloadEvent) => {
    if (!part.unsaved()) return;
    event.preventDefault();
    event.returnValue = '';
  };
  window.addEventListener('beforeunload', beforeUnload);
  markReady();
  return () => window.removeEventListener('beforeunload', beforeUnload);
}
