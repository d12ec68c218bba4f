// The profile editor: CodeMirror 6 on JSON with comments (codemirror-json5's
// language), validated against the profile schema as the user types (each
// error at its key or value) and completing keys with their descriptions
// (codemirror-json-schema's json5 linter and completion). CodeMirror's style
// elements carry the page's style nonce (EditorView.cspNonce), which the
// policy allows. Diagnostics are shown as plain text: the schema linter's
// own rendering writes HTML, and its messages quote what the user typed.
// The schema linter and the completion parse the whole text on every change
// and cost far more than linearly: beyond AS_YOU_TYPE_MAX characters they
// rest (each keystroke took 0.3-0.7 s at 115 KB, 6-40 s at 0.5-1 MB in
// Chromium; without them, under 0.2 s at 1 MB), and Save and Check, which
// validate on the server, say what is wrong. The syntax linter stays.
// Both linters read CodeMirror's syntax tree, which covers the first 3,000
// characters when the editor opens and the rest when the page is next idle:
// they run again whenever the tree changes (treeChanged), or on a busy machine a
// mistake past that point stayed unmarked until the next keystroke.
import { basicSetup, EditorView } from 'codemirror';
import { EditorState, type Extension } from '@codemirror/state';
import { syntaxTree } from '@codemirror/language';
import type { ViewUpdate } from '@codemirror/view';
import { type Diagnostic, forEachDiagnostic, linter, lintGutter } from '@codemirror/lint';
import { json5, json5Language, json5ParseLinter } from 'codemirror-json5';
import { handleRefresh, stateExtensions } from 'codemirror-json-schema';
import { json5Completion, json5SchemaLinter } from 'codemirror-json-schema/json5';

export interface ProfileEditor {
  view: EditorView;
  text(): string;
  setText(text: string): void;
  /** The diagnostics shown now (syntax and schema). */
  problems(): number;
  /** Whether the text is checked against the schema and keys are completed as the user types (AS_YOU_TYPE_MAX). */
  checksAsYouType(): boolean;
}

/** The longest text the schema linter and the completion work on as the user types: a profile is usually under 20 KB. */
export const AS_YOU_TYPE_MAX = 64 * 1024;
const small = (state: EditorState) => state.doc.length <= AS_YOU_TYPE_MAX;

/** The nonce of the shell's policy for style elements (a meta element's nonce property: browsers hide the attribute). */
function styleNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
}

/** Whether the update brings a new syntax tree: the background parse reached further (typing makes one too). */
const treeChanged = (update: ViewUpdate) => syntaxTree(update.startState) !== syntaxTree(update.state);

const plain = (diagnostics: readonly Diagnostic[]): Diagnostic[] => diagnostics.map(({ renderMessage: _, ...d }) => d);

function schemaSupport(schema: object): Extension {
  const validate = json5SchemaLinter();
  const complete = json5Completion();
  return [
    linter(json5ParseLinter(), { needsRefresh: treeChanged }),
    linter((view) => (small(view.state) ? plain(validate(view)) : []), { needsRefresh: (update) => handleRefresh(update) || treeChanged(update), delay: 250 }),
    json5Language.data.of({ autocomplete: (context: Parameters<typeof complete>[0]) => (small(context.state) ? complete(context) : null) }),
    stateExtensions(schema),
  ];
}

/** `onUpdate` is told of every update (typing, and the linter's results arriving), and whether the text changed. */
export function createProfileEditor(parent: HTMLElement, text: string, schema: object, onUpdate: (docChanged: boolean) => void): ProfileEditor {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        EditorView.cspNonce.of(styleNonce()),
        json5(),
        lintGutter(),
        schemaSupport(schema),
        EditorView.updateListener.of((update) => onUpdate(update.docChanged)),
        EditorView.contentAttributes.of({ 'aria-label': 'Profile (JSON with comments)' }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (next) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } }),
    problems: () => {
      let n = 0;
      forEachDiagnostic(view.state, () => n++);
      return n;
    },
    checksAsYouType: () => small(view.state),
  };
}
