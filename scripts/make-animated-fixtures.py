"""Makes the animated fixtures of Tests/Fixtures/images/animated (issue 17): a 3-frame GIF and a 3-frame WebP,
64x48, frames solid red, green, blue. The first frame is the page; a reader that took the others would show green
or blue. Run with a Python that has Pillow (e.g. .deps/peers/bin/python, `make peers`)."""
import sys
from pathlib import Path
from PIL import Image

out = Path(sys.argv[1] if len(sys.argv) > 1 else "Tests/Fixtures/images/animated")
out.mkdir(parents=True, exist_ok=True)
frames = [Image.new("RGB", (64, 48), colour) for colour in ((255, 0, 0), (0, 255, 0), (0, 0, 255))]
frames[0].save(out / "three-frames.gif", save_all=True, append_images=frames[1:], duration=100, loop=0)
frames[0].save(out / "three-frames.webp", save_all=True, append_images=frames[1:], duration=100, loop=0, lossless=True)
