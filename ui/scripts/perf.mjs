// Measures the review window on a 20,000-line file in Debian's chromium: open, type, scroll.
// Timings are taken inside the page, so they hold the review editor's work and not the driver's round trips.
// Fails when typing or scrolling gets slow enough for a user to notice.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, watchErrors } from './browser.mjs';
import { serve } from './serve.mjs';

const ui = join(dirname(fileURLToPath(import.meta.url)), '..');
// Generous: the machines are two shared cores without a GPU; a desktop does far better.
const KEY_BUDGET_MS = 50;
const SCROLL_BUDGET_MS = 100;

const server = await serve(join(ui, 'dist-mock'));
const browser = await launch();
const errors = [];
const results = [];
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const worst = (xs) => Math.max(...xs);
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  watchErrors(page, errors);
  await page.goto(`${server.url}/dev/mock.html?big`);
  await page.waitForSelector('.cm-mergeView');
  const heapBefore = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);

  for (const layout of ['split', 'unified']) {
    await page.click('.tab[data-id="1"]');
    await page.click(`[data-layout=${layout}]`);
    const t0 = Date.now();
    await page.click('.tab[data-id="3"]');
    await page.waitForSelector('.cm-merge-b .cm-content');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    const open = Date.now() - t0;

    const m = await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const view = window.__redline.EditorView.findFromDOM(document.querySelector('.cm-merge-b'));
      const lines = view.state.doc.lines;
      const domLines = document.querySelectorAll('.cm-merge-b .cm-line').length;
      // Type in the middle of the file, one character per frame, as a fast typist would.
      let pos = view.state.doc.line(lines >> 1).from;
      view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
      view.focus();
      await frame();
      const sync = [];
      const toFrame = [];
      for (let i = 0; i < 60; i++) {
        const insert = i % 12 === 11 ? '\n' : 'x';
        const t = performance.now();
        view.dispatch({ changes: { from: pos, insert }, selection: { anchor: pos + 1 }, scrollIntoView: true, userEvent: 'input.type' });
        sync.push(performance.now() - t);
        pos += 1;
        await frame();
        toFrame.push(performance.now() - t);
      }
      // Scroll through the whole file in 40 jumps, two frames each.
      const scroller = document.querySelector('.cm-mergeView') ?? view.scrollDOM;
      const scroll = [];
      for (let i = 0; i <= 40; i++) {
        const t = performance.now();
        scroller.scrollTop = (scroller.scrollHeight * i) / 40;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
        scroll.push(performance.now() - t);
      }
      return { lines, domLines, sync, toFrame, scroll };
    });
    results.push([`${layout}: open a ${m.lines}-line review`, `${open} ms`]);
    results.push([`${layout}: lines in the DOM`, m.domLines]);
    results.push([`${layout}: keystroke handling, median / worst`, `${median(m.sync).toFixed(1)} / ${worst(m.sync).toFixed(1)} ms`]);
    results.push([`${layout}: keystroke to next frame, median / worst`, `${median(m.toFrame).toFixed(1)} / ${worst(m.toFrame).toFixed(1)} ms`]);
    results.push([`${layout}: scroll jump to frame, median / worst`, `${median(m.scroll).toFixed(1)} / ${worst(m.scroll).toFixed(1)} ms`]);
    if (median(m.toFrame) > KEY_BUDGET_MS) errors.push(`${layout}: typing is slow (${median(m.toFrame).toFixed(1)} ms per key)`);
    if (median(m.scroll) > SCROLL_BUDGET_MS) errors.push(`${layout}: scrolling is slow (${median(m.scroll).toFixed(1)} ms per jump)`);
  }
  const heapAfter = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
  if (heapAfter) results.push(['JS heap before / after (includes the mock\'s copies)', `${(heapBefore / 1048576).toFixed(1)} / ${(heapAfter / 1048576).toFixed(1)} MB`]);
} finally {
  await browser.close();
  await server.close();
}
for (const [k, v] of results) console.log(`${k}: ${v}`);
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
console.log('perf: ok');
