"""Renders the quality corpus: pages with exact truth, drawn by this repository from its own text.

    .deps/peers/bin/python scripts/quality/render_corpus.py [OUT_DIR]     (default .build/quality/corpus)

`index.json` lists the page names in table order. Each page is `<name>.png` (`<name>.webp` where `file` says so),
`<name>.truth.txt` (the body lines in reading order, one per line, UTF-8) and `<name>.meta.json`:
    kind        what the page tests (horizontal, vertical, two_columns, heading_columns_caption, skew, turned,
                photo, ruby, small_text, wide_strip, tall_page, dense_a4, transparent)
    writing     the body's writing direction: horizontal or vertical (Tesseract's language follows it)
    rotation    degrees the upright page was turned clockwise (0, 90, 180, 270); the reader must undo it
    skew_deg    degrees the page was turned counter-clockwise before that (a scan's skew), 0 for none
    twin        the unskewed, unturned, clean page with the same text (null for a page that is its own base)
    ruby        ruby readings: [{line, start, end, base, reading}] with character offsets into that truth line
    size, mode, font, font_px, effects, seed
    file        the image's file name (`<name>.png` unless another format is the point of the page)
Deterministic: fixed seeds, Pillow's BASIC layout, no time stamps; the same bytes on every run given the same
Pillow, numpy and fonts-noto-cjk versions (scripts/peers/requirements.txt, scripts/setup.sh pin them).
"""
import json
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_text as T  # noqa: E402
import typeset as ts  # noqa: E402

WHITE = (255, 255, 255)
INK = (24, 24, 24)


class Page:
    def __init__(self, name, image, lines, kind, writing, font, font_px, **extra):
        self.name, self.image, self.lines = name, image, lines
        self.meta = {"name": name, "kind": kind, "writing": writing, "rotation": 0, "skew_deg": 0, "twin": None,
                     "ruby": [], "font": font, "font_px": font_px, "effects": [], "seed": None}
        self.meta.update(extra)

    def derived(self, name, image, kind, effect, **changes):
        """A twin of this page: same truth, another image."""
        twin = Page(name, image, list(self.lines), kind, self.meta["writing"], self.meta["font"],
                    self.meta["font_px"])
        twin.meta.update({k: v for k, v in self.meta.items() if k in ("ruby", "rotation", "skew_deg")})
        twin.meta["twin"] = self.meta["twin"] or self.name
        twin.meta["effects"] = self.meta["effects"] + [effect]
        twin.meta.update(changes)
        return twin


def blank(w, h):
    return Image.new("RGB", (w, h), WHITE)


# ---- base pages --------------------------------------------------------------------------------------------

def horizontal():
    w, h, size, margin = 1000, 1400, 30, 70
    img, f = blank(w, h), ts.font(size)
    draw, lines, y = ImageDraw.Draw(img), [], margin
    for text in (T.paragraph(T.MODERN, 4, 0), T.paragraph(T.MIXED, 2, 0), T.paragraph(T.MODERN, 5, 4)):
        par = ts.wrap_width(text, f, w - 2 * margin)
        y = ts.draw_lines(draw, par, f, margin, y, int(size * 1.7), INK)
        lines += par
    return Page("horizontal", img, lines, "horizontal", "horizontal", "sans", size)


def vertical():
    w, h, size, margin = 1000, 1400, 32, 90
    img, f = blank(w, h), ts.font(size, "serif")
    per = (h - 2 * margin) // size
    columns = []
    for text in T.CLASSICAL[:3]:
        columns += ts.wrap_count(text, per)
    ts.draw_columns(img, columns, f, w - margin, margin, int(size * 1.75), INK)
    return Page("vertical", img, columns, "vertical", "vertical", "serif", size)


def two_columns():
    w, h, size, margin, gutter = 1000, 1400, 26, 70, 60
    img, f, ft = blank(w, h), ts.font(size), ts.font(40)
    draw = ImageDraw.Draw(img)
    title_w = ft.getlength(T.TWO_COLUMN_TITLE)
    ts.draw_lines(draw, [T.TWO_COLUMN_TITLE], ft, (w - title_w) / 2, margin, 60, INK)
    col_w = (w - 2 * margin - gutter) // 2
    left = ts.wrap_width(T.paragraph(T.MODERN, 7, 9), f, col_w)
    right = ts.wrap_width(T.paragraph(T.MODERN, 6, 16) + T.MIXED[2], f, col_w)
    ts.draw_lines(draw, left, f, margin, margin + 110, int(size * 1.7), INK)
    ts.draw_lines(draw, right, f, margin + col_w + gutter, margin + 110, int(size * 1.7), INK)
    return Page("two_columns", img, [T.TWO_COLUMN_TITLE] + left + right, "two_columns", "horizontal", "sans", size)


def heading_columns_caption():
    w, h, size, margin = 1000, 1400, 30, 80
    img, f = blank(w, h), ts.font(size, "serif")
    draw = ImageDraw.Draw(img)
    fh, fc = ts.font(44), ts.font(24)
    ts.draw_lines(draw, [T.HEADING], fh, margin, margin, 60, INK)
    top, bottom = margin + 110, h - margin - 90
    columns = ts.wrap_count(T.paragraph(T.MODERN, 5, 0), (bottom - top) // size)
    ts.draw_columns(img, columns, f, w - margin, top, int(size * 1.8), INK)
    ts.draw_lines(draw, [T.CAPTION], fc, margin, h - margin - 40, 40, INK)
    return Page("heading_columns_caption", img, [T.HEADING] + columns + [T.CAPTION], "heading_columns_caption",
                "vertical", "serif", size)


def ruby_vertical():
    w, h, size, margin = 900, 1200, 36, 80
    img, f, fr = blank(w, h), ts.font(size, "serif"), ts.font(size // 2, "serif")
    per = (h - 2 * margin) // size
    pitch = int(size * 2.4)
    lines, ruby = [], []
    for text in T.RUBY:
        body, spans = T.parse_ruby(text)
        assert len(body) <= per, body
        i = len(lines)
        cx = w - margin - size / 2 - i * pitch
        ts.draw_column(img, body, f, cx, margin, INK)
        for start, end, reading in spans:
            middle = margin + (start + end) / 2 * size
            ts.draw_column(img, reading, fr, cx + size / 2 + fr.size / 2 + 2, middle - len(reading) * fr.size / 2, INK)
            ruby.append({"line": i, "start": start, "end": end, "base": body[start:end], "reading": reading})
        lines.append(body)
    return Page("ruby_vertical", img, lines, "ruby", "vertical", "serif", size, ruby=ruby)


def ruby_horizontal():
    w, h, size, margin = 1100, 700, 36, 70
    img, f, fr = blank(w, h), ts.font(size, "serif"), ts.font(size // 2, "serif")
    draw = ImageDraw.Draw(img)
    pitch = int(size * 2.4)
    lines, ruby = [], []
    for i, text in enumerate(T.RUBY):
        body, spans = T.parse_ruby(text)
        assert f.getlength(body) <= w - 2 * margin, body
        top = margin + fr.size + 4 + i * pitch
        ts.draw_lines(draw, [body], f, margin, top, pitch, INK)
        for start, end, reading in spans:
            middle = margin + (f.getlength(body[:start]) + f.getlength(body[:end])) / 2
            ts.draw_lines(draw, [reading], fr, middle - fr.getlength(reading) / 2, top - fr.size - 3, pitch, INK)
            ruby.append({"line": i, "start": start, "end": end, "base": body[start:end], "reading": reading})
        lines.append(body)
    return Page("ruby_horizontal", img, lines, "ruby", "horizontal", "serif", size, ruby=ruby)


def small_text():
    w, h, size, margin = 1240, 1754, 16, 100        # A4 at 150 dpi, 7.7 pt text
    img, f = blank(w, h), ts.font(size)
    lines = ts.wrap_width(T.paragraph(T.MODERN + T.MIXED, 40, 3), f, w - 2 * margin)[:40]
    ts.draw_lines(ImageDraw.Draw(img), lines, f, margin, margin, int(size * 1.7), INK)
    return Page("small_text", img, lines, "small_text", "horizontal", "sans", size)


def wide_strip():
    w, h, size = 3000, 100, 36
    img, f = blank(w, h), ts.font(size)
    line = ts.wrap_width(T.paragraph(T.MODERN, 3, 11), f, w - 80)[0]
    ts.draw_lines(ImageDraw.Draw(img), [line], f, 40, (h - size) // 2, size, INK)
    return Page("wide_strip", img, [line], "wide_strip", "horizontal", "sans", size)


def tall_page():
    w, h, size, pitch = 400, 6000, 20, 30
    img, f = blank(w, h), ts.font(size)
    lines = T.tall_lines((h - 40) // pitch)
    ts.draw_lines(ImageDraw.Draw(img), lines, f, 30, 20, pitch, INK)
    return Page("tall_page", img, lines, "tall_page", "horizontal", "sans", size)


def dense_a4():
    w, h, size, margin = 2480, 3508, 40, 180        # A4 at 300 dpi, 9.6 pt text
    img, f = blank(w, h), ts.font(size, "serif")
    pool = T.MODERN + T.MIXED + T.CLASSICAL
    lines = ts.wrap_width(T.paragraph(pool, 80, 0), f, w - 2 * margin)[:(h - 2 * margin) // 60]
    ts.draw_lines(ImageDraw.Draw(img), lines, f, margin, margin, 60, INK)
    return Page("dense_a4", img, lines, "dense_a4", "horizontal", "serif", size)


def short_horizontal():
    w, h, size, margin = 900, 420, 32, 60
    img, f = blank(w, h), ts.font(size)
    lines = ts.wrap_width(T.paragraph(T.MODERN, 3, 0), f, w - 2 * margin)[:5]
    ts.draw_lines(ImageDraw.Draw(img), lines, f, margin, margin, int(size * 1.6), INK)
    return Page("short_horizontal", img, lines, "horizontal", "horizontal", "sans", size)


# ---- twins -------------------------------------------------------------------------------------------------

def skewed(page, degrees):
    tag = ("p" if degrees > 0 else "m") + str(abs(degrees))
    image = page.image.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=WHITE)
    return page.derived(f"{page.name}_skew_{tag}", image, "skew", f"skew {degrees:+d}°", skew_deg=degrees)


def turned(page, clockwise):
    transpose = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}
    image = page.image.transpose(transpose[clockwise])
    return page.derived(f"{page.name}_turn{clockwise}", image, "turned", f"turned {clockwise}° clockwise",
                        rotation=clockwise)


def perspective_coefficients(dst, src):
    """Pillow PERSPECTIVE data mapping output points `dst` to input points `src` (4 pairs each)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); rhs.append(u)
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y]); rhs.append(v)
    return np.linalg.solve(np.array(rows, dtype=np.float64), np.array(rhs, dtype=np.float64)).tolist()


def photographed(page, seed):
    """The page as a phone photo: on a dark table, perspective, warm paper, uneven light, blur, sensor noise."""
    rng = np.random.default_rng(seed)
    w, h = page.image.size
    cw, ch = int(w * 1.16), int(h * 1.12)
    jitter = lambda: rng.uniform(-0.025, 0.025)  # noqa: E731
    quad = [(cw * (0.07 + jitter()), ch * (0.05 + jitter())), (cw * (0.95 + jitter()), ch * (0.06 + jitter())),
            (cw * (0.92 + jitter()), ch * (0.95 + jitter())), (cw * (0.04 + jitter()), ch * (0.93 + jitter()))]
    data = perspective_coefficients(quad, [(0, 0), (w, 0), (w, h), (0, h)])
    paper = np.asarray(page.image, dtype=np.float32) * (np.array([250, 243, 228], dtype=np.float32) / 255)
    paper = Image.fromarray(paper.round().astype(np.uint8))
    warped = paper.transform((cw, ch), Image.Transform.PERSPECTIVE, data, Image.Resampling.BICUBIC)
    mask = Image.new("L", (w, h), 255).transform((cw, ch), Image.Transform.PERSPECTIVE, data,
                                                 Image.Resampling.BILINEAR)
    photo = Image.composite(warped, Image.new("RGB", (cw, ch), (72, 64, 58)), mask)
    yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
    light = 0.68 + 0.32 * (xx / cw) * 0.6 + 0.32 * (1 - yy / ch) * 0.4              # brighter top-right
    light -= 0.18 * (((xx - cw * 0.3) / cw) ** 2 + ((yy - ch * 0.75) / ch) ** 2)     # a shadow bottom-left
    pixels = np.asarray(photo.filter(ImageFilter.GaussianBlur(1.1)), dtype=np.float32) * light[..., None]
    pixels += rng.normal(0, 3.5, pixels.shape)
    image = Image.fromarray(np.clip(pixels, 0, 255).round().astype(np.uint8))
    return page.derived(f"{page.name}_photo", image, "photo", "photo: perspective, blur 1.1, uneven light, noise",
                        seed=seed)


def transparent(page, variant):
    """Twins whose text lives in the alpha channel: black RGB + alpha, grey + alpha, white RGB + alpha, and a
    logo: dark red text on a transparent background, saved as lossless WebP (libwebp may rewrite the colour of
    fully transparent pixels; Pillow's default `exact=False`)."""
    coverage = Image.eval(page.image.convert("L"), lambda v: 255 - v)
    changes = {}
    if variant == "alpha_only":
        image = Image.merge("RGBA", [Image.new("L", page.image.size, 0)] * 3 + [coverage])
    elif variant == "grey_alpha":
        image = Image.merge("LA", [Image.new("L", page.image.size, 0), coverage])
    elif variant == "logo_webp":
        image = Image.merge("RGBA", [Image.new("L", page.image.size, c) for c in (150, 20, 30)] + [coverage])
        changes["file"] = f"transparent_{variant}.webp"
    else:  # white_on_transparent
        image = Image.merge("RGBA", [Image.new("L", page.image.size, 255)] * 3 + [coverage])
    return page.derived(f"transparent_{variant}", image, "transparent", f"transparent: {variant}", **changes)


def corpus():
    h, v, short = horizontal(), vertical(), short_horizontal()
    pages = [h, v, two_columns(), heading_columns_caption(), ruby_vertical(), ruby_horizontal(), small_text(), wide_strip(),
             tall_page(), dense_a4()]
    for base in (h, v):
        pages += [skewed(base, d) for d in (2, -2, 5, -5)]
        pages += [turned(base, r) for r in (90, 180, 270)]
    pages += [photographed(h, 11), photographed(v, 12)]
    pages += [short] + [transparent(short, k) for k in ("alpha_only", "grey_alpha", "white_on_transparent", "logo_webp")]
    return pages


def write_atomic(path, write):
    part = path + ".part"
    write(part)
    os.replace(part, path)


def write_text(path, text):
    def write(part):
        with open(part, "w", encoding="utf-8") as f:
            f.write(text)
    write_atomic(path, write)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else ".build/quality/corpus"
    os.makedirs(out, exist_ok=True)
    pages = corpus()
    for page in pages:
        base = os.path.join(out, page.name)
        page.meta["size"] = list(page.image.size)
        page.meta["mode"] = page.image.mode
        page.meta.setdefault("file", page.name + ".png")
        if page.meta["file"].endswith(".webp"):
            write_atomic(os.path.join(out, page.meta["file"]), lambda p: page.image.save(p, format="WEBP", lossless=True))
        else:
            write_atomic(os.path.join(out, page.meta["file"]), lambda p: page.image.save(p, format="PNG"))
        write_text(base + ".truth.txt", "\n".join(page.lines) + "\n")
        write_text(base + ".meta.json", json.dumps(page.meta, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    write_text(os.path.join(out, "index.json"), json.dumps([p.name for p in pages], indent=1) + "\n")
    print(f"render: {len(pages)} pages -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
