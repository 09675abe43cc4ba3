// Runs the review editor once, off screen, while the hidden window waits for its first review:
// CodeMirror mounts its styles and the engine compiles its code then, not while the user waits.
import { createReviewEditor } from './review-editor';

const ORIGINAL = 'fn total(items: &[u32]) -> u32 {\n    let mut sum = 0;\n    for i in items {\n        sum += i;\n    }\n    sum\n}\n';

/** Builds and drops one side-by-side and one unified review editor in a detached, invisible host. */
export function warmUpReviewEditor(doc: Document = document): void {
  const host = doc.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.style.cssText = 'position:fixed;left:-10000px;top:0;width:800px;height:400px;visibility:hidden';
  doc.body.append(host);
  try {
    for (const unified of [false, true]) {
      createReviewEditor(host, {
        original: ORIGINAL, text: ORIGINAL.replace('sum += i', 'sum += *i'), path: 'warm-up.txt', unified,
        highlightChanges: true,
      }, () => {}, () => {}).destroy();
    }
  } finally {
    host.remove();
  }
}
