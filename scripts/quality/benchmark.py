"""`make quality`: text quality of koten-ocr beside RapidOCR and Tesseract, per page, as one markdown table.

    .deps/peers/bin/python scripts/quality/benchmark.py [--pages 'horizontal*,scaned0'] [--engines koten,rapidocr]
        [--koten-args='--det-max-side 1280'] [--koten-variant 'det1280=--det-max-side 1280' ...]
(write --koten-args=..., --rapidocr-args=..., --plain-args=... with '=': their values start with '--')

Pages: the rendered corpus (scripts/quality/render_corpus.py, in .build/quality/corpus) and the reference pages
below. Numbers: metrics.py. Engines: engines.py. Raw outputs, the table and results.json go to --run-dir.
A benchmark, not a test: it never fails on a number.
"""
import argparse
import fnmatch
import json
import os
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines  # noqa: E402
import metrics  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
NDL = "Tests/Fixtures/images/ndlocr-lite"
SCANED0_FIX = ("水産振興活動", "漁村振興活動")  # the one error in scaned0.txt (Tests/Fixtures/images/SOURCES.md)

# name, image, truth, writing direction of the body (Tesseract's language follows it)
REFERENCES = [
    ("scaned0", "samples/scaned0.png", "Tests/Fixtures/images/ndlocr-lite-rs/scaned0.txt", "horizontal"),
    ("ndl:digidepo_2531162_0024", f"{NDL}/digidepo_2531162_0024.jpg",
     f"{NDL}/digidepo_2531162_0024.ndlocr-lite-output.txt", "horizontal"),
    ("ndl:geppo1803_00021", f"{NDL}/digidepo_11048278_po_geppo1803_00021.jpg",
     f"{NDL}/digidepo_11048278_po_geppo1803_00021.ndlocr-lite-output.txt", "vertical"),
    ("ndl:tategaki", f"{NDL}/tategaki2026-04-24-094138.png",
     f"{NDL}/tategaki2026-04-24-094138.ndlocr-lite-output.txt", "vertical"),
    ("tategaki (hand truth)", f"{NDL}/tategaki2026-04-24-094138.png",
     "scripts/quality/truths/tategaki2026-04-24-094138.hand.txt", "vertical"),
    ("ndl:yokogaki", f"{NDL}/yokogaki2026-04-24-103617.png",
     f"{NDL}/yokogaki2026-04-24-103617.ndlocr-lite-output.txt", "horizontal"),
]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def corpus_pages(corpus):
    index = os.path.join(corpus, "index.json")
    if not os.path.isfile(index):
        sys.exit(f"quality: {index}: corpus not rendered (make quality renders it)")
    with open(index, encoding="utf-8") as f:
        names = json.load(f)
    pages = []
    for name in names:
        with open(os.path.join(corpus, f"{name}.meta.json"), encoding="utf-8") as f:
            meta = json.load(f)
        pages.append({"name": name, "image": os.path.join(corpus, meta.get("file", f"{name}.png")), "writing": meta["writing"],
                      "truth": read_lines(os.path.join(corpus, f"{name}.truth.txt")), "twin": meta["twin"]})
    return pages


def reference_pages():
    pages = []
    for name, image, truth, writing in REFERENCES:
        lines = read_lines(os.path.join(ROOT, truth))
        if name == "scaned0":
            lines = [line.replace(*SCANED0_FIX) for line in lines]
        pages.append({"name": name, "image": os.path.join(ROOT, image), "writing": writing, "truth": lines,
                      "twin": None})
    return pages


def parse_args():
    p = argparse.ArgumentParser(description="text-quality benchmark (docs/quality.md)")
    p.add_argument("--corpus", default=os.path.join(ROOT, ".build/quality/corpus"))
    p.add_argument("--run-dir", default=os.path.join(ROOT, ".build/quality/run"))
    p.add_argument("--pages", default="", help="comma-separated name patterns (fnmatch), default all")
    p.add_argument("--engines", default="koten,rapidocr,tesseract",
                   help="comma-separated: koten, rapidocr, tesseract, plain (default %(default)s)")
    p.add_argument("--koten-bin", default=os.path.join(ROOT, ".build/release/koten-ocr"))
    p.add_argument("--koten-args", default="", help="extra koten-ocr flags for the koten column")
    p.add_argument("--koten-before", default="", metavar="BIN",
                   help="another koten-ocr build (e.g. main's) as a koten[before] column beside koten: before/after in one run")
    p.add_argument("--koten-variant", action="append", default=[], metavar="NAME=ARGS[;NAME=ARGS...]",
                   help="more koten-ocr columns, each with its flags (repeatable, or ';'-separated)")
    p.add_argument("--rapidocr-args", default="", help="extra rapidocr_run.py flags, e.g. --param Det.thresh=0.3")
    p.add_argument("--plain-args", default="", help="extra plain_ppocr.py flags, e.g. --det-max-side 1280")
    p.add_argument("--models", default=os.path.join(ROOT, ".deps/models"))
    p.add_argument("--python", default=os.path.join(ROOT, ".deps/peers/bin/python"))
    p.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), help="Tesseract pages at once")
    return p.parse_args()


def columns(args):
    """[(column name, runner(paths, languages) -> results)] in table order."""
    scripts = os.path.join(ROOT, "scripts/peers")
    cols = []
    for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
        if engine == "koten":
            variants = [("koten", args.koten_args)] + [
                (f"koten[{v.partition('=')[0].strip()}]", v.partition("=")[2])
                for item in args.koten_variant for v in item.split(";") if v.strip()]
            binaries = [(name, extra, args.koten_bin) for name, extra in variants]
            if args.koten_before:
                binaries.append(("koten[before]", args.koten_args, args.koten_before))
            for name, extra, binary in binaries:
                cols.append((name, lambda paths, langs, n=name, x=extra, b=binary: engines.koten(
                    paths, args.run_dir, n, b, args.models, shlex.split(x))))
        elif engine in ("rapidocr", "plain"):
            runner = getattr(engines, engine)
            extra = shlex.split(args.rapidocr_args if engine == "rapidocr" else args.plain_args)
            cols.append((engine, lambda paths, langs, r=runner, e=engine, x=extra: r(
                paths, args.run_dir, e, args.python, scripts, x)))
        elif engine == "tesseract":
            cols.append(("tesseract", lambda paths, langs: engines.tesseract(
                paths, args.run_dir, "tesseract", langs, args.jobs)))
        else:
            sys.exit(f"quality: unknown engine {engine!r} (koten, rapidocr, tesseract, plain)")
    return cols


def check_tools(args, cols):
    names = [name for name, _ in cols]
    if any(n.startswith("koten") for n in names) and not os.access(args.koten_bin, os.X_OK):
        sys.exit(f"quality: {args.koten_bin}: not built (make quality builds it)")
    if any(n in ("rapidocr", "plain") for n in names) and not os.access(args.python, os.X_OK):
        sys.exit(f"quality: {args.python}: peers not installed (make peers)")


def versions(args, names):
    found = []
    if any(n.startswith("koten") for n in names):
        out = subprocess.run([args.koten_bin, "--version"], capture_output=True, text=True).stdout.strip()
        found.append(" ".join(out.split()))
    if "rapidocr" in names or "plain" in names:
        code = "import importlib.metadata as m; print('peers venv: rapidocr', m.version('rapidocr'), " \
               "'/ onnxruntime', m.version('onnxruntime'), '/ opencv', m.version('opencv-python-headless'))"
        found.append(subprocess.run([args.python, "-c", code], capture_output=True, text=True).stdout.strip())
    if "tesseract" in names:
        out = subprocess.run(["tesseract", "--version"], capture_output=True, text=True)
        found.append((out.stdout or out.stderr).splitlines()[0])
    return "; ".join(found)


def percent(x):
    return "—" if x is None else f"{100 * x:.1f}"


def score(pages, names, results):
    """{page: {column: (ordered, order-free) or None}} and per column the character totals."""
    table, totals = {}, {n: [0, 0, 0, 0] for n in names}   # ordered dist, bag dist, truth chars, pages failed
    for page in pages:
        truth = metrics.normalise(page["truth"])
        row = {}
        for n in names:
            out = results[n].get(page["image"])
            if not isinstance(out, list):
                row[n] = None
                totals[n][3] += 1
                continue
            hyp = metrics.normalise(out)
            o, b = metrics.ordered_cer(hyp, truth), metrics.order_free_error(hyp, truth)
            row[n] = (o, b)
            totals[n][0] += o * len(truth)
            totals[n][1] += b * len(truth)
            totals[n][2] += len(truth)
        table[page["name"]] = row
    return table, totals


def markdown(pages, names, table, totals):
    lang = ["Tesseract -l"] if "tesseract" in names else []
    head = ["page", "chars"] + lang + [f"{n} {k}" for n in names for k in ("ordered", "order-free")]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for page in pages:
        cells = [page["name"], str(len(metrics.normalise(page["truth"])))]
        cells += ["jpn_vert" if page["writing"] == "vertical" else "jpn"] if lang else []
        for n in names:
            v = table[page["name"]][n]
            cells += ["fail", "fail"] if v is None else [percent(v[0]), percent(v[1])]
        out.append("| " + " | ".join(cells) + " |")
    mean = ["**mean of pages**", ""] + [""] * len(lang)
    micro = ["**all characters**", str(sum(len(metrics.normalise(p["truth"])) for p in pages))] + [""] * len(lang)
    for n in names:
        vals = [table[p["name"]][n] for p in pages if table[p["name"]][n] is not None]
        for k in (0, 1):
            mean.append(percent(sum(v[k] for v in vals) / len(vals)) if vals else "—")
            micro.append(percent(totals[n][k] / totals[n][2]) if totals[n][2] else "—")
    out += ["| " + " | ".join(mean) + " |", "| " + " | ".join(micro) + " |"]
    return "\n".join(out)


def twins_markdown(pages, names, table):
    rows = [p for p in pages if p["twin"] and p["twin"] in table]
    if not rows:
        return ""
    out = ["| page | twin | " + " | ".join(f"{n} Δ ordered" for n in names) + " |", "|" + "---|" * (2 + len(names))]
    for page in rows:
        cells = [page["name"], page["twin"]]
        for n in names:
            a, b = table[page["name"]][n], table[page["twin"]][n]
            cells.append("—" if a is None or b is None else f"{100 * (a[0] - b[0]):+.1f}")
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    args = parse_args()
    metrics.self_check()
    start = time.monotonic()
    os.makedirs(args.run_dir, exist_ok=True)
    for name in os.listdir(args.run_dir):          # only what an earlier run wrote, so no stale column lingers
        if name.endswith((".jsonl", ".log", ".inputs.txt")) or name in ("table.md", "results.json"):
            os.remove(os.path.join(args.run_dir, name))
    cols = columns(args)
    names = [n for n, _ in cols]
    check_tools(args, cols)
    pages = corpus_pages(args.corpus) + reference_pages()
    patterns = [p.strip() for p in args.pages.split(",") if p.strip()]
    if patterns:
        pages = [p for p in pages if any(fnmatch.fnmatchcase(p["name"], pat) for pat in patterns)]
        if not pages:
            sys.exit(f"quality: no page matches {args.pages!r}")
    # a twin's base is measured too, so the twin table has both sides
    wanted = {p["name"] for p in pages} | {p["twin"] for p in pages if p["twin"]}
    pages = [p for p in corpus_pages(args.corpus) + reference_pages() if p["name"] in wanted]
    paths = list(dict.fromkeys(p["image"] for p in pages))
    languages = {p["image"]: "jpn_vert" if p["writing"] == "vertical" else "jpn" for p in pages}

    results = {}
    for name, run in cols:
        t = time.monotonic()
        try:
            results[name] = run(paths, languages)
        except engines.EngineError as e:
            print(f"quality: {name}: {e}", file=sys.stderr)
            results[name] = {}
        print(f"quality: {name}: {len(paths)} images in {time.monotonic() - t:.0f} s", file=sys.stderr)

    table, totals = score(pages, names, results)
    header = f"Engines: {versions(args, names)}"
    for label, flags in (("koten", args.koten_args), ("rapidocr", args.rapidocr_args), ("plain", args.plain_args)):
        if flags and label in names:
            header += f"\n{label} column flags: {flags}"
    twins = twins_markdown(pages, names, table)
    text = "\n\n".join([header, markdown(pages, names, table, totals)]
                       + (["Twins (ordered CER minus the twin's, percentage points):", twins] if twins else []))
    print(text)
    with open(os.path.join(args.run_dir, "table.md"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    with open(os.path.join(args.run_dir, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"pages": {p["name"]: {"image": p["image"], **{n: table[p["name"]][n] for n in names}}
                             for p in pages}}, f, ensure_ascii=False, indent=1)
    print(f"quality: {len(pages)} pages, {len(names)} engine columns, {time.monotonic() - start:.0f} s; "
          f"raw outputs in {args.run_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
