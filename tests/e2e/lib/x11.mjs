// X11 helpers for a desktop from lib/desktop.mjs: windows (xdotool), pointer and keys, and
// screenshots (ImageMagick). `d` is the desktop; every call is bounded by runProcess's timeout.

import fsp from 'node:fs/promises';
import path from 'node:path';

async function ok(d, cmd, args) {
  const res = await d.x(cmd, args);
  if (res.code !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${res.code}\n${res.stderr}`);
  return res.stdout;
}

/** Visible windows matching an `xdotool search` (e.g. ['--name', '^redline$']), with geometry. */
export async function visibleWindows(d, search) {
  const res = await d.x('xdotool', ['search', '--onlyvisible', ...search]);
  const ids = res.stdout.split('\n').map((s) => s.trim()).filter(Boolean);
  const out = [];
  for (const id of ids) {
    const geo = await d.x('xdotool', ['getwindowgeometry', '--shell', id]);
    if (geo.code !== 0) continue; // gone meanwhile
    const v = Object.fromEntries(geo.stdout.trim().split('\n').map((l) => l.split('=')));
    out.push({ id, x: Number(v.X), y: Number(v.Y), width: Number(v.WIDTH), height: Number(v.HEIGHT) });
  }
  return out;
}

/** The review window, if it is mapped (its page names it: ui/src/title.ts). */
export async function reviewWindow(d) {
  const [w] = await visibleWindows(d, ['--name', '^Redline — (review|getting started)']);
  return w ?? null;
}

export async function click(d, x, y, button = 1) {
  await ok(d, 'xdotool', ['mousemove', '--sync', String(Math.round(x)), String(Math.round(y)), 'click', String(button)]);
}

export async function moveMouse(d, x, y) {
  await ok(d, 'xdotool', ['mousemove', '--sync', String(Math.round(x)), String(Math.round(y))]);
}

export async function keys(d, ...names) {
  await ok(d, 'xdotool', ['key', '--delay', '50', ...names]);
}

/** Screenshot of the root window, or of a region {x, y, width, height} of it, as a PNG file. */
export async function screenshot(d, file, region) {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const crop = region ? ['-crop', `${region.width}x${region.height}+${region.x}+${region.y}`, '+repage'] : [];
  await ok(d, 'import', ['-window', 'root', ...crop, file]);
  return file;
}

/**
 * Where two same-sized images differ: the bounding box {x, y, width, height} of the changed
 * pixels, or null when they are the same.
 */
export async function changedBox(d, a, b) {
  const out = await ok(d, 'convert', [a, b, '-compose', 'difference', '-composite', '-colorspace', 'gray',
    '-threshold', '3%', '-trim', '-format', '%w %h %X %Y %[fx:mean]', 'info:']);
  const [w, h, x, y] = out.trim().split(/\s+/);
  const width = Number(w);
  const height = Number(h);
  // -trim of an all-black image leaves a 1x1 box.
  if (width <= 1 && height <= 1) return null;
  return { x: Number(x), y: Number(y), width, height };
}

/** Mean brightness (0 black … 1 white) of an image. */
export async function brightness(d, file) {
  return Number((await ok(d, 'convert', [file, '-colorspace', 'gray', '-format', '%[fx:mean]', 'info:'])).trim());
}

/** Paints the root window with a desktop-like gradient (screenshots look less like a void). */
export async function backdrop(d, { width, height }, file) {
  await ok(d, 'convert', ['-size', `${width}x${height}`, 'gradient:#55708f-#26323f', file]);
  // `display -window root` sets the background and exits non-zero even when it worked.
  await d.x('display', ['-window', 'root', file]);
  const probe = `${file}.probe.png`;
  await screenshot(d, probe, { x: 0, y: height - 1, width: 1, height: 1 });
  if ((await brightness(d, probe)) === 0) throw new Error('display -window root left the root window black');
}

/** How much an image varies (standard deviation of its grey levels, 0 … 0.5). */
export async function contrast(d, file) {
  return Number((await ok(d, 'convert', [file, '-colorspace', 'gray', '-format', '%[fx:standard_deviation]', 'info:'])).trim());
}

/**
 * Screenshot of window `w` ({x, y, width, height}) once its page is drawn. Taken from the root
 * window: `import -window <id>` gets only the GTK window's own background, not the webview.
 *
 * Waits until `region` shows a drawn page and has stopped changing: WebKit paints a window's
 * page some time after the window is mapped, first as a plain background (contrast 0; a small
 * review on a light page measures about 0.05). Resolves with the
 * file of the last, stable screenshot.
 */
export async function windowShot(d, region, file, { timeoutMs = 15_000, minContrast = 0.01 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let previous = null;
  let n = 0;
  for (;;) {
    const shot = await screenshot(d, path.join(d.dirs.root, `paint-${n++ % 2}.png`), region);
    const c = await contrast(d, shot);
    if (c >= minContrast && previous && (await changedBox(d, previous, shot)) === null) {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.copyFile(shot, file);
      return file;
    }
    previous = c >= minContrast ? shot : null;
    if (Date.now() > deadline) throw new Error(`the region ${JSON.stringify(region)} was not painted and stable within ${timeoutMs} ms (contrast ${c})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
