"""A plain PP-OCRv5 pipeline: OpenCV + ONNX Runtime on this project's ONNX files, nothing more.

The "minimal pipeline" of issue 12, written from the published facts of the PP-OCR inference recipe
(docs/reference-pipelines.md §4), not from any project's code:
  detection    long side scaled to <= 960 (never enlarged), each side rounded to a multiple of 32, bilinear;
               BGR order, x/255 then ImageNet mean [0.485,0.456,0.406] / std [0.229,0.224,0.225]
  DB post      probability > 0.3 -> connected regions (outer contours) -> minimum-area rectangle; dropped when
               its shorter side < 3 px or the mean probability inside it < 0.6; grown by d = area x 1.5 / perimeter
               on every side (the min-area rectangle of a round offset of a rectangle is the rectangle grown
               by d); dropped when the grown rectangle's shorter side < 5 px; scaled back to the page
  crop         perspective warp of the rectangle (corners clockwise from top-left), bilinear, border replicated;
               turned 90 degrees counter-clockwise when its height >= 1.5 x its width
  recognition  one line per run: height 48, width ceil(48 w / h) (<= 3200), padded with 0 to >= 320;
               (x/255 - 0.5) / 0.5; greedy CTC (arg-max, collapse repeats, drop blank); confidence = mean of the
               kept steps' maxima. No orientation classifier, no text-score filter.
  order        lines sorted by the top of their box, then by its left edge (the simplest order; no columns).
Run in the peers venv: .deps/peers/bin/python scripts/peers/plain_ppocr.py [--det-max-side 960] IMAGE...
Output: JSON Lines, see peer_common.py.
"""
import math
import os
import sys
import time

import cv2
import numpy as np
import onnxruntime as ort

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402

MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)
BINARY_THRESHOLD = 0.3
BOX_THRESHOLD = 0.6
UNCLIP_RATIO = 1.5
MIN_SIDE = 3
REC_HEIGHT = 48
REC_MIN_WIDTH = 320
REC_MAX_WIDTH = 3200


def load_keys(path):
    """Class index -> string: the file's lines (line 0 is `blank`, the CTC blank; the last is the space)."""
    with open(path, encoding="utf-8", newline="") as f:
        keys = f.read().split("\n")
    if keys and keys[-1] == "":
        keys.pop()
    return keys


def detector_input(page, max_side):
    h, w = page.shape[:2]
    scale = min(1.0, max_side / max(h, w))
    dw, dh = (max(32, int(round(side * scale / 32)) * 32) for side in (w, h))
    resized = cv2.resize(page, (dw, dh), interpolation=cv2.INTER_LINEAR)
    x = (resized.astype(np.float32) / 255.0 - MEAN) / STD
    return x.transpose(2, 0, 1)[np.newaxis], w / dw, h / dh


def clockwise_from_top_left(points):
    """Four corners ordered top-left, top-right, bottom-right, bottom-left (by x, then y within each side)."""
    pts = sorted(points.tolist(), key=lambda p: p[0])
    left = sorted(pts[:2], key=lambda p: p[1])
    right = sorted(pts[2:], key=lambda p: p[1])
    return np.array([left[0], right[0], right[1], left[1]], dtype=np.float32)


def mean_inside(prob, box):
    h, w = prob.shape
    x0, y0 = (max(0, int(math.floor(box[:, i].min()))) for i in (0, 1))
    x1, y1 = min(w - 1, int(math.ceil(box[:, 0].max()))), min(h - 1, int(math.ceil(box[:, 1].max())))
    if x1 < x0 or y1 < y0:
        return 0.0
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(box - [x0, y0]).astype(np.int32)], 1)
    region = prob[y0:y1 + 1, x0:x1 + 1]
    return float(region[mask > 0].mean()) if mask.any() else 0.0


def text_boxes(prob, sx, sy, page_w, page_h):
    bitmap = (prob > BINARY_THRESHOLD).astype(np.uint8)
    contours, _ = cv2.findContours(bitmap, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    boxes = []
    for contour in contours[:1000]:
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
        if min(rw, rh) < MIN_SIDE:
            continue
        box = cv2.boxPoints(((cx, cy), (rw, rh), angle))
        score = mean_inside(prob, box)
        if score < BOX_THRESHOLD:
            continue
        d = rw * rh * UNCLIP_RATIO / (2 * (rw + rh))
        gw, gh = rw + 2 * d, rh + 2 * d
        if min(gw, gh) < MIN_SIDE + 2:
            continue
        grown = cv2.boxPoints(((cx, cy), (gw, gh), angle)) * [sx, sy]
        grown[:, 0] = np.clip(grown[:, 0], 0, page_w)
        grown[:, 1] = np.clip(grown[:, 1], 0, page_h)
        boxes.append((clockwise_from_top_left(grown), score))
    return boxes


def crop_line(page, box):
    width = int(max(np.linalg.norm(box[0] - box[1]), np.linalg.norm(box[3] - box[2])))
    height = int(max(np.linalg.norm(box[0] - box[3]), np.linalg.norm(box[1] - box[2])))
    if width < 1 or height < 1:
        return None
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(box, target)
    crop = cv2.warpPerspective(page, matrix, (width, height), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    if height >= 1.5 * width:
        crop = cv2.rotate(crop, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return crop


def recogniser_input(crop):
    h, w = crop.shape[:2]
    width = min(REC_MAX_WIDTH, max(1, int(math.ceil(REC_HEIGHT * w / h))))
    resized = cv2.resize(crop, (width, REC_HEIGHT), interpolation=cv2.INTER_LINEAR)
    x = (resized.astype(np.float32) / 255.0 - 0.5) / 0.5
    padded = np.zeros((REC_HEIGHT, max(REC_MIN_WIDTH, width), 3), dtype=np.float32)
    padded[:, :width] = x
    return padded.transpose(2, 0, 1)[np.newaxis]


def ctc_greedy(probs, keys):
    best = probs.argmax(axis=1)
    text, confidences, previous = [], [], -1
    for step, index in enumerate(best):
        if index != previous and index != 0:
            text.append(keys[index] if index < len(keys) else "")
            confidences.append(float(probs[step, index]))
        previous = index
    return "".join(text), (sum(confidences) / len(confidences) if confidences else 0.0)


RUN_SECONDS = {}  # model file name -> [seconds inside session.run, runs]


def timed_run(session, name, x):
    """session.run with its time summed under `name` (the benchmark's attribution, koten-ocr's report format)."""
    start = time.perf_counter()
    try:
        return session.run(None, {session.get_inputs()[0].name: x})
    finally:
        entry = RUN_SECONDS.setdefault(name, [0.0, 0])
        entry[0] += time.perf_counter() - start
        entry[1] += 1


def read_page(page, det, rec, keys, max_side):
    h, w = page.shape[:2]
    x, sx, sy = detector_input(page, max_side)
    prob = timed_run(det, "det", x)[0][0, 0]
    lines = []
    for box, _ in text_boxes(prob, sx, sy, w, h):
        crop = crop_line(page, box)
        if crop is None:
            continue
        probs = timed_run(rec, "rec", recogniser_input(crop))[0][0]
        text, score = ctc_greedy(probs, keys)
        lines.append({"text": text, "score": round(score, 4), "box": peer_common.box_list(box)})
    lines.sort(key=lambda line: (min(p[1] for p in line["box"]), min(p[0] for p in line["box"])))
    return lines


def main():
    def extra(p):
        p.add_argument("--det-max-side", type=int, default=960, help="detector input's long side (default 960)")
        p.add_argument("--threads", type=int, default=0, help="ONNX Runtime intra-op threads (0 = its default)")

    args = peer_common.parse_args("plain PP-OCRv5 pipeline (OpenCV + ONNX Runtime)", extra)
    peer_common.forbid_network()
    options = ort.SessionOptions()
    options.log_severity_level = 3
    if args.threads:
        options.intra_op_num_threads = args.threads
    paths = {m: os.path.join(args.models, f"ppocrv5_{m}.onnx") for m in ("det", "rec")}
    keys_path = os.path.join(args.models, "ppocr_keys_v5.txt")
    for path in [*paths.values(), keys_path]:
        if not os.path.isfile(path):
            sys.exit(f"plain_ppocr: {path}: model file missing (run make setup)")
    det = ort.InferenceSession(paths["det"], options, providers=["CPUExecutionProvider"])
    rec = ort.InferenceSession(paths["rec"], options, providers=["CPUExecutionProvider"])
    keys = load_keys(keys_path)

    for path in args.paths:
        start = time.perf_counter()
        page = cv2.imread(path, cv2.IMREAD_COLOR)
        if page is None:
            peer_common.emit({"image": path, "error": "not an image OpenCV can read"})
            continue
        lines = read_page(page, det, rec, keys, args.det_max_side)
        peer_common.emit({"image": path, "lines": lines, "seconds": round(time.perf_counter() - start, 3)})
    if os.environ.get("KOTEN_OCR_REPORT_MODEL_RUNS") == "1":  # runs one at a time: busy is their sum
        for name, (seconds, runs) in sorted(RUN_SECONDS.items()):
            print(f"koten-ocr-runs: model {os.path.basename(paths[name])} {seconds:.4f} {runs}", file=sys.stderr)
        print(f"koten-ocr-runs: busy {sum(v[0] for v in RUN_SECONDS.values()):.4f}", file=sys.stderr)


if __name__ == "__main__":
    main()
