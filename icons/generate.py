#!/usr/bin/env python3
"""Generate Redline's icon set (app icon, ICO, ICNS, tray icons) into this folder.

    pip install pillow && python3 icons/generate.py

Every size is drawn on its own pixel grid (edges on whole pixels where they can be),
supersampled and box-filtered down, so each PNG is anti-aliased but crisp at its size.
The output is deterministic; re-running it rewrites the same files.
"""

import io
import os
import struct
import sys

from PIL import Image, ImageChops, ImageDraw

OUT = os.path.dirname(os.path.abspath(__file__))

# Palette: the review window's (GitHub Primer dark) colours.
TILE_TOP = (0x26, 0x2C, 0x36)
TILE_BOTTOM = (0x12, 0x17, 0x1F)
RIM = (255, 255, 255, 40)  # thin inner rim so the tile reads on dark backgrounds
TEXT = (0x9D, 0xA5, 0xB0, 255)  # unchanged lines
RED = (0xF8, 0x51, 0x49, 255)  # the red line (removed)
GREEN = (0x3F, 0xB9, 0x50, 255)  # added line
RED_BAND = (0xF8, 0x51, 0x49, 46)
GREEN_BAND = (0x3F, 0xB9, 0x50, 40)
BADGE = (0xFF, 0x3B, 0x30, 255)  # "reviews pending" dot on tray icons


class Canvas:
    """An RGBA image of `size` px; shapes are given in px (floats allowed) of that size."""

    def __init__(self, size):
        self.size = size
        self.ss = max(1, min(16, 4096 // size))  # supersampling factor
        self.img = Image.new("RGBA", (size, size), (0, 0, 0, 0))

    def _mask(self):
        return Image.new("L", (self.size * self.ss,) * 2, 0)

    def _box(self, x0, y0, x1, y1):
        s = self.ss
        return [round(x0 * s), round(y0 * s), round(x1 * s) - 1, round(y1 * s) - 1]

    def rrect(self, x0, y0, x1, y1, r=0.0):
        m = self._mask()
        d = ImageDraw.Draw(m)
        if r > 0:
            d.rounded_rectangle(self._box(x0, y0, x1, y1), radius=round(r * self.ss), fill=255)
        else:
            d.rectangle(self._box(x0, y0, x1, y1), fill=255)
        return m

    def circle(self, cx, cy, r):
        m = self._mask()
        ImageDraw.Draw(m).ellipse(self._box(cx - r, cy - r, cx + r, cy + r), fill=255)
        return m

    def pill(self, x0, y0, x1, y1):
        return self.rrect(x0, y0, x1, y1, (y1 - y0) / 2)

    def coverage(self, m):
        return m.reduce(self.ss) if self.ss > 1 else m

    def paint(self, mask, fill):
        """Composite `fill` (an RGBA colour tuple or an RGBA image) through `mask`."""
        cov = self.coverage(mask)
        if isinstance(fill, tuple):
            layer = Image.new("RGBA", self.img.size, fill)
        else:
            layer = fill.copy()
        a = ImageChops.multiply(layer.getchannel("A"), cov)
        layer.putalpha(a)
        self.img = Image.alpha_composite(self.img, layer)

    def erase(self, mask):
        """Make everything under `mask` transparent (a knockout)."""
        cov = self.coverage(mask)
        a = ImageChops.multiply(self.img.getchannel("A"), ImageChops.invert(cov))
        self.img.putalpha(a)


def minus(a, b):
    return ImageChops.subtract(a, b)


def vgradient(size, top, bottom):
    g = Image.linear_gradient("L").resize((size, size), Image.BILINEAR)
    return Image.composite(
        Image.new("RGBA", (size, size), bottom + (255,)),
        Image.new("RGBA", (size, size), top + (255,)),
        g,
    )


# ---------------------------------------------------------------- app icon

def app_geometry(size):
    """Pixel geometry of the app icon at `size`: a dark 'document' tile with text lines,
    one struck through by a red line running past the text margins, one green (added)."""
    if size == 16:
        return dict(
            tile=(0, 0, 16, 16), radius=3.5, rim=1.0,
            rows=[("text", 4, 3, 11, 5), ("red", 2, 7, 14, 9), ("green", 4, 11, 12, 13)],
            bands=None,
        )
    if size == 48:
        return dict(
            tile=(1, 1, 47, 47), radius=10, rim=1.0,
            rows=[("text", 10, 10, 32, 14), ("red", 6, 18, 42, 22),
                  ("green", 10, 26, 35, 30), ("text", 10, 34, 25, 38)],
            bands=None,
        )
    # 32-unit design grid, scaled; 32 itself is pixel-exact, larger sizes are integer multiples.
    s = size / 32
    rows = [("text", 7, 7, 21, 10), ("red", 4, 12, 28, 15),
            ("green", 7, 17, 23, 20), ("text", 7, 22, 17, 25)]
    g = dict(
        tile=(1 * s, 1 * s, 31 * s, 31 * s), radius=7 * s,
        rim=1.0 if size <= 64 else 0.5 * s,
        rows=[(k, x0 * s, y0 * s, x1 * s, y1 * s) for k, x0, y0, x1, y1 in rows],
        bands=None,
    )
    if size >= 128:  # diff-highlight bands behind the changed lines
        g["bands"] = [(RED_BAND, 11 * s, 16 * s), (GREEN_BAND, 16 * s, 21 * s)]
    return g


def app_icon(size, inset=0.0):
    """`inset` shrinks the artwork toward the centre (fraction of size per side),
    used for the macOS .icns which expects a margin around the tile."""
    if inset:
        inner = round(size * (1 - 2 * inset))
        art = app_icon(inner)
        img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        off = (size - inner) // 2
        img.alpha_composite(art, (off, off))
        return img
    g = app_geometry(size)
    c = Canvas(size)
    x0, y0, x1, y1 = g["tile"]
    r = g["radius"]
    tile = c.rrect(x0, y0, x1, y1, r)
    c.paint(tile, vgradient(size, TILE_TOP, TILE_BOTTOM))
    if g["bands"]:
        for colour, by0, by1 in g["bands"]:
            c.paint(ImageChops.multiply(tile, c.rrect(x0, by0, x1, by1)), colour)
    if g["rim"]:
        w = g["rim"]
        c.paint(minus(tile, c.rrect(x0 + w, y0 + w, x1 - w, y1 - w, max(0, r - w))), RIM)
    colours = {"text": TEXT, "red": RED, "green": GREEN}
    for kind, rx0, ry0, rx1, ry1 in g["rows"]:
        c.paint(c.pill(rx0, ry0, rx1, ry1), colours[kind])
    return c.img


# ---------------------------------------------------------------- tray icons

def tray_icon(size, colour, badge=None):
    """Monochrome glyph: a document outline whose middle line is a bold stroke running
    out through both sides of the page (the 'red line'), on a 32-unit grid.
    `badge`: None, or the colour of a top-right dot meaning 'reviews pending'."""
    s = size / 32
    c = Canvas(size)
    # page outline, 2 units thick
    page = c.rrect(6 * s, 3 * s, 26 * s, 28 * s, 4 * s)
    hole = c.rrect(8 * s, 5 * s, 24 * s, 26 * s, 2 * s)
    c.paint(minus(page, hole), colour)
    # text lines above and below
    c.paint(c.pill(11 * s, 8 * s, 20 * s, 10 * s), colour)
    c.paint(c.pill(11 * s, 21 * s, 18 * s, 23 * s), colour)
    # the strike: a gap in the page outline, then a 3-unit bar through it
    c.erase(c.rrect(0, 13 * s, 32 * s, 18 * s))
    c.paint(c.pill(2 * s, 14 * s, 30 * s, 17 * s), colour)
    if badge:
        cx, cy, r = 26 * s, 6 * s, 5 * s
        # knock out a ring around the dot, and the sliver of page edge left below it
        c.erase(c.circle(cx, cy, r + 1.5 * s))
        c.erase(c.rrect(23 * s, 0, 32 * s, 13 * s))
        c.paint(c.circle(cx, cy, r), badge)
    return c.img


# ---------------------------------------------------------------- containers

def png_bytes(img):
    b = io.BytesIO()
    img.save(b, "PNG", optimize=True)
    return b.getvalue()


def write_ico(path, images):
    """ICO with PNG-compressed entries (Windows Vista+), one per image, smallest first."""
    images = sorted(images, key=lambda im: im.width)
    blobs = [png_bytes(im) for im in images]
    head = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries = b""
    for im, blob in zip(images, blobs):
        w = 0 if im.width >= 256 else im.width
        h = 0 if im.height >= 256 else im.height
        entries += struct.pack("<BBBBHHII", w, h, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
    with open(path, "wb") as f:
        f.write(head + entries + b"".join(blobs))


def icns_rle(channel):
    """Apple's icns RLE for one 8-bit channel: 0x00-0x7F = n+1 literal bytes follow,
    0x80-0xFF = the next byte repeated n-125 (3..130) times."""
    data, out, i = channel, bytearray(), 0
    while i < len(data):
        run = 1
        while i + run < len(data) and run < 130 and data[i + run] == data[i]:
            run += 1
        if run >= 3:
            out += bytes((run + 125, data[i]))
            i += run
            continue
        j = i  # literal stretch until the next run of 3 (or 128 bytes)
        while j < len(data) and j - i < 128:
            if j + 2 < len(data) and data[j] == data[j + 1] == data[j + 2]:
                break
            j += 1
        out += bytes((j - i - 1,)) + data[i:j]
        i = j
    return bytes(out)


def icns_legacy(img):
    """(RGB, mask) payloads of the classic is32/s8mk or il32/l8mk pair."""
    r, g, b, a = img.split()
    rgb = b"".join(icns_rle(ch.tobytes()) for ch in (r, g, b))
    return rgb, a.tobytes()


def write_icns(path, entries):
    """ICNS: classic RLE+mask entries for 16 and 32 px, PNG-encoded entries above
    (the OSType codes Apple's iconutil uses)."""
    body = b""
    for ostype, img in entries:
        if ostype in ("is32", "il32"):
            rgb, mask = icns_legacy(img)
            mtype = "s8mk" if ostype == "is32" else "l8mk"
            chunks = [(ostype, rgb), (mtype, mask)]
        else:
            chunks = [(ostype, png_bytes(img))]
        for t, blob in chunks:
            body += t.encode("ascii") + struct.pack(">I", 8 + len(blob)) + blob
    with open(path, "wb") as f:
        f.write(b"icns" + struct.pack(">I", 8 + len(body)) + body)


def save(img, name):
    img.save(os.path.join(OUT, name), "PNG", optimize=True)


def main():
    app = {n: app_icon(n) for n in (16, 32, 48, 128, 256, 512)}
    save(app[512], "icon.png")
    save(app[32], "32x32.png")
    save(app[128], "128x128.png")
    save(app[256], "128x128@2x.png")
    write_ico(os.path.join(OUT, "icon.ico"), [app[16], app[32], app[48], app[256]])

    # macOS: at 128 px and up the artwork is inset so the tile matches Apple's icon grid
    # (an 824 px tile in 1024); the tile is 30/32 of the artwork, so the artwork is 879/1024.
    mac = lambda n: app_icon(n, inset=(1024 - 879) / 2048) if n >= 128 else app_icon(n)
    write_icns(os.path.join(OUT, "icon.icns"), [
        ("is32", app_icon(16)), ("il32", app_icon(32)),
        ("ic07", mac(128)), ("ic08", mac(256)), ("ic09", mac(512)),
        ("ic11", app_icon(32)), ("ic12", app_icon(64)), ("ic13", mac(256)),
        ("ic14", mac(512)), ("ic10", mac(1024)),
    ])

    glyph = {"light": (0x22, 0x22, 0x22, 255), "dark": (0xEE, 0xEE, 0xEE, 255),
             "template": (0, 0, 0, 255)}
    for variant, colour in glyph.items():
        badge = colour if variant == "template" else BADGE
        for n, suffix in ((32, ""), (64, "@2x")):
            save(tray_icon(n, colour), f"tray-{variant}{suffix}.png")
            save(tray_icon(n, colour, badge), f"tray-pending-{variant}{suffix}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
