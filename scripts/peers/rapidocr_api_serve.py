"""rapidocr_api 0.2.0 (RapidOCR's HTTP server, PyPI rapidocr-api) on this project's PP-OCRv5 files, for
`make bench-serve` (docs/performance.md, "Serving under load").

Run in the peers venv (`make peers`):
    .deps/peers/bin/python scripts/peers/rapidocr_api_serve.py --port PORT [--models DIR] [--keys FILE]

rapidocr_api's own way to choose models is three environment variables, det_model_path, cls_model_path and
rec_model_path, which it passes to RapidOCR as the three model paths and nothing else. RapidOCR 3.10 would then
keep its defaults for the rest: PP-OCRv6 settings for the detector and recogniser, PP-OCRv4's classifier input
(48x192, which the PP-OCRv5 classifier's fixed 80x160 input refuses), and a key file it downloads (the PP-OCRv5
recogniser carries none). So this launcher sets those variables, and gives the engine rapidocr_api builds the same
parameters as rapidocr_run.py (ocr_version PP-OCRv5, RapidOCR's key file made by install.sh), by wrapping
RapidOCR's constructor before rapidocr_api's module is imported; the engine is built with network access refused.
Everything else is rapidocr_api's own: its FastAPI app and route (`POST /ocr`, multipart field `image_file`), and
its main(): uvicorn with its default worker count (1: one process, one engine), listening here on 127.0.0.1 only.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402
import rapidocr_run  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description="rapidocr_api on the PP-OCRv5 ONNX files, on 127.0.0.1")
    parser.add_argument("--port", type=int, required=True, help="TCP port on 127.0.0.1")
    parser.add_argument("--models", default=peer_common.DEFAULT_MODELS,
                        help="folder with ppocrv5_{det,cls,rec}.onnx (default %(default)s)")
    parser.add_argument("--keys", default=rapidocr_run.DEFAULT_KEYS, help="RapidOCR key file (default %(default)s)")
    args = parser.parse_args()
    rapidocr_run.check_files("rapidocr_api_serve", args.models, args.keys)

    params = rapidocr_run.ppocrv5_params(os.path.abspath(args.models), os.path.abspath(args.keys))
    for task in ("det", "cls", "rec"):
        os.environ[f"{task}_model_path"] = params[f"{task.capitalize()}.model_path"]

    import rapidocr
    engine_class = rapidocr.RapidOCR

    class RapidOCROnTheseFiles(engine_class):
        def __init__(self, config_path=None, params=None):
            merged = dict(base_params)
            merged.update(params or {})        # rapidocr_api's own three model paths: the same files
            with peer_common.no_network():
                super().__init__(config_path=config_path, params=merged)

    base_params = params
    rapidocr.RapidOCR = RapidOCROnTheseFiles

    import rapidocr_api.main  # builds its engine now, through the class above
    if not isinstance(rapidocr_api.main.processor.ocr, RapidOCROnTheseFiles):
        sys.exit("rapidocr_api_serve: rapidocr_api did not build its engine through RapidOCR (version changed?)")
    sys.argv = ["rapidocr_api", "--ip", "127.0.0.1", "--port", str(args.port)]
    rapidocr_api.main.main()


if __name__ == "__main__":
    main()
