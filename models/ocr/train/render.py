"""Renders a text line as a 150-300 dpi scan would show it, cut the way
models/ocr cuts a detected line, at the recogniser's height of 48.

Fonts are those Debian packages (fonts-dejavu, fonts-liberation,
fonts-crosextra-carlito/-caladea, fonts-urw-base35, fonts-noto-core);
a font is used for a line only when it has a glyph for every character.
"""

import io
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

import charset

H = 48

FONT_DIRS = [
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/crosextra",
    "/usr/share/fonts/opentype/urw-base35",
    "/usr/share/fonts/truetype/noto",
]
FONT_SKIP = ("MathTeXGyre", "StandardSymbols", "D050000L", "Z003")
NOTO_KEEP = ("NotoSans-", "NotoSerif-", "NotoSansMono-")


def font_files():
    out = []
    for d in FONT_DIRS:
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith((".ttf", ".otf")) or any(s in f for s in FONT_SKIP):
                continue
            if "noto" in d and not f.startswith(NOTO_KEEP):
                continue
            out.append(os.path.join(d, f))
    return out


def _coverage(path):
    """The characters of the set the font has glyphs for: a glyph whose
    bitmap equals the .notdef one (of a private-use code point) is missing."""
    f = ImageFont.truetype(path, 24)

    def sig(c):
        m = f.getmask(c)
        return m.size, bytes(m)

    missing = sig("\ue000")
    return frozenset(c for c in charset.CHARS if sig(c) != missing)


class Fonts:
    def __init__(self):
        self.files = font_files()
        if not self.files:
            raise SystemExit("render: no fonts found (apt-get install fonts-dejavu fonts-liberation ...)")
        self.cover = {p: _coverage(p) for p in self.files}
        self.cache = {}

    def get(self, path, size):
        k = (path, size)
        f = self.cache.get(k)
        if f is None:
            if len(self.cache) > 4000:
                self.cache.clear()
            f = self.cache[k] = ImageFont.truetype(path, size)
        return f

    def pick(self, text, rng, want=None, bold=False):
        need = set(text) - {" "}
        order = [want] if want else []
        if bold:
            heavy = [p for p in self.files if any(b in os.path.basename(p) for b in BOLD_NAMES)]
            order += rng.sample(heavy, len(heavy))
        order += rng.sample(self.files, len(self.files))
        for p in order:
            if need <= self.cover[p]:
                return p
        return None


# Shares of lines drawn with scaled word spacing and with a neighbouring
# line reaching into the crop (train.py --spacing, --neighbour; 0 in the
# first two stages and in the held-out set).
SPACING_P = 0.0
NEIGHBOUR_P = 0.0
# Share of lines set in a bold face (train.py --bold; stage 7: bold print
# read 0 as 9). 0 draws nothing, so earlier stages' streams are unchanged.
BOLD_P = 0.0
BOLD_NAMES = ("Bold", "Bd", "Demi")


def render(text, fonts, rng, font=None, dpi=None, pt=None, clean=False):
    """Returns a uint8 gray array [48, w] of text, or None when no font
    has every character."""
    bold = BOLD_P > 0 and not font and not clean and rng.random() < BOLD_P
    path = fonts.pick(text, rng, font, bold)
    if path is None:
        return None
    dpi = dpi or rng.uniform(150, 300)
    pt = pt or rng.uniform(7.5, 14)
    size = max(8, int(round(pt * dpi / 72)))
    f = fonts.get(path, size)
    asc, desc = f.getmetrics()
    paper = 255 if clean else int(rng.uniform(200, 256))
    ink = 0 if clean else int(rng.choice([rng.uniform(0, 60), rng.uniform(0, 60), rng.uniform(60, 150)]))
    x0, _, x1, _ = f.getbbox(text)
    pad = size
    # Word spacing of real documents: justified lines stretch it, tight
    # setting and small print squeeze it (the words are then drawn one by
    # one at the scaled spaces).
    words = text.split(" ")
    space = None
    # (No draw at all when the share is 0, so the first stages' stream and
    # the held-out set are what they were.)
    if SPACING_P > 0 and not clean and len(words) > 1 and rng.random() < SPACING_P:
        space = f.getlength(" ") * rng.uniform(0.45, 1.6)
        x1 = min(x0, 0) + sum(f.getlength(wd) for wd in words) + space * (len(words) - 1) + size
    w = int(x1 - min(x0, 0)) + 2 * pad
    h = asc + desc + 2 * pad
    im = Image.new("L", (w, h), paper)
    d = ImageDraw.Draw(im)
    stroke = 0
    if not clean and size >= 24 and rng.random() < 0.1:
        stroke = 1
    if space is None:
        d.text((pad - min(x0, 0), pad), text, font=f, fill=ink, stroke_width=stroke, stroke_fill=ink)
    else:
        x = pad - min(x0, 0)
        for wd in words:
            if wd:
                d.text((x, pad), wd, font=f, fill=ink, stroke_width=stroke, stroke_fill=ink)
            x += f.getlength(wd) + space * rng.uniform(0.9, 1.1)
    if NEIGHBOUR_P > 0 and not clean and rng.random() < NEIGHBOUR_P:
        # A table's or a dense page's neighbouring line reaching into the
        # crop: its descenders from above or its ascenders from below. It
        # is not part of the label.
        lh = asc + desc
        other = "".join(rng.sample(text, len(text)))
        y = pad - lh * rng.uniform(0.88, 1.12) if rng.random() < 0.5 else pad + lh * rng.uniform(0.88, 1.12)
        d.text((pad - min(x0, 0) + rng.uniform(-0.3, 0.3) * w, y), other, font=f, fill=ink)
    if not clean:
        im = _scan(im, rng, paper, size)
    a = np.asarray(im, dtype=np.uint8)
    # Cut like the detector's box: ascender to descender, a little margin
    # either way, the ink's left and right ends with a margin.
    top, bot = pad, pad + asc + desc
    lh = bot - top
    if clean:
        mt, mb = 0.08 * lh, 0.08 * lh
    else:
        mt, mb = rng.uniform(-0.08, 0.3) * lh, rng.uniform(-0.08, 0.3) * lh
    y0, y1 = max(0, int(top - mt)), min(a.shape[0], int(bot + mb))
    cols = np.where((a[y0:y1] < (paper + ink) / 2).any(axis=0))[0]
    if len(cols) == 0:
        return None
    ml = (0.1 if clean else rng.uniform(0, 0.5)) * lh
    mr = (0.1 if clean else rng.uniform(0, 0.5)) * lh
    c0, c1 = max(0, int(cols[0] - ml)), min(a.shape[1], int(cols[-1] + 1 + mr))
    a = a[y0:y1, c0:c1]
    stretch = 1.0 if clean else rng.uniform(0.85, 1.15)
    nw = max(8, int(round(a.shape[1] * H / a.shape[0] * stretch)))
    out = Image.fromarray(a).resize((nw, H), Image.BILINEAR if rng.random() < 0.5 else Image.LANCZOS)
    a = np.asarray(out, dtype=np.uint8)
    if not clean and rng.random() < 0.03:
        a = 255 - a
    return a


def _scan(im, rng, paper, size):
    """Scanner and printer artefacts at the scan's own resolution."""
    if rng.random() < 0.5:
        ang = rng.uniform(-1.5, 1.5)
        im = im.rotate(ang, resample=Image.BILINEAR, expand=False, fillcolor=paper)
    k = rng.random()
    if k < 0.15:
        im = im.filter(ImageFilter.MinFilter(3))  # bold / toner spread
    elif k < 0.3 and size >= 20:
        im = im.filter(ImageFilter.MaxFilter(3))  # thin / starved strokes
    if rng.random() < 0.7:
        im = im.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.3)))
    a = np.asarray(im, dtype=np.float32)
    if rng.random() < 0.7:
        a = a + np.random.default_rng(rng.getrandbits(32)).normal(0, rng.uniform(2, 18), a.shape)
    if rng.random() < 0.12:
        # Fax-like: hard threshold after the noise.
        t = rng.uniform(100, 180)
        a = np.where(a < t, 0.0, 255.0)
    a = np.clip(a, 0, 255).astype(np.uint8)
    im = Image.fromarray(a)
    if rng.random() < 0.35:
        b = io.BytesIO()
        im.save(b, "JPEG", quality=rng.randint(25, 90))
        im = Image.open(io.BytesIO(b.getvalue())).convert("L")
    return im


if __name__ == "__main__":
    import sys
    import time
    import texts
    rng = random.Random(3)
    t = time.time()
    fonts = Fonts()
    print("fonts", len(fonts.files), "coverage in", round(time.time() - t, 1), "s")
    for p in fonts.files:
        miss = len(charset.CHARS) - len(fonts.cover[p])
        if miss > 30:
            print("  ", os.path.basename(p), "lacks", miss)
    src = texts.Sources(os.environ.get("DATA", "../../../../shared/data"), rng)
    t = time.time()
    rows = []
    for i in range(200):
        a = render(src.sample(), fonts, rng)
        if a is not None:
            rows.append(a)
    print("200 lines in", round(time.time() - t, 2), "s")
    if len(sys.argv) > 1:
        w = max(r.shape[1] for r in rows[:24])
        sheet = np.full((48 * 24, w), 128, np.uint8)
        for i, r in enumerate(rows[:24]):
            sheet[i * 48:(i + 1) * 48, :r.shape[1]] = r
        Image.fromarray(sheet).save(sys.argv[1])
