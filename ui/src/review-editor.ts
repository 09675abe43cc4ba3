// The review editor: CodeMirror's merge view of one review (side by side or unified), its look and keys.
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import {
  getChunks, getOriginalDoc, goToNextChunk, goToPreviousChunk, MergeView, unifiedMergeView, type Chunk,
} from '@codemirror/merge';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorSelection, EditorState, type Extension, type Text } from '@codemirror/state';
import {
  drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars,
  keymap, lineNumbers,
} from '@codemirror/view';
import { classHighlighter, tagHighlighter, tags } from '@lezer/highlight';
import { lineOf } from './comments';
import { forReviewEditor, restore } from './endings';
import { languageFor, languageIfLoaded, loadLanguage } from './language';
import { lineFirstDiff } from './linediff';
import type { Selection } from './types';

export interface ReviewEditorInput {
  /** The file as it was before the proposal; read-only. */
  original: string;
  /** The text to edit: the proposal, or the user's edits of it so far. Its bytes (line endings, BOM)
   * come back from `getText` wherever the user did not change them. */
  text: string;
  /** Used only to choose the language. */
  path: string;
  unified: boolean;
  /** Word-level marks; pointless for a new file, where every word is new. */
  highlightChanges: boolean;
  /** The proposal cannot be edited (its asker writes its own): no typing, no revert buttons. */
  readOnly?: boolean;
}

export interface ReviewEditor {
  readonly unified: boolean;
  /** The text to send: exactly `input.text` when unedited, else the edits in its line endings and BOM. */
  getText(): string;
  setUnified(unified: boolean): void;
  nextChange(): boolean;
  previousChange(): boolean;
  /** The selection in the edited text: 0-based lines and characters, start before end. */
  selection(): Selection;
  /** Changed lines of the edited text against the original, from the chunks the view already has. */
  counts(): { added: number; removed: number };
  /** The 1-based line, in the original (the file on disk), of the change at or after the caret. */
  hunkLine(): number;
  /** The line a comment is on: the caret's in the side last focused, 1-based, with its text. On
   * the original's side it is the line in the file as it was, as a turn's removed line is. */
  commentLine(): { line: number; quote: string };
  focus(): void;
  destroy(): void;
}

/**
 * Builds a review editor inside `parent`; `onChange` runs on every edit and `onSelect` on every selection
 * change of the edited text, so both must be cheap.
 */
export type ReviewEditorFactory = (
  parent: HTMLElement, input: ReviewEditorInput, onChange: () => void, onSelect?: () => void,
) => ReviewEditor;

const languageSlot = new Compartment();
const themeSlot = new Compartment();
const collapse = { margin: 3, minSize: 4 };
const diffConfig = { override: lineFirstDiff };

// Colours live in CSS variables (style.css) so light and dark follow the OS without a second theme.
// Selectors repeat a class where @codemirror/merge's own light/dark rules would otherwise win.
const look = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', color: 'var(--fg)', backgroundColor: 'var(--review-editor-bg)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground':
    { backgroundColor: 'var(--selection)' },
  '.cm-gutters': {
    backgroundColor: 'var(--gutter-bg)', color: 'var(--gutter-fg)', borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)', color: 'var(--fg)' },
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk.cm-deletedChunk': { backgroundColor: 'var(--del-line)' },
  '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: 'var(--ins-line)' },
  '&.cm-merge-a.cm-merge-a .cm-changedText, & .cm-deletedChunk.cm-deletedChunk .cm-deletedText':
    { background: 'var(--del-text)', borderRadius: '2px' },
  '&.cm-merge-b.cm-merge-b .cm-changedText': { background: 'var(--ins-text)', borderRadius: '2px' },
  '&.cm-merge-a.cm-merge-a .cm-changedLineGutter, &.cm-merge-b .cm-deletedLineGutter.cm-deletedLineGutter':
    { background: 'var(--del-mark)' },
  '&.cm-merge-b.cm-merge-b .cm-changedLineGutter': { background: 'var(--ins-mark)' },
  '.cm-changeGutter': { width: '4px', paddingLeft: '0' },
  '& .cm-collapsedLines.cm-collapsedLines': {
    background: 'var(--collapsed-bg)', color: 'var(--muted)', fontFamily: 'var(--sans)', fontSize: '12px',
    borderTop: '1px solid var(--border)', borderBottom: '1px solid var(--border)',
  },
  // The default ⦚ marks are missing from common Linux fonts and render as boxes.
  '& .cm-collapsedLines.cm-collapsedLines:before': { content: '"↕"', marginInlineEnd: '6px' },
  '& .cm-collapsedLines.cm-collapsedLines:after': { content: 'none' },
  '.cm-deletedChunk .cm-chunkButtons': { top: '1px' },
  '.cm-deletedChunk .cm-chunkButtons button.rl-revert': {
    color: 'var(--fg)', background: 'var(--review-editor-bg)', border: '1px solid var(--border)', padding: '0 6px',
    fontFamily: 'var(--sans)', fontSize: '12px', lineHeight: '18px',
  },
  '.cm-mergeSpacer': { background: 'var(--spacer-bg)' },
  '.cm-panels': { backgroundColor: 'var(--panel-bg)', color: 'var(--fg)' },
  '.cm-searchMatch': { backgroundColor: 'var(--search-match)' },
  '.cm-selectionMatch': { backgroundColor: 'var(--selection-match)' },
});

// classHighlighter does not tell function names apart; this adds a class for them.
const functionNames = tagHighlighter([
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], class: 'tok-function' },
]);

const darkQuery: MediaQueryList | null =
  typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
const liveViews = new Set<EditorView>();

function themeFor(dark: boolean): Extension {
  return EditorView.darkTheme.of(dark);
}

darkQuery?.addEventListener('change', (e) => {
  for (const view of liveViews) view.dispatch({ effects: themeSlot.reconfigure(themeFor(e.matches)) });
});

// Built once and shared by every view: each review editor reuses the same extension values
// instead of making new ones, so the state's configuration is resolved from a cache-friendly set.
const shared: Extension = [
  lineNumbers(),
  highlightSpecialChars(),
  drawSelection(),
  syntaxHighlighting(classHighlighter),
  syntaxHighlighting(functionNames),
  highlightSelectionMatches(),
  look,
  keymap.of([...searchKeymap, ...defaultKeymap]),
];

const editing: Extension = [
  history(),
  indentOnInput(),
  bracketMatching(),
  highlightActiveLine(),
  highlightActiveLineGutter(),
  keymap.of([...historyKeymap, indentWithTab]),
];

function common(lang: Extension): Extension {
  return [shared, languageSlot.of(lang), themeSlot.of(themeFor(darkQuery?.matches ?? false))];
}

function editable(onChange: () => void, onSelect: () => void): Extension {
  return [
    editing,
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onChange();
      if (update.selectionSet) onSelect();
    }),
  ];
}

function revertButton(): HTMLElement {
  const button = document.createElement('button');
  button.className = 'rl-revert';
  button.type = 'button';
  button.title = 'Revert this change to the original';
  button.setAttribute('aria-label', 'Revert this change');
  button.textContent = '↶';
  return button;
}

// The unified view offers only "revert": "accept" there would rewrite the original we compare with.
function unifiedControls(type: 'accept' | 'reject', action: (e: MouseEvent) => void): HTMLElement {
  if (type === 'accept') return document.createElement('span');
  const button = revertButton();
  button.textContent = '↶ Revert';
  button.addEventListener('mousedown', action);
  return button;
}

function linesIn(doc: Text, from: number, to: number, end: number): number {
  return to > from ? doc.lineAt(end).number - doc.lineAt(from).number + 1 : 0;
}

function countChunks(chunks: readonly Chunk[], a: Text, b: Text): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const c of chunks) {
    removed += linesIn(a, c.fromA, c.toA, c.endA);
    added += linesIn(b, c.fromB, c.toB, c.endB);
  }
  return { added, removed };
}

class CodeMirrorReviewEditor implements ReviewEditor {
  private merge: MergeView | null = null;
  private single: EditorView | null = null;
  private lang: Extension;
  private destroyed = false;
  /** What the views show: CodeMirror splits lines on any break and joins them with `\n`. */
  private original: string;
  /** The side-by-side original was focused last (a click on Comment takes the focus away). */
  private originalFocused = false;
  unified: boolean;

  constructor(
    private parent: HTMLElement, private input: ReviewEditorInput, private onChange: () => void,
    private onSelect: () => void,
  ) {
    this.unified = input.unified;
    this.original = forReviewEditor(input.original);
    const text = forReviewEditor(input.text);
    const id = languageFor(input.path, text.slice(0, 200).split('\n', 1)[0]);
    this.lang = (id && languageIfLoaded(id)) ?? [];
    this.mount(text, 0);
    if (id && !languageIfLoaded(id)) {
      loadLanguage(id).then((ext) => {
        this.lang = ext;
        if (!this.destroyed) for (const v of this.views()) v.dispatch({ effects: languageSlot.reconfigure(ext) });
      }, () => { /* Highlighting is a nicety: the plain text stays fully usable. */ });
    }
  }

  private views(): EditorView[] {
    if (this.single) return [this.single];
    return this.merge ? [this.merge.a, this.merge.b] : [];
  }

  /** The view the user edits (and navigates by default). */
  private get main(): EditorView {
    return this.single ?? this.merge!.b;
  }

  private mount(text: string, head: number): void {
    const selection = EditorSelection.cursor(Math.min(head, text.length));
    if (this.unified) {
      this.single = new EditorView({
        parent: this.parent,
        state: EditorState.create({
          doc: text,
          selection,
          extensions: [
            common(this.lang),
            this.proposalExtensions(),
            unifiedMergeView({
              original: this.original,
              mergeControls: this.input.readOnly ? false : unifiedControls,
              collapseUnchanged: collapse,
              highlightChanges: this.input.highlightChanges,
              diffConfig,
            }),
          ],
        }),
      });
    } else {
      this.merge = new MergeView({
        parent: this.parent,
        a: { doc: this.original, extensions: [common(this.lang), EditorState.readOnly.of(true)] },
        b: { doc: text, selection, extensions: [common(this.lang), this.proposalExtensions()] },
        revertControls: this.input.readOnly ? undefined : 'a-to-b',
        renderRevertControl: revertButton,
        collapseUnchanged: collapse,
        highlightChanges: this.input.highlightChanges,
        diffConfig,
      });
      this.merge.a.dom.addEventListener('focusin', () => { this.originalFocused = true; });
      this.merge.b.dom.addEventListener('focusin', () => { this.originalFocused = false; });
    }
    this.originalFocused = false;
    for (const v of this.views()) liveViews.add(v);
  }

  private proposalExtensions(): Extension {
    const edits = editable(this.onChange, this.onSelect);
    // Still focusable and selectable (to copy, to ask about lines): only changes are refused.
    return this.input.readOnly ? [edits, EditorState.readOnly.of(true), EditorView.editable.of(false)] : edits;
  }

  private unmount(): void {
    for (const v of this.views()) liveViews.delete(v);
    this.merge?.destroy();
    this.single?.destroy();
    this.merge = null;
    this.single = null;
  }

  getText(): string {
    return restore(this.input.text, this.main.state.doc.toString(), this.input.original);
  }

  setUnified(unified: boolean): void {
    if (unified === this.unified || this.destroyed) return;
    const text = this.main.state.doc.toString();
    const head = this.main.state.selection.main.head;
    this.unmount();
    this.unified = unified;
    this.mount(text, head);
    this.main.dispatch({ effects: EditorView.scrollIntoView(Math.min(head, text.length), { y: 'center' }) });
  }

  private move(command: typeof goToNextChunk): boolean {
    const focusedA = this.merge?.a.hasFocus;
    const view = focusedA ? this.merge!.a : this.main;
    const moved = command(view);
    view.focus();
    return moved;
  }

  nextChange(): boolean {
    return this.move(goToNextChunk);
  }

  previousChange(): boolean {
    return this.move(goToPreviousChunk);
  }

  selection(): Selection {
    const { doc, selection } = this.main.state;
    const { from, to } = selection.main;
    const a = doc.lineAt(from);
    const b = doc.lineAt(to);
    return { startLine: a.number - 1, startCharacter: from - a.from, endLine: b.number - 1, endCharacter: to - b.from };
  }

  counts(): { added: number; removed: number } {
    if (this.merge) return countChunks(this.merge.chunks, this.merge.a.state.doc, this.merge.b.state.doc);
    const state = this.single!.state;
    return countChunks(getChunks(state)?.chunks ?? [], getOriginalDoc(state), state.doc);
  }

  hunkLine(): number {
    const head = this.main.state.selection.main.head;
    const chunks = this.merge ? this.merge.chunks : getChunks(this.single!.state)?.chunks ?? [];
    const original = this.merge ? this.merge.a.state.doc : getOriginalDoc(this.single!.state);
    const chunk = chunks.find((c) => c.toB >= head) ?? chunks[chunks.length - 1];
    if (!chunk) return Math.min(this.main.state.doc.lineAt(head).number, original.lines);
    return original.lineAt(Math.min(chunk.fromA, original.length)).number;
  }

  commentLine(): { line: number; quote: string } {
    const view = this.merge && this.originalFocused ? this.merge.a : this.main;
    const { doc, selection } = view.state;
    const at = doc.lineAt(selection.main.head);
    // The proposal's line as it will be written (its own endings); the original's as shown.
    const quote = view === this.main ? lineOf(this.getText(), at.number - 1) : at.text;
    return { line: at.number, quote };
  }

  focus(): void {
    this.main.focus();
  }

  destroy(): void {
    this.destroyed = true;
    this.unmount();
  }
}

export const createReviewEditor: ReviewEditorFactory = (parent, input, onChange, onSelect = () => {}) =>
  new CodeMirrorReviewEditor(parent, input, onChange, onSelect);
