"""Makes the fuzzing seeds of Tests/Fixtures/fuzz/seeds (docs/reliability.md, "Fuzzing"): one small file per
format the image target reads, a two-page PDF for the PDF target, and manifest lines for the manifest target.
Run with a Python that has Pillow (e.g. .deps/peers/bin/python, `make peers`)."""
import json
import sys
from pathlib import Path
from PIL import Image, ImageDraw

def tiff(pages, size):
    """An uncompressed little-endian RGB TIFF with one IFD per page (Pillow's TIFF writer is not needed)."""
    import struct
    width, height = size
    out = bytearray(b"II*\x00\x00\x00\x00\x00")
    previous = 4
    for pixels in pages:
        data_at = len(out)
        out += pixels
        bits_at = len(out)
        out += struct.pack("<3H", 8, 8, 8)
        ifd_at = len(out)
        entries = [(256, 3, 1, width), (257, 3, 1, height), (258, 3, 3, bits_at), (259, 3, 1, 1), (262, 3, 1, 2),
                   (273, 4, 1, data_at), (277, 3, 1, 3), (278, 3, 1, height), (279, 4, 1, len(pixels))]
        out += struct.pack("<H", len(entries))
        for tag, kind, count, value in entries:
            out += struct.pack("<HHII", tag, kind, count, value)
        out += struct.pack("<I", 0)
        struct.pack_into("<I", out, previous, ifd_at)
        previous = ifd_at + 2 + 12 * len(entries)
    return bytes(out)


root = Path(sys.argv[1] if len(sys.argv) > 1 else "Tests/Fixtures/fuzz/seeds")
for sub in ("image", "pdf", "manifest"):
    (root / sub).mkdir(parents=True, exist_ok=True)

page = Image.new("RGB", (24, 16), "white")
ImageDraw.Draw(page).rectangle((3, 4, 20, 11), fill=(20, 20, 20))
grey, alpha = page.convert("L"), page.convert("RGBA")
page.save(root / "image/page.png")
alpha.save(root / "image/alpha.png")
grey.save(root / "image/grey.png")
page.save(root / "image/page.jpg", quality=80)
page.save(root / "image/page.webp", lossless=True)
page.save(root / "image/page.bmp")
page.convert("P").save(root / "image/page.gif")
(root / "image/two-pages.tif").write_bytes(tiff([page.tobytes(), page.tobytes()], page.size))
page.save(root / "pdf/two-pages.pdf", save_all=True, append_images=[grey], resolution=72)

lines = []
for state in ("started", "done"):
    outputs = [{"file": "vol1/0001.txt"}, {"file": "vol1/0001.json"}]
    if state == "done":
        outputs = [dict(o, sha256="0" * 64) for o in outputs]
    lines.append(json.dumps({"input": "/data/vol1/0001.jpg", "key": "vol1/0001.jpg#1", "outputs": outputs,
                             "page": 1, "state": state}, sort_keys=True, ensure_ascii=False))
(root / "manifest/manifest.jsonl").write_text("\n".join(lines) + "\n{\"cut\": ", encoding="utf-8")
(root / "manifest/list.txt").write_bytes(b"# list\n/data/vol1/0001.jpg\r\n  rel/\x83y.png \n\n")
