// Line endings, BOM and final newline: the review editor works on plain `\n` lines, and the text that goes
// back to the CLI is rebuilt from the proposal's own bytes so that nothing the user did not touch changes.

const BOM = '\uFEFF';
/** What CodeMirror treats as a line break when no `lineSeparator` is set. */
const BREAK = /\r\n|\r|\n/g;
/** Above this many (removed × added) lines the middle of an edit is not aligned line by line. */
const ALIGN_LIMIT = 4_000_000;

export type Ending = '\r\n' | '\r' | '\n';

interface Line {
  text: string;
  /** '' for the last line, which no break ends. */
  eol: Ending | '';
}

function lines(body: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const m of body.matchAll(BREAK)) {
    out.push({ text: body.slice(start, m.index), eol: m[0] as Ending });
    start = m.index + m[0].length;
  }
  out.push({ text: body.slice(start), eol: '' });
  return out;
}

function stripBom(text: string): { bom: boolean; body: string } {
  return text.startsWith(BOM) ? { bom: true, body: text.slice(1) } : { bom: false, body: text };
}

/** The text as the review editor shows it: no BOM, every line break a `\n` (as CodeMirror splits it). */
export function forReviewEditor(text: string): string {
  return stripBom(text).body.replace(BREAK, '\n');
}

/** The most common ending in `ls`, `null` when no line has one. Ties go to `\n`, then `\r\n`. */
function dominant(ls: Line[]): Ending | null {
  const n = { '\r\n': 0, '\r': 0, '\n': 0 };
  for (const l of ls) if (l.eol) n[l.eol]++;
  const best = (['\n', '\r\n', '\r'] as const).reduce((a, b) => (n[b] > n[a] ? b : a));
  return n[best] ? best : null;
}

/**
 * For each line of `edited`, the index of the `reference` line it is unchanged from, or -1:
 * the common head and tail first, then the longest common subsequence of what is between.
 */
function align(reference: Line[], edited: string[]): number[] {
  const match = new Array<number>(edited.length).fill(-1);
  let head = 0;
  while (head < reference.length && head < edited.length && reference[head].text === edited[head]) {
    match[head] = head;
    head++;
  }
  let tail = 0;
  while (
    tail < reference.length - head && tail < edited.length - head
    && reference[reference.length - 1 - tail].text === edited[edited.length - 1 - tail]
  ) {
    match[edited.length - 1 - tail] = reference.length - 1 - tail;
    tail++;
  }
  const a = reference.slice(head, reference.length - tail);
  const b = edited.slice(head, edited.length - tail);
  if (a.length === 0 || b.length === 0 || a.length * b.length > ALIGN_LIMIT) return match;
  // lcs[i][j]: the longest common run of a[i..] and b[j..], one row at a time kept whole.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i].text === b[j]
        ? lcs[(i + 1) * w + j + 1] + 1
        : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i].text === b[j]) {
      match[head + j] = head + i;
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return match;
}

/**
 * The bytes to send for `edited` (the review editor's text) when the review editor was given `reference`:
 * `reference` itself when nothing changed; otherwise the edited lines, each unchanged line with
 * the ending it had, each new or changed line with the reference's most common ending (else
 * `fallback`'s, else `\n`), and the reference's BOM if it had one.
 */
export function restore(reference: string, edited: string, fallback = ''): string {
  if (forReviewEditor(reference) === edited) return reference;
  const { bom, body } = stripBom(reference);
  const ref = lines(body);
  const out = edited.split('\n');
  const match = align(ref, out);
  const usual = dominant(ref) ?? dominant(lines(stripBom(fallback).body)) ?? '\n';
  // Each line's own ending where it kept one, else the usual one.
  const own = out.map((_, i) => i < out.length - 1 && match[i] >= 0 && ref[match[i]].eol !== '');
  const eols: string[] = out.map((_, i) => (i === out.length - 1 ? '' : own[i] ? ref[match[i]].eol : usual));
  // `\r`, an empty line, then `\n` would read back as one `\r\n` break: a line lost. Such a run
  // only appears where the edit joined lines (the reference has none). An empty line whose `\n` is
  // not its own takes the `\r` before it; one that keeps its own makes the line before it, the
  // edit's last, end in `\r\n` instead, which no later step undoes.
  for (let i = 1; i < out.length - 1; i++) {
    if (eols[i - 1] !== '\r' || out[i] !== '' || eols[i] !== '\n') continue;
    if (own[i]) eols[i - 1] = '\r\n';
    else eols[i] = '\r';
  }
  let text = bom ? BOM : '';
  out.forEach((line, i) => {
    text += line + eols[i];
  });
  return text;
}

/** A short note on the text's bytes that the review editor does not show: `CRLF · BOM · no final newline`. */
export function bytesNote(text: string): string {
  const { bom, body } = stripBom(text);
  const ls = lines(body);
  const kinds = new Set(ls.map((l) => l.eol).filter((e) => e !== ''));
  const style = kinds.size > 1 ? 'mixed endings'
    : kinds.has('\r\n') ? 'CRLF' : kinds.has('\r') ? 'CR' : kinds.has('\n') ? 'LF' : '';
  const parts = [style];
  if (bom) parts.push('BOM');
  if (body !== '' && ls[ls.length - 1].eol === '' && ls[ls.length - 1].text !== '') parts.push('no final newline');
  return parts.filter(Boolean).join(' · ');
}

/** Whether `bytesNote` has anything worth showing on its own: what a plain LF text has is not. */
export function notable(note: string): boolean {
  return note !== '' && note !== 'LF';
}
