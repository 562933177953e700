"""Typesetting for the quality corpus: Noto CJK fonts, line wrapping with simple kinsoku, horizontal lines and
vertical columns drawn glyph by glyph. Pillow's BASIC layout (no libraqm), so the pixels depend only on Pillow,
FreeType (bundled in the Pillow wheel) and the Debian font files; except real tategaki (`vertical_forms`), drawn
with the font's own vertical forms (its OpenType `vert` feature, applied by the libraqm and HarfBuzz bundled in
the Pillow wheel): 、。 and the small kana at the top right of their cells, ー and brackets turned, as a book sets them.
"""
import os

from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = "/usr/share/fonts/opentype/noto"          # Debian fonts-noto-cjk
FONT_FILES = {"sans": "NotoSansCJK-Regular.ttc", "serif": "NotoSerifCJK-Regular.ttc"}
EM_ASCENT = 0.88          # Noto CJK's ideographic em box: 880 units above the baseline, 120 below (of 1000)

# Kinsoku: characters a line must not start with, and must not end with.
NO_START = set("、。，．」』）】〕！？ー…‥っゃゅょぁぃぅぇぉゎァィゥェォッャュョヮ・：；%")
NO_END = set("「『（【〔")
# Vertical text: glyphs turned 90° clockwise, glyphs moved to the cell's top-right, small kana nudged up-right.
VERTICAL_TURNED = set("ー—―～〜…‥「」『』（）【】〔〕［］｛｝〈〉《》＝")
VERTICAL_TOP_RIGHT = set("、。，．")
VERTICAL_SMALL = set("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ")

_fonts = {}


def font(size, face="sans", vertical_forms=False):
    """Noto Sans/Serif CJK JP (face 0 of Debian's .ttc) at `size` px, BASIC layout; with `vertical_forms`, RAQM
    layout, so that a glyph may be drawn with the font's `vert` feature (`draw_column(..., vertical_forms=True)`)."""
    key = (size, face, vertical_forms)
    if key not in _fonts:
        path = os.path.join(FONT_DIR, FONT_FILES[face])
        if not os.path.isfile(path):
            raise SystemExit(f"render: {path}: font missing (install Debian fonts-noto-cjk: make setup)")
        if vertical_forms and not features.check("raqm"):
            raise SystemExit("render: this Pillow has no libraqm: the font's vertical forms cannot be drawn")
        layout = ImageFont.Layout.RAQM if vertical_forms else ImageFont.Layout.BASIC
        f = ImageFont.truetype(path, size, index=0, layout_engine=layout)
        if not f.getname()[0].endswith(" JP"):
            raise SystemExit(f"render: {path}: face 0 is {f.getname()[0]}, expected a JP face")
        _fonts[key] = f
    return _fonts[key]


def _kinsoku(lines):
    """Moves a forbidden line start back to the previous line and a forbidden line end forward."""
    for i in range(1, len(lines)):
        while lines[i] and lines[i][0] in NO_START:
            lines[i - 1] += lines[i][0]
            lines[i] = lines[i][1:]
        while lines[i - 1] and lines[i - 1][-1] in NO_END:
            lines[i] = lines[i - 1][-1] + lines[i]
            lines[i - 1] = lines[i - 1][:-1]
    return [line for line in lines if line]


def wrap_width(text, fnt, max_width):
    """Lines of `text` no wider than `max_width` px in `fnt` (a kinsoku move may exceed it by one glyph)."""
    lines, current = [], ""
    for ch in text:
        if current and fnt.getlength(current + ch) > max_width:
            lines.append(current)
            current = ""
        current += ch
    if current:
        lines.append(current)
    return _kinsoku(lines)


def wrap_count(text, per_line):
    """Lines of `per_line` characters (vertical columns: every glyph takes one em cell)."""
    return _kinsoku([text[i:i + per_line] for i in range(0, len(text), per_line)])


def draw_lines(draw, lines, fnt, x, y, line_height, fill):
    """Horizontal lines from (x, y) down; returns the y below the last line."""
    for line in lines:
        draw.text((x, y + EM_ASCENT * fnt.size), line, font=fnt, fill=fill, anchor="ls")
        y += line_height
    return y


def _glyph_tile(ch, fnt, vertical_forms=False):
    """The glyph of `ch` in an em-square L tile (255 = ink), as it stands in a vertical column: with
    `vertical_forms` the font's own vertical form (`vert`; `fnt` from `font(..., vertical_forms=True)`), else the
    horizontal glyph moved or turned by this module's rules."""
    s = fnt.size
    tile = Image.new("L", (s, s), 0)
    if vertical_forms:
        advance = fnt.getlength(ch, features=["vert"])
        ImageDraw.Draw(tile).text(((s - advance) / 2, EM_ASCENT * s), ch, font=fnt, fill=255, anchor="ls",
                                  features=["vert"])
        return tile
    advance = fnt.getlength(ch)
    dx = dy = 0.0
    if ch in VERTICAL_TOP_RIGHT:
        dx, dy = 0.6 * s, -0.6 * s
    elif ch in VERTICAL_SMALL:
        dx, dy = 0.1 * s, -0.1 * s
    ImageDraw.Draw(tile).text(((s - advance) / 2 + dx, EM_ASCENT * s + dy), ch, font=fnt, fill=255, anchor="ls")
    if ch in VERTICAL_TURNED:
        tile = tile.transpose(Image.Transpose.ROTATE_270)      # 90° clockwise
    return tile


def draw_column(img, text, fnt, center_x, top, fill, pitch=None, vertical_forms=False):
    """One vertical column of `text`, glyph cells of `pitch` px (default the font size) from `top` down; with
    `vertical_forms`, real tategaki (the font's `vert` forms; `fnt` from `font(..., vertical_forms=True)`)."""
    s = fnt.size
    pitch = pitch or s
    ink = Image.new(img.mode, (s, s), fill)
    for i, ch in enumerate(text):
        tile = _glyph_tile(ch, fnt, vertical_forms)
        img.paste(ink, (int(round(center_x - s / 2)), int(round(top + i * pitch))), tile)


def draw_columns(img, columns, fnt, right_x, top, column_pitch, fill, vertical_forms=False):
    """Vertical columns, the first at the right edge `right_x`, then leftwards every `column_pitch` px.
    Returns the centre x of each column."""
    centers = []
    for i, column in enumerate(columns):
        cx = right_x - i * column_pitch - fnt.size / 2
        draw_column(img, column, fnt, cx, top, fill, vertical_forms=vertical_forms)
        centers.append(cx)
    return centers
