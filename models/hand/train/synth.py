"""Synthetic ink patches for redactd's handwriting classifier.

Positives are handwriting: pen strokes drawn as splines through
cursive-like control points (pressure-varying width, slant, capitals,
flourishes, initials, scribbles, several words), and text in Debian's
handwriting fonts with per-letter jitter. Negatives are what else a
document inks: printed text in many fonts and sizes (Z003, a calligraphic
print face, and Comic Neue among them, as letterheads print them),
rules, table grids, form boxes, logos, stamps, check boxes, charts,
codes, specks and halftone. Each object is drawn on paper that is clean
or scanned (gray paper, noise, blur, JPEG, binarised, faint, skewed),
then cut and normalised exactly as engine/visual/hand.go cuts a
candidate: ink box plus margin, contrast stretched, ink = 1, scaled into
PH x PW (chunks of PW/PH times its height for long lines).
"""

import io
import math
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

PH, PW = 32, 128

# CAPTIONS puts a printed caption beside a fifth of the positives
# (with_caption). The shipped model's first 10 000 samples (seed 1) were
# drawn before captions were added: train.py --no-captions draws them so.
CAPTIONS = True

# SCANNED and FORMS (gen.py --scanned, --forms; 0 in the shipped model's
# seeds 1 and 2, which were drawn before them, so those draw as before):
# the share of samples put on scanned paper (scan_paper) and the share
# put in a form's box (in_form_box), with the caption fragments and the
# frame that a candidate on a scanned form is cut with. Both apply to
# positives and negatives alike (typed entries in boxes are print).
SCANNED = 0.0
FORMS = 0.0
# ORNAMENTS (gen.py --ornaments): the share of negatives that are a
# printed ornament (ornament_image): drawn, not written, so mirrored,
# repeated or turned about a centre.
ORNAMENTS = 0.0

HAND_FONTS = [
    "/usr/share/fonts/truetype/fifthhorseman/dkg.ttf",
    "/usr/share/fonts/truetype/fifthhorseman/dkgIt.ttf",
    "/usr/share/fonts/truetype/fifthhorseman/dkgBd.ttf",
    "/usr/share/fonts/truetype/femkeklaver/femkeklaver.ttf",
    "/usr/share/fonts/truetype/ecolier-court/Ecolier-court.ttf",
    "/usr/share/fonts/truetype/breip/Breip.ttf",
    "/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf",
    "/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf",
    "/usr/share/fonts/opentype/kaushanscript/KaushanScript-Regular.otf",
    "/usr/share/fonts/opentype/bwht/BecauseWeLearn-Regular.otf",
    "/usr/share/fonts/opentype/bwht/BecauseWeOrganize-Regular.otf",
    "/usr/share/fonts/opentype/bwht/BecauseWeMentor-Regular.otf",
    "/usr/share/fonts/opentype/bwht/BecauseWeConnect-Regular.otf",
    "/usr/share/fonts/opentype/bwht/BecauseWeBuild-Regular.otf",
    "/usr/share/fonts/opentype/bwht/BecauseWeCreate-Regular.otf",
]
PRINT_DIRS = [
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/crosextra",
    "/usr/share/fonts/opentype/urw-base35",
    "/usr/share/fonts/opentype/comic-neue",
]
SCRIPT_PRINT = ["/usr/share/fonts/opentype/urw-base35/Z003-MediumItalic.otf"]

FIRST = "Anna Jan Maria Pieter Sophie Lukas Elena Marco Claire Jean Ingrid Tomasz Laura Pablo Eva Henrik Zofia Luca Ines Noah".split()
LAST = "Meyer Jansen Dubois Rossi Kowalski Garcia Novak Schmidt Bakker Laurent Silva Moreau Fischer Costa Weber Visser Nowak Martin Ferreira Berg".split()
WORDS = ("the of and to in is for on with as by at from that this be are was it an or not "
         "signature signed date name address invoice total amount page contract agreement "
         "Unterschrift Datum Firma Assinatura Handtekening Signé Montant Betrag Rechnung "
         "approved received payment notes call back meeting tomorrow please thanks ok").split()


def _fonts():
    out = []
    for d in PRINT_DIRS:
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith((".ttf", ".otf")) and not any(s in f for s in ("Math", "Symbol", "D050000L", "Z003")):
                out.append(os.path.join(d, f))
    return out


PRINT_FONTS = _fonts()
HAND_FONTS = [f for f in HAND_FONTS if os.path.exists(f)]
SCRIPT_PRINT = [f for f in SCRIPT_PRINT if os.path.exists(f)]
_font_cache = {}


def font(path, size):
    k = (path, size)
    if k not in _font_cache:
        _font_cache[k] = ImageFont.truetype(path, size)
    return _font_cache[k]


def catmull(pts, n=8):
    """Points on a Catmull-Rom spline through pts."""
    pts = [pts[0]] + pts + [pts[-1]]
    out = []
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = (np.array(p) for p in pts[i - 1:i + 3])
        for t in np.linspace(0, 1, n, endpoint=False):
            t2, t3 = t * t, t * t * t
            out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 + (-p0 + 3 * p1 - 3 * p2 + p3) * t3))
    out.append(np.array(pts[-2]))
    return out


def word_points(rng, x, xh):
    """Control points of one cursive word from x, baseline 0, x-height xh."""
    pts = [(x, rng.uniform(-0.3, 0.1) * xh)]
    n = rng.randint(2, 10)
    for _ in range(n):
        r = rng.random()
        adv = rng.uniform(0.25, 0.7) * xh
        if r < 0.15:  # ascender loop
            pts += [(x + adv * 0.6, -rng.uniform(1.6, 2.6) * xh), (x + adv * 0.2, -rng.uniform(1.2, 2.0) * xh), (x + adv, 0)]
        elif r < 0.25:  # descender loop
            pts += [(x + adv * 0.5, rng.uniform(0.8, 1.4) * xh), (x + adv * 0.1, rng.uniform(0.4, 1.0) * xh), (x + adv, 0)]
        elif r < 0.45:  # small loop (o, a, e)
            pts += [(x + adv, -xh), (x + adv * 0.3, -xh * 0.5), (x + adv * 0.8, 0)]
        else:  # arch or wave
            pts += [(x + adv * 0.5, -xh * rng.uniform(0.7, 1.1)), (x + adv, rng.uniform(-0.1, 0.1) * xh)]
        x += adv
    return pts, x


def pen_image(rng):
    """A handwritten signature, initials, note or scribble drawn with a pen."""
    xh = rng.uniform(6, 26)
    kind = rng.choices(["sig", "initials", "note", "scribble"], [5, 2, 3, 1])[0]
    strokes = []
    x = 0.0
    if kind == "scribble":
        p = [(0.0, 0.0)]
        for _ in range(rng.randint(6, 30)):
            p.append((p[-1][0] + rng.uniform(-0.5, 1.5) * xh, rng.uniform(-2, 1.2) * xh))
        strokes.append(p)
    elif kind == "initials":
        for _ in range(rng.randint(1, 3)):
            cx = x + xh
            big = rng.uniform(1.8, 3.0) * xh
            p = [(cx + big * 0.4 * math.cos(a), -big * 0.5 + big * 0.5 * math.sin(a)) for a in np.linspace(rng.uniform(0, 6), rng.uniform(7, 12), rng.randint(4, 9))]
            strokes.append(p)
            if rng.random() < 0.5:
                strokes.append([(cx + big * 0.5, -0.05 * xh), (cx + big * 0.5 + 1, 0.05 * xh)])  # dot
            x += big * rng.uniform(0.8, 1.3)
    else:
        words = rng.randint(1, 3) if kind == "sig" else rng.randint(2, 6)
        lines = 1 if kind == "sig" else rng.choice([1, 1, 2, 3])
        y0 = 0.0
        for li in range(lines):
            x = rng.uniform(0, 2) * xh
            for w in range(words):
                pts = []
                if rng.random() < 0.6:  # a capital
                    big = rng.uniform(1.8, 3.2) * xh
                    pts += [(x, 0), (x + 0.2 * big, -big), (x + 0.5 * big, -big * rng.uniform(0.6, 1.1)), (x + 0.3 * big, -0.3 * big), (x + 0.6 * big, 0)]
                    x += 0.6 * big
                wp, x = word_points(rng, x, xh)
                pts += wp
                strokes.append([(px, py + y0) for px, py in pts])
                x += rng.uniform(0.6, 1.5) * xh
            if kind == "sig" and rng.random() < 0.5:  # a flourish under the name
                strokes.append([(x, 0.2 * xh), (x * 0.6, rng.uniform(0.5, 1.2) * xh), (rng.uniform(-0.2, 0.3) * x, rng.uniform(0.3, 1.0) * xh)])
            y0 += rng.uniform(3, 4) * xh
    return _pen_render(rng, strokes, xh)


def _pen_render(rng, strokes, xh):
    """Draws strokes (lists of control points) as a pen does: slanted,
    Catmull-Rom splines, pressure-varying width; returns the ink mask."""
    slant = math.tan(math.radians(rng.uniform(-10, 40)))
    wmax = max(1.0, xh * rng.uniform(0.06, 0.2))
    allp = []
    curves = []
    for s in strokes:
        if len(s) < 2:
            continue
        c = catmull([(px - py * slant, py) for px, py in s], n=10)
        curves.append(c)
        allp += c
    a = np.array(allp)
    mn = a.min(0) - 2 * wmax - 4
    size = (a.max(0) - mn + 2 * wmax + 4)
    S = 2  # drawn at twice the size, then reduced: smooth edges
    W, H = int(size[0] * S) + 1, int(size[1] * S) + 1
    if W * H > 4_000_000:
        return None
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    ph = rng.uniform(0, 6)
    for c in curves:
        for i in range(len(c) - 1):
            t = i / len(c)
            w = wmax * (0.55 + 0.45 * math.sin(ph + t * rng.uniform(3, 9))) * rng.uniform(0.85, 1.0)
            p0 = ((c[i] - mn) * S).tolist()
            p1 = ((c[i + 1] - mn) * S).tolist()
            d.line([tuple(p0), tuple(p1)], fill=255, width=max(1, int(round(w * S))))
            r = w * S / 2
            d.ellipse([p1[0] - r, p1[1] - r, p1[0] + r, p1[1] + r], fill=255)
    img = img.resize((max(1, W // S), max(1, H // S)), Image.BOX)
    return img  # ink mask, 255 = ink


# LOOPS (gen.py --loops): the share of positives that are loop_image's
# small looped cursive: "eeee"-like words and handwritten dates and
# numbers, as a form's date box holds them, often blurred.
LOOPS = 0.0


def _digit(rng, x, xh):
    """Control points of one handwritten digit from x (baseline 0, the
    digit's height about twice the x-height), and its advance."""
    h = xh * rng.uniform(1.5, 2.3)
    w = h * rng.uniform(0.45, 0.7)
    shapes = {
        "0": [(0.5, -1), (0.1, -0.7), (0.15, -0.1), (0.55, 0), (0.9, -0.4), (0.75, -0.95), (0.45, -1)],
        "1": [(0.15, -0.8), (0.55, -1), (0.45, 0)],
        "2": [(0.05, -0.75), (0.45, -1), (0.85, -0.75), (0.05, 0), (0.95, 0.02)],
        "3": [(0.05, -0.85), (0.5, -1), (0.8, -0.75), (0.3, -0.5), (0.85, -0.25), (0.45, 0), (0.0, -0.1)],
        "4": [(0.6, -1), (0.05, -0.35), (0.95, -0.35)],
        "5": [(0.9, -1), (0.2, -1), (0.15, -0.55), (0.75, -0.5), (0.8, -0.1), (0.3, 0), (0.05, -0.1)],
        "6": [(0.8, -1), (0.2, -0.6), (0.1, -0.15), (0.45, 0), (0.8, -0.25), (0.45, -0.5), (0.1, -0.3)],
        "7": [(0.05, -1), (0.95, -1), (0.35, 0)],
        "8": [(0.5, -0.5), (0.1, -0.75), (0.5, -1), (0.85, -0.75), (0.1, -0.25), (0.5, 0), (0.9, -0.25), (0.5, -0.5)],
        "9": [(0.85, -0.65), (0.5, -1), (0.1, -0.75), (0.45, -0.5), (0.85, -0.75), (0.7, -0.3), (0.55, 0)],
    }
    pts = [(x + (px + rng.uniform(-0.08, 0.08)) * w, (py + rng.uniform(-0.06, 0.06)) * h) for px, py in shapes[rng.choice("0123456789")]]
    return pts, w * rng.uniform(1.05, 1.4)


def loop_image(rng):
    """Small looped cursive: a word of mostly looped letters (e, l, b, h:
    an "eeee"-like chain, the loops' heights and widths wandering), or a
    date or a number written by hand (digits, joined or not, dots or
    slashes between groups), at the x-heights of a form's box, blurred
    as a scan of small writing is."""
    xh = rng.uniform(6, 16)
    strokes = []
    x = 0.0
    if rng.random() < 0.75:
        for _ in range(rng.choice([1, 1, 1, 2])):
            pts = [(x, rng.uniform(-0.3, 0.1) * xh)]
            # a hand's rhythm: one loop height, advance, share of loops and
            # of tall ones a word, each letter near them (a run of e's and
            # l's is regular)
            lh, la, lp, lt = xh * rng.uniform(0.7, 1.2), xh * rng.uniform(0.3, 0.8), rng.uniform(0.5, 1.0), rng.uniform(0.0, 0.5)
            for _ in range(rng.randint(3, 16)):
                adv = la * rng.uniform(0.85, 1.15)
                r = rng.random()
                if r < lp * (1 - lt):  # e-like loop
                    h = lh * rng.uniform(0.9, 1.1)
                    pts += [(x + adv * rng.uniform(0.8, 1.1), -h), (x + adv * rng.uniform(0.2, 0.45), -h * rng.uniform(0.4, 0.6)), (x + adv * rng.uniform(0.7, 0.9), 0)]
                elif r < lp:  # l-like tall loop
                    h = xh * rng.uniform(1.5, 2.6)
                    pts += [(x + adv * 0.7, -h), (x + adv * 0.2, -h * rng.uniform(0.5, 0.8)), (x + adv, 0)]
                else:  # an arch
                    pts += [(x + adv * 0.5, -xh * rng.uniform(0.7, 1.1)), (x + adv, 0)]
                x += adv
            strokes.append(pts)
            x += rng.uniform(0.8, 1.6) * xh
    else:
        groups = rng.randint(1, 3)
        sep = rng.choice([".", "/", "-", " "])
        for g in range(groups):
            joined = rng.random() < 0.4
            run = []
            for _ in range(rng.randint(1, 4)):
                pts, adv = _digit(rng, x, xh)
                if joined:
                    run += pts
                else:
                    strokes.append(pts)
                x += adv
            if run:
                strokes.append(run)
            if g < groups - 1:
                if sep == ".":
                    strokes.append([(x, -0.05 * xh), (x + 0.15 * xh, 0.0)])
                elif sep == "/":
                    strokes.append([(x, 0.1 * xh), (x + 0.8 * xh, -2.0 * xh)])
                elif sep == "-":
                    strokes.append([(x, -0.8 * xh), (x + 0.7 * xh, -0.85 * xh)])
                x += rng.uniform(0.6, 1.2) * xh
    img = _pen_render(rng, strokes, xh)
    if img is not None and rng.random() < 0.3:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.5)))
    return img


def text_mask(rng, path, size, text, jitter=0.0):
    f = font(path, size)
    if jitter <= 0:
        l, t, r, b = f.getbbox(text)
        img = Image.new("L", (r - l + 8, b - t + 8), 0)
        ImageDraw.Draw(img).text((4 - l, 4 - t), text, font=f, fill=255)
        return img
    # per-letter jitter: baseline, size and angle wander as a hand's do
    w = int(f.getlength(text) * 1.3) + size * 2
    img = Image.new("L", (w, size * 3), 0)
    x = size * 0.5
    for ch in text:
        s = max(6, int(size * rng.uniform(1 - jitter, 1 + jitter)))
        g = font(path, s)
        gl = g.getlength(ch)
        if ch != " ":
            gi = Image.new("L", (int(gl) + s, s * 2), 0)
            ImageDraw.Draw(gi).text((s // 2, s // 3), ch, font=g, fill=255)
            gi = gi.rotate(rng.uniform(-12, 12) * jitter * 5, resample=Image.BILINEAR)
            img.paste(gi, (int(x - s // 2), int(size * 0.6 + rng.uniform(-0.15, 0.15) * size * jitter * 5)), gi)
        x += gl * rng.uniform(0.85, 1.05)
    return img


def name(rng):
    n = rng.choice(FIRST) + " " + rng.choice(LAST)
    return rng.choice([n, n.split()[1], rng.choice(FIRST)[0] + ". " + n.split()[1], n.lower()])


def hand_font_image(rng):
    path = rng.choice(HAND_FONTS)
    text = name(rng) if rng.random() < 0.6 else " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
    img = text_mask(rng, path, rng.randint(14, 60), text, jitter=rng.uniform(0.04, 0.15))
    ang = rng.uniform(-8, 8)
    return img.rotate(ang, expand=True, resample=Image.BILINEAR)


def print_image(rng):
    kind = rng.choices(["text", "script", "lines"], [6, 2, 2])[0]
    if kind == "script" and SCRIPT_PRINT:
        path = rng.choice(SCRIPT_PRINT)
        text = rng.choice([name(rng), rng.choice(LAST) + " & " + rng.choice(LAST), rng.choice(LAST) + " " + rng.choice(["GmbH", "Ltd", "B.V.", "S.A.", "Consulting", "Legal"])])
        return text_mask(rng, path, rng.randint(14, 70), text)
    path = rng.choice(PRINT_FONTS)
    size = rng.randint(9, 48)
    if kind == "text":
        text = " ".join(rng.choice(WORDS + FIRST + LAST + ["2024", "12.50", "No.", "€ 1.240,00", "+31 20 555 0100"]) for _ in range(rng.randint(1, 7)))
        if rng.random() < 0.2:
            text = text.upper()
        return text_mask(rng, path, size, text)
    # several lines of print
    lines = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 8))) for _ in range(rng.randint(2, 4))]
    f = font(path, max(9, size // 2))
    wd = int(max(f.getlength(l) for l in lines)) + 10
    lh = int(f.size * rng.uniform(1.1, 1.6))
    img = Image.new("L", (wd, lh * len(lines) + 10), 0)
    d = ImageDraw.Draw(img)
    for i, l in enumerate(lines):
        d.text((4, 4 + i * lh), l, font=f, fill=255)
    return img


def shapes_image(rng):
    """Rules, grids, boxes, logos, stamps, charts, codes, marks."""
    kind = rng.choice(["rule", "grid", "box", "logo", "stamp", "chart", "code", "check", "arrow", "specks", "halftone",
                       "hatch", "hatch", "corner", "dashes", "glyph", "glyph", "cutprint"])
    W, H = rng.randint(30, 400), rng.randint(20, 200)
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    lw = rng.randint(1, 4)
    if kind == "rule":
        img = Image.new("L", (W, lw + 6), 0)
        ImageDraw.Draw(img).line([(2, 3), (W - 2, 3)], fill=255, width=lw)
    elif kind == "grid":
        cols, rows = rng.randint(1, 6), rng.randint(1, 5)
        for i in range(cols + 1):
            d.line([(i * (W - 1) / cols, 0), (i * (W - 1) / cols, H)], fill=255, width=1)
        for j in range(rows + 1):
            d.line([(0, j * (H - 1) / rows), (W, j * (H - 1) / rows)], fill=255, width=1)
        if rng.random() < 0.6 and PRINT_FONTS:
            f = font(rng.choice(PRINT_FONTS), max(8, int(H / rows * 0.5)))
            for j in range(rows):
                d.text((3, j * H / rows + 2), rng.choice(WORDS), font=f, fill=255)
    elif kind == "box":
        d.rectangle([1, 1, W - 2, H - 2], outline=255, width=lw)
        if rng.random() < 0.5:
            f = font(rng.choice(PRINT_FONTS), rng.randint(8, 16))
            d.text((4, 3), rng.choice(["Signature", "Date", "Name", "Unterschrift", "Firma"]), font=f, fill=255)
    elif kind == "logo":
        s = min(W, H)
        for _ in range(rng.randint(1, 4)):
            x0, y0 = rng.uniform(0, s / 2), rng.uniform(0, s / 2)
            bb = [x0, y0, x0 + rng.uniform(s / 4, s / 2), y0 + rng.uniform(s / 4, s / 2)]
            if rng.random() < 0.5:
                d.ellipse(bb, fill=255 if rng.random() < 0.5 else None, outline=255, width=lw)
            else:
                d.polygon([(rng.uniform(0, s), rng.uniform(0, s)) for _ in range(rng.randint(3, 6))], fill=255)
        f = font(rng.choice(PRINT_FONTS), rng.randint(12, 36))
        d.text((s + 4, H / 3), rng.choice(LAST).upper(), font=f, fill=255)
    elif kind == "stamp":
        s = min(W, H, 160)
        img = Image.new("L", (s + 8, s + 8), 0)
        d = ImageDraw.Draw(img)
        d.ellipse([2, 2, s, s], outline=255, width=lw)
        if rng.random() < 0.6:
            d.ellipse([2 + s / 8, 2 + s / 8, s - s / 8, s - s / 8], outline=255, width=1)
        f = font(rng.choice(PRINT_FONTS), max(8, s // 7))
        d.text((s / 4, s / 2 - s / 14), rng.choice(["PAID", "RECEIVED", "APPROVED", "BEZAHLT", "COPY"]), font=f, fill=255)
        img = img.rotate(rng.uniform(-30, 30), expand=True)
    elif kind == "chart":
        d.line([(2, 2), (2, H - 2), (W - 2, H - 2)], fill=255, width=1)
        if rng.random() < 0.5:
            n = rng.randint(3, 12)
            for i in range(n):
                x = 4 + i * (W - 8) / n
                d.rectangle([x, rng.uniform(4, H - 6), x + (W - 8) / n * 0.6, H - 3], fill=255)
        else:
            pts = [(4 + i * (W - 8) / 12, rng.uniform(4, H - 6)) for i in range(13)]
            d.line(pts, fill=255, width=lw)
    elif kind == "code":
        m = rng.randint(2, 4)
        if rng.random() < 0.5:
            n = rng.randint(15, 35)
            img = Image.fromarray((np.kron(np.random.RandomState(rng.randint(0, 1 << 30)).rand(n, n) < 0.5, np.ones((m, m))) * 255).astype(np.uint8))
        else:
            bars = np.random.RandomState(rng.randint(0, 1 << 30)).rand(rng.randint(40, 120)) < 0.5
            img = Image.fromarray((np.tile(np.repeat(bars, m)[None, :], (rng.randint(20, 80), 1)) * 255).astype(np.uint8))
    elif kind == "check":
        s = rng.randint(10, 30)
        img = Image.new("L", (s * rng.randint(1, 6) + 4, s + 4), 0)
        d = ImageDraw.Draw(img)
        for i in range(img.width // s):
            d.rectangle([2 + i * s, 2, i * s + s - 2, s], outline=255, width=1)
            if rng.random() < 0.4:
                d.line([(4 + i * s, 4), (i * s + s - 4, s - 2)], fill=255, width=2)
    elif kind == "arrow":
        d.line([(4, H / 2), (W - 8, H / 2)], fill=255, width=lw)
        d.polygon([(W - 2, H / 2), (W - 14, H / 2 - 8), (W - 14, H / 2 + 8)], fill=255)
    elif kind == "specks":
        a = np.random.RandomState(rng.randint(0, 1 << 30)).rand(H, W) < rng.uniform(0.002, 0.03)
        img = Image.fromarray((a * 255).astype(np.uint8)).filter(ImageFilter.MaxFilter(3))
    elif kind == "hatch":  # a form's hatched (not to be filled) area
        sp = rng.randint(4, 12)
        for k in range(-H, W, sp):
            d.line([(k, H), (k + H, 0)] if rng.random() < 0.7 else [(k, 0), (k + H, H)], fill=255, width=1)
        if rng.random() < 0.6:
            d.rectangle([0, 0, W - 1, H - 1], outline=255, width=1)
    elif kind == "corner":  # pieces of frames, crossed and partial boxes
        for _ in range(rng.randint(1, 4)):
            x, y = rng.uniform(0, W), rng.uniform(0, H)
            d.line([(x, 0), (x, y), (W, y)] if rng.random() < 0.5 else [(0, y), (x, y), (x, H)], fill=255, width=lw)
        if rng.random() < 0.4:
            s = min(W, H) - 4
            d.rectangle([2, 2, s, s], outline=255, width=1)
            d.line([(2, 2), (s, s)], fill=255, width=lw)
            d.line([(2, s), (s, 2)], fill=255, width=lw)
    elif kind == "dashes":
        y = H // 2
        step = rng.randint(3, 12)
        for x in range(0, W, step):
            d.line([(x, y), (x + step // 2, y)], fill=255, width=lw)
        if rng.random() < 0.5:
            d.rectangle([0, 0, W - 1, H - 1], outline=255, width=1)
    elif kind == "glyph":  # one large printed glyph or two
        f = font(rng.choice(PRINT_FONTS + SCRIPT_PRINT), rng.randint(24, 90))
        t = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789&@%$€()?!#*+") for _ in range(rng.randint(1, 2)))
        l, tp, r, b = f.getbbox(t)
        img = Image.new("L", (r - l + 8, b - tp + 8), 0)
        ImageDraw.Draw(img).text((4 - l, 4 - tp), t, font=f, fill=255)
    elif kind == "cutprint":  # print cut at a box's edge: parts of letters
        m = print_image(rng)
        a = np.asarray(m)
        h, w = a.shape
        y0, y1 = rng.randint(0, h // 3), rng.randint(2 * h // 3, h)
        x0 = rng.randint(0, max(1, w // 2))
        img = Image.fromarray(np.ascontiguousarray(a[y0:y1, x0:]))
    elif kind == "halftone":
        a = np.random.RandomState(rng.randint(0, 1 << 30)).rand(H // 4 + 1, W // 4 + 1)
        a = np.array(Image.fromarray((a * 255).astype(np.uint8)).resize((W, H), Image.BICUBIC))
        img = Image.fromarray(a)
    return img


def _curl(rng, n=None):
    """Control points of a scroll: a wave ending in a spiral curl."""
    n = n or rng.randint(1, 3)
    pts = [(0.0, 0.0)]
    x = 0.0
    for _ in range(n):
        x += rng.uniform(0.6, 1.4)
        pts.append((x, rng.uniform(-0.6, 0.6)))
    r0 = rng.uniform(0.3, 0.7)
    a0 = rng.uniform(0, 2 * math.pi)
    sgn = rng.choice([-1, 1])
    for k in range(rng.randint(6, 12)):
        a = a0 + sgn * k * 0.8
        r = r0 * (1 - k / 14)
        pts.append((x + r * math.cos(a), r * math.sin(a)))
    return pts


def _draw_curves(curves, scale, wmin, wmax, rng):
    """Draws the curves (lists of (x, y) in units) with a broad pen of
    fixed angle, as an engraved or typeset ornament is drawn."""
    allp = np.array([p for c in curves for p in c])
    mn = allp.min(0)
    size = allp.max(0) - mn
    S = 2
    pad = wmax * 2 + 4
    W, H = int((size[0] * scale + 2 * pad) * S) + 1, int((size[1] * scale + 2 * pad) * S) + 1
    if W * H > 4_000_000 or W < 4 or H < 4:
        return None
    img = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(img)
    ang = rng.uniform(0, math.pi)
    for c in curves:
        c = catmull([((px - mn[0]) * scale + pad, (py - mn[1]) * scale + pad) for px, py in c], n=10)
        for i in range(len(c) - 1):
            p0, p1 = c[i] * S, c[i + 1] * S
            dx, dy = p1 - p0
            t = abs(math.sin(math.atan2(dy, dx) - ang))
            w = (wmin + (wmax - wmin) * t) * S
            d.line([tuple(p0), tuple(p1)], fill=255, width=max(1, int(round(w))))
            r = w / 2
            d.ellipse([p1[0] - r, p1[1] - r, p1[0] + r, p1[1] + r], fill=255)
    return img.resize((max(1, W // S), max(1, H // S)), Image.BOX)


def ornament_image(rng):
    """A printed ornament: a divider of two scrolls mirrored about its
    middle, a border of one motif repeated, a fleuron (petals turned about
    a centre) or a corner piece mirrored about its diagonal."""
    kind = rng.choice(["divider", "border", "fleuron", "corner"])
    scale = rng.uniform(6, 30)
    wmin, wmax = rng.uniform(0.6, 1.5), rng.uniform(1.5, 5)
    curves = []
    if kind == "divider":
        c = _curl(rng)
        extra = [_curl(rng, 1)] if rng.random() < 0.5 else []
        for cc in [c] + extra:
            cc = [(px + 0.3, py) for px, py in cc]
            curves += [cc, [(-px, py) for px, py in cc]]
        if rng.random() < 0.5:  # a dot or a lozenge in the middle
            curves.append([(0, -0.15), (0.15, 0), (0, 0.15), (-0.15, 0), (0, -0.15)])
    elif kind == "border":
        c = _curl(rng, 1)
        n = rng.randint(3, 8)
        step = max(px for px, _ in c) - min(px for px, _ in c) + rng.uniform(0.1, 0.6)
        for k in range(n):
            curves.append([(px + k * step, py) for px, py in c])
    elif kind == "fleuron":
        n = rng.choice([3, 4, 5, 6, 8])
        petal = [(0.0, 0.0), (0.4, rng.uniform(0.2, 0.5)), (1.0, 0.0), (0.4, -rng.uniform(0.2, 0.5)), (0.0, 0.0)]
        for k in range(n):
            a = 2 * math.pi * k / n
            curves.append([(px * math.cos(a) - py * math.sin(a), px * math.sin(a) + py * math.cos(a)) for px, py in petal])
    else:
        c = _curl(rng)
        curves += [c, [(py, px) for px, py in c]]
    img = _draw_curves(curves, scale, wmin, wmax, rng)
    if img is not None and rng.random() < 0.3:
        img = img.rotate(rng.choice([90, 180, 270]), expand=True)
    return img


def with_caption(rng, m):
    """Handwriting with a small printed caption above or beside it, as a
    form's box or a signature line shows one that OCR did not read."""
    path = rng.choice(PRINT_FONTS)
    c = text_mask(rng, path, rng.randint(8, 14), rng.choice(["Signature", "Signature of the applicant", "Date", "Name", "Unterschrift", "Firma", "Initials", "Signed"]))
    if rng.random() < 0.6:  # above, left-aligned
        W, H = max(m.width, c.width), m.height + c.height + rng.randint(0, 6)
        out = Image.new("L", (W, H), 0)
        out.paste(c, (0, 0))
        out.paste(m, (rng.randint(0, max(0, W - m.width)), H - m.height), m)
    else:  # to the left, on the line
        W, H = m.width + c.width + rng.randint(2, 12), max(m.height, c.height)
        out = Image.new("L", (W, H), 0)
        out.paste(c, (0, H - c.height - rng.randint(0, max(0, H // 4))))
        out.paste(m, (W - m.width, 0), m)
    return out


def on_paper(rng, mask, extra=None):
    """Puts an ink mask on clean or scanned paper; returns gray uint8."""
    pad = rng.randint(4, 30)
    W, H = mask.width + 2 * pad, mask.height + 2 * pad
    paper = rng.choice([255, 255, rng.randint(215, 255)])
    ink = rng.choice([rng.randint(0, 60), rng.randint(0, 60), rng.randint(60, 150)])
    a = np.full((H, W), paper, np.float32)
    m = np.zeros((H, W), np.float32)
    m[pad:pad + mask.height, pad:pad + mask.width] = np.asarray(mask, np.float32) / 255
    if extra is not None:  # a rule under or through the ink, a printed label beside it
        m = np.maximum(m, extra(rng, W, H, pad))
    a = a * (1 - m) + ink * m
    if rng.random() < 0.5:
        a += np.random.RandomState(rng.randint(0, 1 << 30)).normal(0, rng.uniform(2, 14), a.shape)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    if rng.random() < 0.3:
        img = img.rotate(rng.uniform(-4, 4), fillcolor=paper, resample=Image.BILINEAR)
    if rng.random() < 0.4:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    s = rng.choice([1, 1, 1, rng.uniform(0.5, 1.5)])  # other resolutions
    if s != 1:
        img = img.resize((max(8, int(img.width * s)), max(8, int(img.height * s))), Image.BILINEAR)
    if rng.random() < 0.15:
        img = img.point(lambda v: 0 if v < rng.randint(110, 180) else 255)
    if rng.random() < 0.3:
        b = io.BytesIO()
        img.save(b, "JPEG", quality=rng.randint(25, 85))
        img = Image.open(io.BytesIO(b.getvalue())).convert("L")
    return np.asarray(img)


CAPTION_BITS = ["Signature of the applicant", "Signature", "Signed", "of", "the", "of the", "Init", "Initials", "Date",
                "Name", "Full name", "Sig", "nature", "applicant", "Unterschrift", "Firma", "Datum", "Handtekening", "Assinatura"]


def in_form_box(rng, m):
    """m (ink mask) in a form's box as a candidate on a scanned form is
    cut: a small printed caption (or a fragment OCR did not read) above
    it or at its left, often touching it, the box's top rule just above
    the caption and sometimes a side of the box at the crop's edge. The
    crop stays the ink's box (the rules are not grouped, only seen)."""
    path = rng.choice(PRINT_FONTS)
    c = text_mask(rng, path, rng.randint(7, 14), rng.choice(CAPTION_BITS)) if rng.random() < 0.85 else None
    gap_r = rng.randint(1, 5)  # rule above the caption's (or the ink's) top
    W = max(m.width, c.width if c else 0) + rng.randint(0, 10)
    ch = c.height if c else 0
    over = rng.randint(0, max(1, ch // 2)) if c else 0  # the ink reaching up into the caption's line
    H = gap_r + 2 + ch - over + m.height
    out = Image.new("L", (W, max(H, m.height) + 2), 0)
    a = np.zeros((out.height, out.width), np.uint8)
    if rng.random() < 0.8:  # the top rule
        t = rng.randint(1, 2)
        a[0:t, :] = 255
    top = gap_r + 2
    if c is not None:
        cx = 0 if rng.random() < 0.6 else rng.randint(0, max(0, W - c.width))
        ca = np.asarray(c)
        a[top:top + c.height, cx:cx + c.width] = np.maximum(a[top:top + c.height, cx:cx + c.width], ca[:, :min(c.width, W - cx)])
    my = top + ch - over
    mx = rng.randint(0, max(0, W - m.width))
    ma = np.asarray(m)
    hh = min(m.height, a.shape[0] - my)
    a[my:my + hh, mx:mx + m.width] = np.maximum(a[my:my + hh, mx:mx + m.width], ma[:hh])
    if rng.random() < 0.3:  # a side of the box
        t = rng.randint(1, 2)
        if rng.random() < 0.5:
            a[:, :t] = 255
        else:
            a[:, -t:] = 255
    return Image.fromarray(a)


def scan_paper(rng, mask, extra=None):
    """Puts an ink mask on scanned paper, as a scanner at 100-300 dpi
    leaves it: gray or white paper, toner from black to faint, a blur
    across, grain, specks, sometimes a toner streak, skew, JPEG or
    binarisation; returns gray uint8."""
    pad = rng.randint(4, 30)
    W, H = mask.width + 2 * pad, mask.height + 2 * pad
    paper = rng.choice([255, rng.randint(215, 250), rng.randint(215, 250)])
    ink = rng.choice([rng.randint(0, 60), rng.randint(0, 60), rng.randint(60, 140)])
    a = np.full((H, W), paper, np.float32)
    m = np.zeros((H, W), np.float32)
    m[pad:pad + mask.height, pad:pad + mask.width] = np.asarray(mask, np.float32) / 255
    if extra is not None:
        m = np.maximum(m, extra(rng, W, H, pad))
    a = a * (1 - m) + ink * m
    st = np.random.RandomState(rng.randint(0, 1 << 30))
    if rng.random() < 0.2:  # a toner streak
        if rng.random() < 0.5:
            x = rng.randint(0, W - 1)
            a[:, x:x + rng.randint(1, 4)] -= rng.uniform(20, 90)
        else:
            y = rng.randint(0, H - 1)
            a[y:y + rng.randint(1, 3), :] -= rng.uniform(20, 90)
    if rng.random() < 0.6:  # the scanner's blur across (3 taps)
        a[:, 1:-1] = 0.25 * a[:, :-2] + 0.5 * a[:, 1:-1] + 0.25 * a[:, 2:]
    a = a * rng.uniform(0.9, 1.0) + st.normal(0, rng.uniform(3, 12), a.shape)
    sp = st.random_sample(a.shape) < rng.uniform(0, 0.001)
    a[sp] = rng.randint(20, 80)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    if rng.random() < 0.4:
        img = img.rotate(rng.uniform(-2.5, 2.5), fillcolor=int(paper), resample=Image.BILINEAR)
    if rng.random() < 0.3:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.9)))
    s = rng.choice([1, 1, rng.uniform(0.6, 1.3)])
    if s != 1:
        img = img.resize((max(8, int(img.width * s)), max(8, int(img.height * s))), Image.BILINEAR)
    if rng.random() < 0.1:
        img = img.point(lambda v: 0 if v < rng.randint(110, 180) else 255)
    elif rng.random() < 0.35:
        b = io.BytesIO()
        img.save(b, "JPEG", quality=rng.randint(20, 80))
        img = Image.open(io.BytesIO(b.getvalue())).convert("L")
    return np.asarray(img)


def rule_under(rng, W, H, pad):
    m = np.zeros((H, W), np.float32)
    if rng.random() < 0.5:
        y = rng.randint(H // 2, H - 2)
        m[y:y + rng.randint(1, 3), :] = 1
    return m


# --- the cut, as engine/visual/hand.go makes it -----------------------------

def stretch(g):
    """Contrast stretch: paper (the 75th percentile) to 0, ink (the 2nd
    percentile, at least 48 under paper) to 1."""
    h = np.bincount(g.ravel(), minlength=256)
    c = np.cumsum(h)
    n = c[-1]
    lo = int(np.searchsorted(c, 0.02 * n, side="right"))
    hi = int(np.searchsorted(c, 0.75 * n, side="right"))
    span = max(hi - lo, 48)
    return np.clip((hi - g.astype(np.float32)) / span, 0, 1)


def ink_box(g):
    f = stretch(g)
    ys, xs = np.nonzero(f > 0.5)
    if len(xs) == 0:
        return None
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def area_resize(f, w, h):
    return np.asarray(Image.fromarray(f).resize((w, h), Image.BOX), np.float32)


def patches(f):
    """Cuts a stretched crop (ink = 1) into PH x PW patches: scaled to PH
    high (or PW wide), centred; a crop longer than PW/PH its height is cut
    into windows of that aspect, overlapping by half."""
    h, w = f.shape
    out = []
    win = h * PW // PH
    if w <= win:
        wins = [(0, w)]
    else:
        step = max(1, win // 2)
        wins = [(o, o + win) for o in range(0, w - win, step)] + [(w - win, w)]
    for x0, x1 in wins:
        c = f[:, x0:x1]
        ch, cw = c.shape
        s = min(PH / ch, PW / cw)
        nw, nh = max(1, int(round(cw * s))), max(1, int(round(ch * s)))
        r = area_resize(c, nw, nh)
        p = np.zeros((PH, PW), np.float32)
        oy, ox = (PH - nh) // 2, (PW - nw) // 2
        p[oy:oy + nh, ox:ox + nw] = r
        out.append(p)
    return out


def cut(g, rng):
    """The candidate's crop: the ink's box with a margin of a tenth of its
    height (at least 2 px), as hand.go cuts it; one window of it."""
    b = ink_box(g)
    if b is None:
        return None
    x0, y0, x1, y1 = b
    m = max(2, (y1 - y0) // 10)
    x0, y0, x1, y1 = max(0, x0 - m), max(0, y0 - m), min(g.shape[1], x1 + m), min(g.shape[0], y1 + m)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    ps = patches(stretch(g[y0:y1, x0:x1]))
    return rng.choice(ps)


def sample(rng):
    """(patch, label): label 1 is handwriting."""
    while True:
        pos = rng.random() < 0.5
        if pos:
            if LOOPS and rng.random() < LOOPS:
                m = loop_image(rng)
            else:
                m = pen_image(rng) if rng.random() < 0.65 or not HAND_FONTS else hand_font_image(rng)
            extra = rule_under if rng.random() < 0.3 else None
            if m is not None and CAPTIONS and rng.random() < 0.2:
                m = with_caption(rng, m)
        elif ORNAMENTS and rng.random() < ORNAMENTS:
            m = ornament_image(rng)
            extra = None
        else:
            r = rng.random()
            m = print_image(rng) if r < 0.5 else shapes_image(rng)
            extra = rule_under if rng.random() < 0.15 else None
        if m is None or m.width < 4 or m.height < 4:
            continue
        if FORMS and rng.random() < FORMS:
            m = in_form_box(rng, m)
            extra = None
        if SCANNED and rng.random() < SCANNED:
            g = scan_paper(rng, m, extra)
        else:
            g = on_paper(rng, m, extra)
        p = cut(g, rng)
        if p is None:
            continue
        return p, int(pos)


def dataset(n, seed):
    rng = random.Random(seed)
    np.random.seed(seed)
    X = np.zeros((n, 1, PH, PW), np.float32)
    Y = np.zeros((n,), np.int64)
    for i in range(n):
        X[i, 0], Y[i] = sample(rng)
    return X, Y


def golden(outdir, n=4):
    """Writes n scanned samples (PNG), the ink box the cut starts from and
    the patches it makes (float32, little-endian) for engine/visual's
    TestPatchesMatchRecipe: the Go cut must match this one."""
    rng = random.Random(5)
    os.makedirs(outdir, exist_ok=True)
    k = 0
    boxes = []
    while k < n:
        m = pen_image(rng) if k % 2 == 0 else print_image(rng)
        if m is None:
            continue
        g = on_paper(rng, m)
        b = ink_box(g)
        if b is None:
            continue
        x0, y0, x1, y1 = (int(v) for v in b)
        mg = max(2, (y1 - y0) // 10)
        c = (max(0, x0 - mg), max(0, y0 - mg), min(g.shape[1], x1 + mg), min(g.shape[0], y1 + mg))
        ps = patches(stretch(g[c[1]:c[3], c[0]:c[2]]))
        Image.fromarray(g).save(os.path.join(outdir, f"g{k}.png"))
        np.stack(ps).astype("<f4").tofile(os.path.join(outdir, f"g{k}.bin"))
        boxes.append(f"g{k} {x0} {y0} {x1} {y1} {len(ps)}")
        k += 1
    open(os.path.join(outdir, "boxes.txt"), "w").write("\n".join(boxes) + "\n")


if __name__ == "__main__":
    import sys
    if len(sys.argv) > 2 and sys.argv[1] == "golden":
        golden(sys.argv[2])
        sys.exit(0)
    rng = random.Random(1)
    rows = []
    for i in range(48):
        p, y = sample(rng)
        p = (255 - p * 255).astype(np.uint8)
        if y:
            p[:, :2] = 0
        rows.append(p)
    sheet = np.vstack([np.hstack(rows[i:i + 4]) for i in range(0, 48, 4)])
    Image.fromarray(sheet).save(sys.argv[1] if len(sys.argv) > 1 else "/tmp/hand-sheet.png")
