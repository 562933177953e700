"""The engines `make quality` runs, each over a list of pages, each returning {image path: lines or error}.

koten-ocr   one process for all pages: `koten-ocr --mode ppocr --models DIR --format json -q [ARGS] --input-list F`
            (JSON Lines on standard output); the text is the JSON's lines in their listed (reading) order,
            except lines whose `kind` is `ruby` (the truth is the body text) and lines flagged `lowConfidence`
            (left out of koten-ocr's text outputs: the measure is of the text a user gets).
rapidocr    one process: scripts/peers/rapidocr_run.py (RapidOCR 3.10 defaults on the PP-OCRv5 files); its order.
tesseract   one process per page: `tesseract IMAGE stdout -l LANG` (default --psm 3), LANG jpn for pages written
            horizontally, jpn_vert for vertical ones; OMP_THREAD_LIMIT=1, pages run side by side on the CPUs.
plain       one process: scripts/peers/plain_ppocr.py (OpenCV + ONNX Runtime, 960, no classifier); top-then-left.
Every engine's raw output is kept in the run folder (<engine>.jsonl / .log) for inspection.
"""
import json
import os
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor


class EngineError(Exception):
    pass


def _write_list(run_dir, name, paths):
    path = os.path.join(run_dir, f"{name}.inputs.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(paths) + "\n")
    return path


def _run(cmd, run_dir, name, env=None):
    """Runs `cmd`, keeps standard output in <name>.jsonl and standard error in <name>.log; returns stdout."""
    out_path, log_path = (os.path.join(run_dir, f"{name}.{ext}") for ext in ("jsonl", "log"))
    with open(out_path, "wb") as out, open(log_path, "wb") as log:
        log.write(("$ " + shlex.join(cmd) + "\n").encode())
        log.flush()
        code = subprocess.run(cmd, stdout=out, stderr=log, env=env).returncode
    with open(out_path, encoding="utf-8") as f:
        return code, f.read(), log_path


def koten(paths, run_dir, name, binary, models, extra_args):
    cmd = [binary, "--mode", "ppocr", "--models", models, "--format", "json", "-q", *extra_args,
           "--input-list", _write_list(run_dir, name, paths)]
    code, stdout, log = _run(cmd, run_dir, name)
    results = {p: f"no result (exit {code}, see {log})" for p in paths}
    for line in stdout.splitlines():
        page = json.loads(line)
        source = os.path.realpath(page["source"]["path"])
        for p in paths:
            if os.path.realpath(p) == source:
                results[p] = [l["text"] for l in page["lines"]
                              if l.get("kind") != "ruby" and not l.get("lowConfidence")]
    if code not in (0, 1):
        raise EngineError(f"koten-ocr exited {code}: see {log}")
    return results


def _peer_jsonl(script, paths, run_dir, name, python, extra_args):
    cmd = [python, script, *extra_args, "--list", _write_list(run_dir, name, paths)]
    code, stdout, log = _run(cmd, run_dir, name)
    if code != 0:
        raise EngineError(f"{os.path.basename(script)} exited {code}: see {log}")
    results = {}
    for line in stdout.splitlines():
        record = json.loads(line)
        results[record["image"]] = record.get("error") or [l["text"] for l in record["lines"]]
    return {p: results.get(p, "no result") for p in paths}


def rapidocr(paths, run_dir, name, python, scripts_dir, extra_args):
    return _peer_jsonl(os.path.join(scripts_dir, "rapidocr_run.py"), paths, run_dir, name, python, extra_args)


def plain(paths, run_dir, name, python, scripts_dir, extra_args):
    return _peer_jsonl(os.path.join(scripts_dir, "plain_ppocr.py"), paths, run_dir, name, python, extra_args)


def tesseract(paths, run_dir, name, languages, workers):
    """`languages` maps each path to jpn or jpn_vert."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1")

    def one(path):
        proc = subprocess.run(["tesseract", path, "stdout", "-l", languages[path]], capture_output=True, env=env)
        if proc.returncode != 0:
            return path, f"tesseract exited {proc.returncode}: {proc.stderr.decode(errors='replace').strip()}"
        return path, proc.stdout.decode("utf-8").splitlines()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = dict(pool.map(one, paths))
    with open(os.path.join(run_dir, f"{name}.jsonl"), "w", encoding="utf-8") as f:
        for p in paths:
            f.write(json.dumps({"image": p, "lang": languages[p], "lines": results[p]}, ensure_ascii=False) + "\n")
    return results
