// Screenshots of the welcome page (dev harness, built by `vite build --mode mock`): the first run
// (no workspace yet) and the live check of a workspace, in light and dark.
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
  for (const [name, query, ready] of [
    ['welcome-first-run', '?first', '.empty.first-run'],
    ['welcome-check', '?empty', '.doctor-line.bad'],
  ]) {
    for (const scheme of ['light', 'dark']) {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1000, height: 640 } });
      const page = await context.newPage();
      watchErrors(page, errors);
      await page.goto(`${server.url}/dev/mock.html${query}`);
      await page.waitForSelector(ready);
      await page.evaluate(() => document.fonts.ready);
      const file = join(outDir, `${name}-${scheme}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
if (errors.length) {
  console.error(errors.join('\n'));
  process.exit(1);
}
