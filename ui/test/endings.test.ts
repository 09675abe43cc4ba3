// The bytes that leave the window: generated texts with every kind of line ending, BOM and final
// newline, edited through the real CodeMirror review editor, come back in the proposal's own bytes.
import { EditorView } from '@codemirror/view';
import fc from 'fast-check';
import { afterEach, describe as group, expect, it } from 'vitest';
import { createReviewEditor, type ReviewEditor } from '../src/review-editor';
import { bytesNote, forReviewEditor, restore } from '../src/endings';
import { detail, fakeBackend, mount, reset, settle, typeAtEnd } from './helpers';

const BOM = '\uFEFF';
type Eol = '\r\n' | '\r' | '\n';

interface Spec {
  bom: boolean;
  /** Each line's text and the break after it; the last line's break is the final newline. */
  lines: { text: string; eol: Eol }[];
  finalNewline: boolean;
}

function build(s: Spec): string {
  const body = s.lines.map((l, i) => l.text + (i < s.lines.length - 1 || s.finalNewline ? l.eol : '')).join('');
  return (s.bom ? BOM : '') + body;
}

/** The text's lines with the break that ends each ('' for the last), as bytes. */
function rawLines(text: string): { text: string; eol: string }[] {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const out: { text: string; eol: string }[] = [];
  let start = 0;
  for (const m of body.matchAll(/\r\n|\r|\n/g)) {
    out.push({ text: body.slice(start, m.index), eol: m[0] });
    start = m.index + m[0].length;
  }
  out.push({ text: body.slice(start), eol: '' });
  return out;
}

// Line text: letters, spaces and tabs (trailing ones too), control characters other than the line
// breaks (binary-looking but NUL-free text), non-ASCII and astral characters.
const lineChar = fc.constantFrom(
  'a', 'b', 'z', ' ', '\t', '{', '\u0001', '\u0007', '\u001b', '\u007f', '\u00e9', '\u2028', '\u{1F600}',
);
const eol = fc.constantFrom<Eol>('\r\n', '\r', '\n');
// Every line starts with its own number, so that which line the user kept is never in doubt.
const spec = (style: fc.Arbitrary<Eol | null>) => fc.record({
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
  style,
  lines: fc.array(fc.record({ text: fc.string({ unit: lineChar, maxLength: 12 }), eol }), { minLength: 1, maxLength: 12 }),
}).map(({ bom, finalNewline, style: only, lines }): Spec => ({
  bom, finalNewline, lines: lines.map((l, i) => ({ text: `${i}:${l.text}`, eol: only ?? l.eol })),
}));
const anyStyle = spec(fc.constant(null));
const oneStyle = spec(eol);

/** Replace doc lines [from, to) with `insert` (new lines, marked as no original line is). */
const edit = fc.record({
  from: fc.nat(), span: fc.nat({ max: 3 }),
  insert: fc.array(fc.string({ unit: lineChar, maxLength: 8 }).map((t) => `new ${t}`), { maxLength: 3 }),
});

let host: HTMLElement;
const reviewEditors: ReviewEditor[] = [];

function open(text: string, original: string, unified: boolean): { reviewEditor: ReviewEditor; view: EditorView } {
  const reviewEditor = createReviewEditor(host, {
    original, text, path: 'a.txt', unified, highlightChanges: true,
  }, () => {});
  reviewEditors.push(reviewEditor);
  const view = EditorView.findFromDOM(host.querySelector<HTMLElement>(unified ? '.cm-editor' : '.cm-merge-b')!)!;
  return { reviewEditor, view };
}

/** Applies a whole-line edit as the user would, and says which doc lines it left untouched. */
function apply(view: EditorView, e: { from: number; span: number; insert: string[] }) {
  const doc = view.state.doc.toString().split('\n');
  const from = e.from % (doc.length + 1);
  const to = Math.min(doc.length, from + e.span);
  const next = [...doc.slice(0, from), ...e.insert, ...doc.slice(to)];
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next.join('\n') }, userEvent: 'input' });
  return { from, to, inserted: e.insert.length, before: doc.length };
}

group('what the review editor gives back', () => {
  afterEach(() => {
    while (reviewEditors.length) reviewEditors.pop()!.destroy();
    document.body.innerHTML = '';
  });

  const setup = () => {
    document.body.innerHTML = '<div id="host"></div>';
    host = document.getElementById('host')!;
  };

  it('is the text it was given, byte for byte, when nothing was edited', () => {
    fc.assert(fc.property(anyStyle, anyStyle, fc.boolean(), (p, o, unified) => {
      setup();
      const text = build(p);
      const { reviewEditor } = open(text, build(o), unified);
      expect(reviewEditor.getText()).toBe(text);
      reviewEditor.destroy();
      reviewEditors.pop();
    }), { numRuns: 100 });
  }, 60_000);

  it('is still the same bytes after switching layouts back and forth', () => {
    fc.assert(fc.property(anyStyle, (p) => {
      setup();
      const text = build(p);
      const { reviewEditor } = open(text, '', false);
      reviewEditor.setUnified(true);
      reviewEditor.setUnified(false);
      expect(reviewEditor.getText()).toBe(text);
      reviewEditor.destroy();
      reviewEditors.pop();
    }), { numRuns: 30 });
  }, 60_000);

  it('keeps every untouched line\'s ending, the BOM, and shows exactly the user\'s text', () => {
    fc.assert(fc.property(anyStyle, edit, fc.boolean(), (p, e, unified) => {
      setup();
      const text = build(p);
      const { reviewEditor, view } = open(text, '', unified);
      const { from, to, inserted } = apply(view, e);
      const out = reviewEditor.getText();
      // The content is what the user sees, to the character; only the breaks are the file's own.
      expect(forReviewEditor(out)).toBe(view.state.doc.toString());
      expect(out.startsWith(BOM)).toBe(p.bom);
      const before = rawLines(text);
      const after = rawLines(out);
      // Lines above the edit, but the one right above it (its break may now end the file).
      for (let i = 0; i < from - 1; i++) expect(after[i]).toEqual(before[i]);
      // Lines below the edit, counted from the end, with their breaks.
      for (let k = 1; k <= before.length - to; k++) expect(after[after.length - k]).toEqual(before[before.length - k]);
      // CodeMirror's document always has a line, if an empty one.
      expect(after.length).toBe(Math.max(1, before.length - (to - from) + inserted));
      reviewEditor.destroy();
      reviewEditors.pop();
    }), { numRuns: 150 });
  }, 60_000);

  it('writes new and changed lines in the file\'s one style: a CRLF file stays CRLF, a CR file CR', () => {
    fc.assert(fc.property(oneStyle, edit, (p, e) => {
      setup();
      const text = build(p);
      const { reviewEditor, view } = open(text, '', false);
      apply(view, e);
      const out = reviewEditor.getText();
      const breaks = rawLines(out).map((l) => l.eol).filter(Boolean);
      const style = rawLines(text).map((l) => l.eol).find(Boolean);
      // A one-line file has no style of its own: new lines then take `\n`.
      for (const b of breaks) expect(b).toBe(style ?? '\n');
      reviewEditor.destroy();
      reviewEditors.pop();
    }), { numRuns: 100 });
  }, 60_000);
});

group('restore', () => {
  it('takes a one-line proposal\'s style from the original', () => {
    expect(restore('one', 'one\ntwo', 'a\r\nb\r\n')).toBe('one\r\ntwo');
  });

  it('never lets a lone CR and a new LF merge into one CRLF break', () => {
    expect(restore('0:\n1:\r', '0:\n1:\n\nnew ')).toBe('0:\n1:\r\rnew ');
  });

  it('gives new lines the most common ending of a mixed file', () => {
    expect(restore('a\r\nb\r\nc\nd', 'a\nb\nc\nX\nd')).toBe('a\r\nb\r\nc\nX\r\nd');
  });

  it('describes what the review editor does not show', () => {
    expect(bytesNote('a\r\nb\r\n')).toBe('CRLF');
    expect(bytesNote(`${BOM}a\nb`)).toBe('LF · BOM · no final newline');
    expect(bytesNote('a\r\nb\n')).toBe('mixed endings');
    expect(bytesNote('a\rb\r')).toBe('CR');
  });
});

group('the window sends the proposal\'s bytes', () => {
  afterEach(reset);
  const crlf = `${BOM}fn main() {\r\n    println!("hi");\r\n}`;

  it('accepts an unedited CRLF proposal as it came', async () => {
    const backend = fakeBackend([detail(1, { original: 'fn main() {\n}\n', proposal: crlf, current: crlf })]);
    const { app } = await mount();
    await app.accept();
    expect(backend.named('review_accept')).toEqual([{ id: 1, revision: 1, content: crlf }]);
  });

  it('accepts and pushes an edited CRLF proposal in CRLF, BOM and no final newline kept', async () => {
    const backend = fakeBackend([detail(1, { proposal: crlf, current: crlf })]);
    const { app, root } = await mount({ pushDelayMs: 0 });
    typeAtEnd(root, '\n// done');
    await settle();
    await settle();
    const edited = `${crlf}\r\n// done`;
    expect(backend.named('review_update').at(-1)).toEqual({ id: 1, revision: 1, content: edited });
    await app.accept();
    expect(backend.named('review_accept')).toEqual([{ id: 1, revision: 1, content: edited }]);
  });

  it('marks a proposal that changes the file\'s line endings', async () => {
    fakeBackend([detail(1, { original: 'a\r\nb\r\n', proposal: 'a\nb\nc\n', current: 'a\nb\nc\n' })]);
    const { root } = await mount();
    const badge = root.querySelector<HTMLElement>('.summary .badge.endings')!;
    expect(badge.textContent).toBe('CRLF → LF');
    expect(badge.classList.contains('changed')).toBe(true);
  });

  it('shows nothing for the common case, LF on both sides', async () => {
    fakeBackend([detail(1)]);
    const { root } = await mount();
    expect(root.querySelector('.summary .badge.endings')).toBeNull();
  });
});

group('an original that is not UTF-8', () => {
  afterEach(reset);

  it('is marked, and says what accepting writes', async () => {
    fakeBackend([detail(1, { original: 'caf\uFFFD\n', originalNotUtf8: true, proposal: 'café\n', current: 'café\n' })]);
    const { root } = await mount();
    const badge = root.querySelector<HTMLElement>('.summary .badge.not-utf8')!;
    expect(badge.textContent).toBe('original not UTF-8');
    expect(badge.title).toContain('UTF-8');
  });
  it('is shown as a binary file of its size when it is not text, the left side empty', async () => {
    fakeBackend([detail(1, {
      original: '', originalNotUtf8: true, originalBinary: 12345, proposal: 'text\n', current: 'text\n',
    })]);
    const { root } = await mount();
    expect(root.querySelector('.summary .badge.binary')!.textContent).toBe('binary file, 12,345 bytes');
    expect(root.querySelector('.summary .badge.not-utf8')).toBeNull();
    expect(root.querySelector('.summary .badge.endings.changed')).toBeNull();
    expect(root.querySelector('.original-label')!.textContent).toBe('Original · binary file, 12,345 bytes');
    expect(root.querySelector('.review-editor-host')!.textContent).not.toContain('\uFFFD');
  });
});
