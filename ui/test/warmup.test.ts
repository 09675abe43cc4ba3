import { describe, expect, it } from 'vitest';
import { warmUpEditor } from '../src/warmup';

describe('warmUpEditor', () => {
  it('runs CodeMirror once and leaves nothing in the page but its styles', () => {
    const before = document.body.innerHTML;
    const styled = () => [...document.querySelectorAll('style')].some((s) => s.textContent?.includes('.cm-'))
      || document.adoptedStyleSheets.some((sheet) => [...sheet.cssRules].some((r) => r.cssText.includes('.cm-')));
    expect(styled()).toBe(false);
    warmUpEditor();
    expect(document.body.innerHTML).toBe(before);
    expect(styled()).toBe(true);
  });
});
