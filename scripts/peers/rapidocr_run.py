"""RapidOCR 3.10 on this project's PP-OCRv5 weights, at RapidOCR's own defaults unless --param overrides them.

Run in the peers venv (`make peers`):
    .deps/peers/bin/python scripts/peers/rapidocr_run.py [--param Det.limit_side_len=960 ...] IMAGE...
Model paths point at `.deps/models/ppocr/ppocrv5_{det,cls,rec}.onnx` with ocr_version PP-OCRv5 (classifier input
80x160) and the key file `.deps/peers/ppocr_keys_rapidocr.txt` (ppocr_keys_v5.txt without `blank` and the
trailing space, which RapidOCR's CTC decoder adds itself). Network access is refused, so a missing model file
fails instead of being downloaded. Output: JSON Lines, see peer_common.py.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402

DEFAULT_KEYS = ".deps/peers/ppocr_keys_rapidocr.txt"


def typed(key, value):
    """A --param value as RapidOCR wants it: its enums for the enum keys, else JSON, else the string."""
    import rapidocr
    enums = {"ocr_version": rapidocr.OCRVersion, "model_type": rapidocr.ModelType, "engine_type": rapidocr.EngineType}
    if key.split(".")[-1] in enums:
        return enums[key.split(".")[-1]](value)
    try:
        return json.loads(value)          # numbers, true/false, lists such as [0.485,0.456,0.406]
    except ValueError:
        return value


def check_files(program, models, keys):
    """Exits with a one-line error when a PP-OCRv5 model file or the key file is missing."""
    for name in ("ppocrv5_det.onnx", "ppocrv5_cls.onnx", "ppocrv5_rec.onnx"):
        if not os.path.isfile(os.path.join(models, name)):
            sys.exit(f"{program}: {os.path.join(models, name)}: model file missing (run make setup)")
    if not os.path.isfile(keys):
        sys.exit(f"{program}: {keys}: key file missing (run make peers)")


def ppocrv5_params(models, keys):
    """RapidOCR's parameters for the PP-OCRv5 files in `models` and RapidOCR's key file `keys`; every other
    parameter stays at RapidOCR's default. Also used by rapidocr_api_serve.py (the same engine behind HTTP)."""
    from rapidocr import ModelType, OCRVersion
    return {
        "Global.log_level": "error",
        "Det.ocr_version": OCRVersion.PPOCRV5,
        "Det.model_type": ModelType.MOBILE,
        "Det.model_path": os.path.join(models, "ppocrv5_det.onnx"),
        "Cls.ocr_version": OCRVersion.PPOCRV5,
        "Cls.model_type": ModelType.MOBILE,
        "Cls.model_path": os.path.join(models, "ppocrv5_cls.onnx"),
        "Rec.ocr_version": OCRVersion.PPOCRV5,
        "Rec.model_type": ModelType.MOBILE,
        "Rec.model_path": os.path.join(models, "ppocrv5_rec.onnx"),
        "Rec.rec_keys_path": keys,
    }


def main():
    def extra(p):
        p.add_argument("--keys", default=DEFAULT_KEYS, help="RapidOCR key file (default %(default)s)")
        p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                       help="RapidOCR parameter override, e.g. Det.limit_side_len=960 (repeatable)")

    args = peer_common.parse_args("RapidOCR 3.10 on the PP-OCRv5 ONNX files", extra)
    peer_common.forbid_network()
    from rapidocr import RapidOCR  # imported after the guard

    check_files("rapidocr_run", args.models, args.keys)

    params = ppocrv5_params(args.models, args.keys)
    for item in args.param:
        key, sep, value = item.partition("=")
        if not sep:
            sys.exit(f"rapidocr_run: --param {item}: expected KEY=VALUE")
        params[key] = typed(key, value)
    engine = RapidOCR(params=params)

    for path in args.paths:
        start = time.perf_counter()
        try:
            result = engine(path)
        except Exception as e:  # one page failing must not stop the batch
            peer_common.emit({"image": path, "error": f"{type(e).__name__}: {e}".splitlines()[0]})
            continue
        lines = []
        if getattr(result, "txts", None) is not None and result.boxes is not None:
            for box, text, score in zip(result.boxes, result.txts, result.scores):
                lines.append({"text": text, "score": round(float(score), 4), "box": peer_common.box_list(box)})
        peer_common.emit({"image": path, "lines": lines, "seconds": round(time.perf_counter() - start, 3)})


if __name__ == "__main__":
    main()
