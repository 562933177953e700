"""The pages of `make sweep` (docs/quality.md, "The sweep"): each family varies one thing of a plain page at a time.

A family is a name and a list of pages; each page is a `SweepPage` (its image, the truth lines in reading order, the
writing of its body, and the value varied). The base pages are drawn by typeset.py from corpus_text.py's text:
vertical pages are real tategaki (the font's own vertical forms), horizontal pages plain lines. Deterministic
(fixed seeds, the same fonts), so a page's name always means the same pixels.
"""
import io
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_text as T  # noqa: E402
import typeset as ts  # noqa: E402

WHITE = (255, 255, 255)
INK = (24, 24, 24)
# Vertical pages read classical and modern prose (with 、。 and some small kana); horizontal pages modern prose
# with digits and Latin.
VERTICAL_POOL = T.CLASSICAL + T.MODERN
HORIZONTAL_POOL = T.MODERN + T.MIXED


class SweepPage:
    """One page of the sweep: `image` (a PIL image, or `data`: the file's bytes with its extension `ext`)."""

    def __init__(self, family, value, image, lines, writing, ext="png", data=None):
        self.family, self.value, self.image, self.lines, self.writing = family, str(value), image, lines, writing
        self.ext, self.data = ext, data

    @property
    def name(self):
        safe = self.value.replace(" ", "").replace("/", "-").replace("°", "deg").replace("%", "pc")
        return f"{self.family.replace('/', '_')}__{safe}"

    def save(self, path):
        if self.data is not None:
            with open(path, "wb") as f:
                f.write(self.data)
        else:
            self.image.save(path, format="PNG")


# ---- base pages --------------------------------------------------------------------------------------------

def _text(pool, chars, start):
    """At least `chars` characters of `pool`'s sentences from `start`, wrapping around."""
    text, i = "", start
    while len(text) < chars:
        text += pool[i % len(pool)]
        i += 1
    return text


def vertical(columns=1, length=40, size=32, face="serif", margin=None, pitch=1.75, pool=VERTICAL_POOL, start=0,
             ink=INK, paper=WHITE):
    """`columns` columns of `length` characters (kinsoku may move one), right to left, real tategaki;
    `margin` (default one em, at least 24 px) around the block. Returns (image, lines)."""
    margin = max(24, size) if margin is None else margin
    lines = ts.wrap_count(_text(pool, columns * length + length, start), length)[:columns]
    step = int(round(pitch * size))
    w = 2 * margin + (columns - 1) * step + size
    h = 2 * margin + max(len(c) for c in lines) * size
    img = Image.new("RGB", (w, h), paper)
    ts.draw_columns(img, lines, ts.font(size, face, vertical_forms=True), w - margin, margin, step, ink,
                    vertical_forms=True)
    return img, lines


def horizontal(lines=5, chars=30, size=30, face="sans", margin=None, pitch=1.7, pool=HORIZONTAL_POOL, start=0,
               ink=INK, paper=WHITE):
    """`lines` lines about `chars` full-width characters wide; `margin` (default one em, at least 24 px)."""
    margin = max(24, size) if margin is None else margin
    f = ts.font(size, face)
    text = ts.wrap_width(_text(pool, (lines + 2) * chars * 2, start), f, chars * size)[:lines]
    w = 2 * margin + max(int(f.getlength(t)) + 1 for t in text)
    h = 2 * margin + int(round((lines - 1) * pitch * size)) + size
    img = Image.new("RGB", (w, h), paper)
    ts.draw_lines(ImageDraw.Draw(img), text, f, margin, margin, int(round(pitch * size)), ink)
    return img, text


def base(writing, **kw):
    return vertical(**kw) if writing == "vertical" else horizontal(**kw)


# ---- effects -----------------------------------------------------------------------------------------------

def tilted(img, degrees):
    """Turned `degrees` counter-clockwise (a scan's skew), bicubic, white fill."""
    return img.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=WHITE)


def jpeg_bytes(img, quality):
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=quality)
    return out.getvalue()


def salt_and_pepper(img, share, seed):
    a = np.asarray(img).copy()
    rng = np.random.default_rng(seed)
    hit = rng.random(a.shape[:2]) < share
    black = rng.random(a.shape[:2]) < 0.5
    a[hit & black] = 0
    a[hit & ~black] = 255
    return Image.fromarray(a)


def gaussian_noise(img, sigma, seed):
    a = np.asarray(img, dtype=np.float32)
    a = a + np.random.default_rng(seed).normal(0, sigma, a.shape[:2])[..., None]
    return Image.fromarray(np.clip(a, 0, 255).round().astype(np.uint8))


def recoloured(img, ink, paper):
    """The page with its ink set to grey `ink` and its paper to grey `paper` (coverage kept)."""
    grey = np.asarray(img.convert("L"), dtype=np.float32)
    coverage = np.clip((255 - grey) / (255 - INK[0]), 0, 1)
    a = paper + (ink - paper) * coverage
    return Image.fromarray(np.repeat(a.round().astype(np.uint8)[..., None], 3, axis=2))


def bordered(img, kind):
    """Dark borders as scans and photos have them: `gutter-left`/`gutter-right` (a book's gutter: a dark band
    fading into the page, 6 % of the width), `gutters` (both), `frame` (black all round, 4 %), `table` (the page on a
    dark table: 8 % all round)."""
    w, h = img.size
    if kind in ("frame", "table"):
        pad = int(round((0.04 if kind == "frame" else 0.08) * max(w, h)))
        out = Image.new("RGB", (w + 2 * pad, h + 2 * pad), (0, 0, 0) if kind == "frame" else (60, 52, 46))
        out.paste(img, (pad, pad))
        return out
    band = max(6, int(round(0.06 * w)))
    out = Image.new("RGB", (w + (2 if kind == "gutters" else 1) * band, h), WHITE)
    left = band if kind in ("gutter-left", "gutters") else 0
    out.paste(img, (left, 0))
    a = np.asarray(out, dtype=np.float32).copy()
    ramp = np.linspace(30, 255, band, dtype=np.float32)[:, None]       # dark at the page's edge, paper inward
    if kind in ("gutter-left", "gutters"):
        a[:, :band] = np.minimum(a[:, :band], ramp.T[..., None])
    if kind in ("gutter-right", "gutters"):
        a[:, -band:] = np.minimum(a[:, -band:], ramp[::-1].T[..., None])
    return Image.fromarray(a.round().astype(np.uint8))


def scaled(img, long_side):
    w, h = img.size
    k = long_side / max(w, h)
    return img.resize((max(1, round(w * k)), max(1, round(h * k))), Image.Resampling.LANCZOS)


def on_canvas(img, long_side, ratio=1.414, where=(0.1, 0.1)):
    """`img` placed on a white page whose long side is `long_side` (portrait, `ratio`), its top-left at `where`
    (shares of the page)."""
    h = long_side
    w = max(img.width + 1, int(round(long_side / ratio)))
    out = Image.new("RGB", (w, h), WHITE)
    out.paste(img, (min(w - img.width, int(where[0] * w)), min(h - img.height, int(where[1] * h))))
    return out


def with_page_number(img, lines, writing, number, where, size):
    """`img` with a page number (ノンブル, horizontal digits in the sans face) at `where`: `bottom-left`,
    `bottom-centre`, `bottom-right`, `top-left`, `top-right`, beyond the text block's margin. Its truth comes
    after the body (the page's text ends with its number)."""
    f = ts.font(size)
    w, h = img.size
    pad = 3 * size
    out = Image.new("RGB", (w, h + pad), WHITE)
    out.paste(img, (0, 0 if where.startswith("bottom") else pad))
    width = f.getlength(number)
    margin = max(8, size // 2)
    x = {"left": margin, "centre": (w - width) / 2, "right": w - margin - width}[where.split("-")[1]]
    y = h + pad - 2 * size if where.startswith("bottom") else size
    ts.draw_lines(ImageDraw.Draw(out), [number], f, x, y, size, INK)
    return out, lines + [number]


# ---- families ----------------------------------------------------------------------------------------------

def _page(family, value, img_lines, writing, **kw):
    img, lines = img_lines
    return SweepPage(family, value, img, lines, writing, **kw)


def tilt():
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40)), ("v80", "vertical", dict(length=80)),
                               ("v2x40", "vertical", dict(columns=2, length=40)), ("h", "horizontal", {})):
        img, lines = base(writing, **kw)
        for k in range(-12, 13):
            d = k / 2
            pages.append(SweepPage(f"tilt/{label}", f"{d:+.1f}°", tilted(img, d) if d else img, lines, writing))
    return pages


def jpeg():
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40)), ("v6", "vertical", dict(columns=6, length=30)),
                               ("h", "horizontal", {})):
        img, lines = base(writing, **kw)
        for q in range(10, 100, 10):
            pages.append(SweepPage(f"jpeg/{label}", f"q{q}", None, lines, writing, ext="jpg", data=jpeg_bytes(img, q)))
    return pages


def blur():
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40)), ("v6", "vertical", dict(columns=6, length=30)),
                               ("h", "horizontal", {})):
        img, lines = base(writing, **kw)
        for s in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0):
            pages.append(SweepPage(f"blur/{label}", f"sigma{s}", img.filter(ImageFilter.GaussianBlur(s)), lines, writing))
    return pages


def noise():
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40)), ("v6", "vertical", dict(columns=6, length=30)),
                               ("h", "horizontal", {})):
        img, lines = base(writing, **kw)
        for share in (0.01, 0.03, 0.05, 0.10):
            pages.append(SweepPage(f"noise/{label}", f"sp{int(share * 100)}%", salt_and_pepper(img, share, 7), lines, writing))
        for sigma in (8, 16, 32):
            pages.append(SweepPage(f"noise/{label}", f"gauss{sigma}", gaussian_noise(img, sigma, 7), lines, writing))
    return pages


def contrast():
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40)), ("v6", "vertical", dict(columns=6, length=30)),
                               ("h", "horizontal", {})):
        img, lines = base(writing, **kw)
        for ink, paper in ((100, 160), (140, 160), (60, 120), (0, 90), (170, 255), (200, 255)):
            pages.append(SweepPage(f"contrast/{label}", f"{ink}on{paper}", recoloured(img, ink, paper), lines, writing))
    return pages


def borders():
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40)), ("v6", "vertical", dict(columns=6, length=30)),
                               ("h", "horizontal", {})):
        img, lines = base(writing, **kw)
        for kind in ("gutter-left", "gutter-right", "gutters", "frame", "table"):
            pages.append(SweepPage(f"borders/{label}", kind, bordered(img, kind), lines, writing))
    return pages


def font_size():
    pages = []
    for size in (10, 12, 14, 16, 20, 24, 32, 48, 72):
        pages.append(_page("font/v", f"{size}px", vertical(columns=4, length=30, size=size), "vertical"))
        pages.append(_page("font/h", f"{size}px", horizontal(lines=5, chars=25, size=size), "horizontal"))
    return pages


def long_side():
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40)), ("v6", "vertical", dict(columns=6, length=30)),
                               ("h", "horizontal", {})):
        img, lines = base(writing, **kw)
        for side in (400, 800, 1200, 2000, 3000, 4000, 5000, 6000, 8000):
            pages.append(SweepPage(f"longside/{label}", f"{side}px", scaled(img, side), lines, writing))
    return pages


def large_page():
    """24 px text (a column of 40, or 5 lines) on white pages whose long side grows: the text keeps its size."""
    pages = []
    for label, writing, kw in (("v40", "vertical", dict(length=40, size=24)),
                               ("h", "horizontal", dict(size=24))):
        img, lines = base(writing, **kw)
        for side in (2000, 3000, 4000, 5000, 5500, 6000, 7000, 8000):
            pages.append(SweepPage(f"largepage/{label}", f"{side}px", on_canvas(img, side), lines, writing))
    return pages


def columns():
    pages = []
    for n in (1, 2, 3, 4, 6, 8, 10, 12):
        pages.append(_page("columns/v", f"{n}", vertical(columns=n, length=30), "vertical"))
        pages.append(_page("columns/h", f"{n}", horizontal(lines=n, chars=30), "horizontal"))
    return pages


def length():
    pages = []
    for n in (10, 20, 30, 40, 50, 60, 80, 100):
        pages.append(_page("length/v", f"{n}", vertical(columns=1, length=n), "vertical"))
        pages.append(_page("length/h", f"{n}", horizontal(lines=1, chars=n), "horizontal"))
    return pages


def narrow():
    """One column of 40 characters of 32 px cut to a narrow page (a slip, a phone crop); one line of 30 likewise."""
    pages = []
    img, lines = vertical(columns=1, length=40, margin=80)
    for width in (40, 48, 55, 64, 76, 91, 120, 160):
        x = (img.width - width) // 2
        pages.append(SweepPage("narrow/v", f"{width}px", img.crop((x, 0, x + width, img.height)), lines, "vertical"))
    img, lines = horizontal(lines=1, chars=30, margin=80)
    for height in (40, 48, 55, 64, 76, 91, 120, 160):
        y = (img.height - height) // 2
        pages.append(SweepPage("narrow/h", f"{height}px", img.crop((0, y, img.width, y + height)), lines, "horizontal"))
    return pages


def tategaki():
    """Real tategaki dense with small kana, in both faces, at three sizes and three column counts."""
    pages = []
    for face in ("serif", "sans"):
        for size in (24, 32, 48):
            for n in (1, 4, 10):
                img_lines = vertical(columns=n, length=24, size=size, face=face, pool=T.SMALL_KANA, start=n + size)
                pages.append(_page(f"tategaki/{face}", f"{size}px-{n}col", img_lines, "vertical"))
    return pages


def page_number():
    pages = []
    for label, writing, kw in (("v", "vertical", dict(columns=6, length=30)), ("h", "horizontal", dict(lines=8))):
        img, lines = base(writing, **kw)
        for number, where in (("12", "bottom-left"), ("128", "bottom-centre"), ("7", "bottom-right"),
                              ("35", "top-left"), ("204", "top-right")):
            out, truth = with_page_number(img, lines, writing, number, where, 24)
            pages.append(SweepPage(f"pagenumber/{label}", where, out, truth, writing))
    return pages


FAMILIES = {
    "tilt": tilt, "jpeg": jpeg, "blur": blur, "noise": noise, "contrast": contrast, "borders": borders,
    "font": font_size, "longside": long_side, "largepage": large_page, "columns": columns, "length": length,
    "narrow": narrow, "tategaki": tategaki, "pagenumber": page_number,
}
