import { describe, expect, it } from 'vitest';
import { warmUpReviewEditor } from '../src/warmup';

describe('warmUpReviewEditor', () => {
  it('runs CodeMirror once and leaves nothing in the page but its styles', () => {
    const before = document.body.innerHTML;
    const styled = () => [...document.querySelectorAll('style')].some((s) => s.textContent?.includes('.cm-'))
      || document.adoptedStyleSheets.some((sheet) => [...sheet.cssRules].some((r) => r.cssText.includes('.cm-')));
    expect(styled()).toBe(false);
    warmUpReviewEditor();
    expect(document.body.innerHTML).toBe(before);
    expect(styled()).toBe(true);
  });
});
