"""`make sweep`: pages that vary one thing at a time, read by the release CLI, CER per family (docs/quality.md,
"The sweep").

    .deps/peers/bin/python scripts/quality/sweep.py [--out .build/sweep] [--families tilt,narrow]
        [--engines koten,tesseract] [--koten-args='--no-vertical-punctuation'] [--koten-before BIN] [--worst 3]
    .deps/peers/bin/python scripts/quality/sweep.py --fixtures Tests/Fixtures/sweep   (the test subset, below)

Renders every family of sweep_pages.py into OUT/pages (PNG, or JPEG for the JPEG family), reads them all with
koten-ocr in one process (`--mode ppocr --format json`, as `make quality` does: scripts/quality/engines.py), and
prints one markdown table: per family its pages, mean ordered CER, the worst page, the pages over 10 %, and the
worst cases by name. Per-page numbers and what was read go to OUT/results.json; each engine's raw output to OUT/run.
A benchmark: it never fails on a number. Metrics: metrics.py (the same as `make quality`).

--fixtures DIR writes the pages of `SUBSET` (a few of each family's hardest kinds) into DIR with their truth and
`cases.json`, for SweepTests (Tests/KotenOCRKitTests/Modes/PPOCR/SweepTests.swift), which reads them in `make test`.
"""
import argparse
import json
import os
import shlex
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engines  # noqa: E402
import metrics  # noqa: E402
import sweep_pages  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The pages SweepTests reads (name: the most ordered CER it allows). Each stands for a kind of loss issue 34 found
# and fixed; the bounds are what the model can do there (docs/quality.md, "The sweep").
SUBSET = {
    "tilt_v80__+0.5deg": 0.02,            # a long column judged upside down and emptied
    "jpeg_v40__q40": 0.03,                 # the same, after JPEG
    "tategaki_serif__32px-4col": 0.015,    # small kana of real tategaki
    "tategaki_sans__24px-1col": 0.01,
    "tategaki_sans__32px-4col": 0.0,       # a small kana read full-size (ュ as ユ): set small from its ink
    "narrow_v__64px": 0.02,                # a narrow vertical page
    "largepage_h__5000px": 0.01,           # small text on a very large page
    "pagenumber_h__bottom-left": 0.01,     # a page number read last
    "pagenumber_v__bottom-left": 0.02,
    "noise_v40__sp10pc": 0.01,             # salt and pepper on a vertical page: came back empty
}


def render(families, out):
    os.makedirs(out, exist_ok=True)
    pages = []
    for family in families:
        for page in sweep_pages.FAMILIES[family]():
            path = os.path.join(out, f"{page.name}.{page.ext}")
            page.save(path + ".part")
            os.replace(path + ".part", path)
            page.path = path
            pages.append(page)
    return pages


def parse_args():
    p = argparse.ArgumentParser(description="one-thing-at-a-time sweep (docs/quality.md)")
    p.add_argument("--out", default=os.path.join(ROOT, ".build/sweep"))
    p.add_argument("--families", default="", help="comma-separated, default all: " + ",".join(sweep_pages.FAMILIES))
    p.add_argument("--engines", default="koten", help="comma-separated: koten, tesseract (default %(default)s)")
    p.add_argument("--koten-bin", default=os.path.join(ROOT, ".build/release/koten-ocr"))
    p.add_argument("--koten-args", default="", help="extra koten-ocr flags")
    p.add_argument("--koten-before", default="", metavar="BIN",
                   help="another koten-ocr build (e.g. main's) read as a koten[before] column: before/after in one run")
    p.add_argument("--models", default=os.path.join(ROOT, ".deps/models"))
    p.add_argument("--worst", type=int, default=3, help="worst pages named per family")
    p.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), help="Tesseract pages at once")
    p.add_argument("--fixtures", default="", help="write the test subset into this folder and stop")
    return p.parse_args()


def write_fixtures(folder):
    by_family = {}
    for name in SUBSET:
        by_family.setdefault(name.split("__")[0].split("_")[0], []).append(name)
    os.makedirs(folder, exist_ok=True)
    cases = []
    for family, names in by_family.items():
        for page in sweep_pages.FAMILIES[family]():
            if page.name in names:
                page.save(os.path.join(folder, f"{page.name}.{page.ext}"))
                with open(os.path.join(folder, f"{page.name}.txt"), "w", encoding="utf-8") as f:
                    f.write("\n".join(page.lines) + "\n")
                cases.append({"name": page.name, "file": f"{page.name}.{page.ext}", "family": page.family,
                              "writing": page.writing, "maxCER": SUBSET[page.name]})
    missing = set(SUBSET) - {c["name"] for c in cases}
    if missing:
        sys.exit(f"sweep: no such page: {sorted(missing)}")
    with open(os.path.join(folder, "cases.json"), "w", encoding="utf-8") as f:
        json.dump(sorted(cases, key=lambda c: c["name"]), f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"sweep: {len(cases)} pages -> {folder}", file=sys.stderr)


def table(pages, names, scores, worst):
    head = ["family", "pages"] + [f"{n} {k}" for n in names for k in ("mean", "max", "> 10 %")] + ["worst (" + names[0] + ")"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    families = list(dict.fromkeys(p.family for p in pages))
    for family in families:
        members = [p for p in pages if p.family == family]
        cells = [family, str(len(members))]
        for n in names:
            values = [scores[n][p.name] for p in members]
            cells += [f"{100 * sum(values) / len(values):.1f}", f"{100 * max(values):.1f}",
                      str(sum(v > 0.10 for v in values))]
        ranked = sorted(members, key=lambda p: -scores[names[0]][p.name])[:worst]
        cells.append(", ".join(f"{p.value} {100 * scores[names[0]][p.name]:.1f}" for p in ranked
                               if scores[names[0]][p.name] > 0) or "—")
        out.append("| " + " | ".join(cells) + " |")
    total = ["**all pages**", str(len(pages))]
    for n in names:
        values = list(scores[n].values())
        total += [f"{100 * sum(values) / len(values):.1f}", f"{100 * max(values):.1f}", str(sum(v > 0.10 for v in values))]
    out.append("| " + " | ".join(total + [""]) + " |")
    return "\n".join(out)


def main():
    args = parse_args()
    if args.fixtures:
        write_fixtures(args.fixtures)
        return
    metrics.self_check()
    start = time.monotonic()
    families = [f.strip() for f in args.families.split(",") if f.strip()] or list(sweep_pages.FAMILIES)
    unknown = [f for f in families if f not in sweep_pages.FAMILIES]
    if unknown:
        sys.exit(f"sweep: unknown family {unknown[0]!r} ({', '.join(sweep_pages.FAMILIES)})")
    pages = render(families, os.path.join(args.out, "pages"))
    print(f"sweep: {len(pages)} pages rendered in {time.monotonic() - start:.0f} s", file=sys.stderr)
    run_dir = os.path.join(args.out, "run")
    os.makedirs(run_dir, exist_ok=True)
    paths = [p.path for p in pages]
    names, results = [], {}
    requested = [e.strip() for e in args.engines.split(",") if e.strip()]
    if args.koten_before:
        requested.append("koten[before]")
    for engine in requested:
        t = time.monotonic()
        if engine.startswith("koten"):
            binary = args.koten_before if engine == "koten[before]" else args.koten_bin
            if not os.access(binary, os.X_OK):
                sys.exit(f"sweep: {binary}: not built (make sweep builds it)")
            results[engine] = engines.koten(paths, run_dir, engine, binary, args.models, shlex.split(args.koten_args))
        elif engine == "tesseract":
            languages = {p.path: "jpn_vert" if p.writing == "vertical" else "jpn" for p in pages}
            results[engine] = engines.tesseract(paths, run_dir, engine, languages, args.jobs)
        else:
            sys.exit(f"sweep: unknown engine {engine!r} (koten, tesseract)")
        names.append(engine)
        print(f"sweep: {engine}: {len(paths)} pages in {time.monotonic() - t:.0f} s", file=sys.stderr)
    scores, record = {n: {} for n in names}, {}
    for page in pages:
        truth = metrics.normalise(page.lines)
        record[page.name] = {"family": page.family, "value": page.value, "image": page.path, "truth": truth}
        for n in names:
            out = results[n].get(page.path)
            read = metrics.normalise(out) if isinstance(out, list) else ""
            scores[n][page.name] = metrics.ordered_cer(read, truth)
            record[page.name][n] = {"cer": scores[n][page.name], "read": read if isinstance(out, list) else str(out)}
    text = table(pages, names, scores, args.worst)
    print(text)
    with open(os.path.join(args.out, "table.md"), "w", encoding="utf-8") as f:
        f.write(text + "\n")
    with open(os.path.join(args.out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(record, f, ensure_ascii=False, indent=1)
    print(f"sweep: {len(pages)} pages, {time.monotonic() - start:.0f} s; per page in {args.out}/results.json",
          file=sys.stderr)


if __name__ == "__main__":
    main()
