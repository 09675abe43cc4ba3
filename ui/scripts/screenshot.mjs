// Screenshots of the review window (dev harness, built by `vite build --mode mock`) in light and dark.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, watchErrors } from './browser.mjs';
import { serve } from './serve.mjs';

const ui = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(ui, '..', 'docs', 'screenshots');
await mkdir(outDir, { recursive: true });

const server = await serve(join(ui, 'dist-mock'));
const browser = await launch();
const errors = [];
try {
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 760 } });
    const page = await context.newPage();
    watchErrors(page, errors);
    await page.goto(`${server.url}/dev/mock.html${process.env.MOCK_QUERY ?? ''}`);
    await page.waitForSelector('.cm-mergeView .cm-changedText');
    // The language loads after first paint; wait until the Rust grammar has coloured the code.
    await page.waitForSelector('.cm-merge-b .tok-keyword');
    await page.evaluate(() => document.fonts.ready);
    const file = join(outDir, `review-${scheme}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${file}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
