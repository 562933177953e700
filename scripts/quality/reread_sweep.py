"""Re-reads koten-ocr's own lines with other crops, to weigh a change of crop before building it (docs/quality.md,
"After issue 11, part 3").

Input: the `koten.jsonl` of a `make quality` run: each line's polygon (in the upright page) and orientation. For every page of the corpus and the
reference pages, each kept line (not ruby, not flagged lowConfidence) is cut again from the page (OpenCV
perspective warp, bilinear, border replicated; vertical lines turned a quarter counter-clockwise), read by the
PP-OCRv5 recogniser (height 48, x/127.5 - 1, padded to >= 320, greedy CTC), and the page's ordered CER printed
for the line's own box and for each variant `ALONG,ACROSS[,CHOOSE]`: the box grown by ALONG x its thickness at
each end and ACROSS x its thickness on each side; with CHOOSE (a confidence, e.g. 0.95) only the lines read under
it in their own box are read again grown, and the more confident reading is kept (the second look).

This is not koten-ocr: it has no look-alike twins, no classifier and no alpha compositing, so its own-box column
differs from koten-ocr's on a few pages (the transparent ones read nothing); compare its columns with each other.
Run in the peers venv from the repository's root:
  .deps/peers/bin/python scripts/quality/reread_sweep.py .build/quality/run/koten.jsonl '0.3,0.2;0.3,0.2,0.95'
"""
import argparse
import json
import math
import os
import sys

import cv2
import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchmark  # noqa: E402
import metrics  # noqa: E402

TURN_UPRIGHT = {0: None, 90: cv2.ROTATE_90_COUNTERCLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_CLOCKWISE}


class Recogniser:
    def __init__(self, models):
        options = ort.SessionOptions()
        options.log_severity_level = 3
        self.session = ort.InferenceSession(os.path.join(models, "ppocrv5_rec.onnx"), options,
                                            providers=["CPUExecutionProvider"])
        with open(os.path.join(models, "ppocr_keys_v5.txt"), encoding="utf-8", newline="") as f:
            self.keys = f.read().split("\n")
        if self.keys and self.keys[-1] == "":
            self.keys.pop()

    def read(self, crop):
        """(text, mean probability of the kept steps)."""
        h, w = crop.shape[:2]
        width = min(3200, max(1, math.ceil(48 * w / h)))
        x = cv2.resize(crop, (width, 48), interpolation=cv2.INTER_LINEAR).astype(np.float32) / 127.5 - 1
        padded = np.zeros((48, max(320, width), 3), np.float32)
        padded[:, :width] = x
        probs = self.session.run(None, {self.session.get_inputs()[0].name: padded.transpose(2, 0, 1)[None]})[0][0]
        text, kept, previous = [], [], -1
        for step, k in enumerate(probs.argmax(1)):
            if k != previous and k != 0:
                text.append(self.keys[k])
                kept.append(float(probs[step, k]))
            previous = k
        return "".join(text), (sum(kept) / len(kept) if kept else 0.0)


def cut(page, quad, vertical):
    q = np.array(quad, dtype=np.float32)
    w = max(1, int(max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[3] - q[2]))))
    h = max(1, int(max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))))
    rect = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    crop = cv2.warpPerspective(page, cv2.getPerspectiveTransform(rect, q), (w, h),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return cv2.rotate(crop, cv2.ROTATE_90_COUNTERCLOCKWISE) if vertical else crop


def grown(quad, along, across, vertical):
    """The quad (corners clockwise from its top-left) grown along its text and across it, × its thickness."""
    q = np.array(quad, dtype=np.float64)
    ux, uy = q[1] - q[0], q[3] - q[0]
    lx, ly = np.linalg.norm(ux), np.linalg.norm(uy)
    ux, uy = ux / max(lx, 1e-9), uy / max(ly, 1e-9)
    thickness = max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[3] - q[2])) if vertical else \
        max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))
    mx, my = thickness * (across if vertical else along), thickness * (along if vertical else across)
    signs = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    return [(q[i] + sx * mx * ux + sy * my * uy).tolist() for i, (sx, sy) in enumerate(signs)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("jsonl", help="koten.jsonl of a make quality run")
    parser.add_argument("variants", help="ALONG,ACROSS[,CHOOSE] separated by ';'")
    parser.add_argument("--corpus", default=".build/quality/corpus")
    parser.add_argument("--models", default=".deps/models/ppocr")
    args = parser.parse_args()
    variants = [tuple(float(x) for x in v.split(",")) for v in args.variants.split(";") if v]
    pages = benchmark.corpus_pages(args.corpus) + benchmark.reference_pages()
    truths = {}
    for p in pages:
        truths.setdefault(os.path.realpath(p["image"]), []).append(p)
    rec = Recogniser(args.models)
    names = ["own box"] + ["grown " + ",".join(f"{x:g}" for x in v) for v in variants]
    print("| page | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    totals = [0.0] * len(names)
    for line in open(args.jsonl, encoding="utf-8"):
        result = json.loads(line)
        path = result["source"]["path"]
        page = cv2.imread(path, cv2.IMREAD_COLOR)
        if page is None or os.path.realpath(path) not in truths:
            continue
        turn = TURN_UPRIGHT.get(result.get("rotation", 0))
        page = page if turn is None else cv2.rotate(page, turn)
        kept = [l for l in result["lines"] if l.get("kind") != "ruby" and not l.get("lowConfidence")]
        vertical = [l.get("orientation") == "vertical" for l in kept]
        own = [rec.read(cut(page, l["polygon"], v)) for l, v in zip(kept, vertical)]
        columns = [[t for t, _ in own]]
        for variant in variants:
            along, across, choose = (variant + (None,))[:3]
            texts = []
            for l, v, first in zip(kept, vertical, own):
                if choose is not None and first[1] >= choose:
                    texts.append(first[0])
                    continue
                second = rec.read(cut(page, grown(l["polygon"], along, across, v), v))
                texts.append(second[0] if choose is None or second[1] > first[1] else first[0])
            columns.append(texts)
        for p in truths[os.path.realpath(path)]:
            truth = metrics.normalise(p["truth"])
            cers = [metrics.ordered_cer(metrics.normalise(c), truth) for c in columns]
            totals = [a + b for a, b in zip(totals, cers)]
            print(f"| {p['name']} | " + " | ".join(f"{100 * c:.1f}" for c in cers) + " |", flush=True)
    print("| **sum of pages** | " + " | ".join(f"{100 * t:.1f}" for t in totals) + " |")


if __name__ == "__main__":
    main()
