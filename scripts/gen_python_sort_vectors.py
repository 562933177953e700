#!/usr/bin/env python3
"""Test vectors for the CPython list.sort port (Tests/Fixtures/python/python_sort_vectors.json).

Run with CPython 3.11 (the reference's version): sorted() with a non-transitive comparator
of the same shape as the reading-order one (centre difference against a margin), on random
points, for sizes that exercise binary insertion (< 64), run detection, powersort merging and
galloping. Deterministic (fixed seed)."""
import functools
import json
import random
import sys

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11"
rng = random.Random(20261129)


def make_case(n, vertical, mode):
    if mode == "columns":
        cols = [rng.uniform(0, 2000) for _ in range(max(1, n // 6))]
        pts = [(round(rng.choice(cols) + rng.gauss(0, 25), 1), round(rng.uniform(0, 3000), 1)) for _ in range(n)]
    elif mode == "ties":
        pts = [(float(rng.randrange(0, 8) * 10), float(rng.randrange(0, 6) * 10)) for _ in range(n)]
    else:  # presorted runs to trigger galloping
        base = sorted(rng.uniform(0, 5000) for _ in range(n))
        k = rng.randrange(1, 6)
        chunks = [base[i::k] for i in range(k)]
        flat = [v for c in chunks for v in (c if rng.random() < 0.5 else c[::-1])]
        pts = [(round(v, 1), round(rng.uniform(0, 100), 1)) for v in flat]
    margin = round(rng.uniform(5, 60), 2)

    def cmp(a, b):
        (x0, y0), (x1, y1) = a[1], b[1]
        if vertical:
            if margin < x1 - x0:
                return 1
            elif margin < x0 - x1:
                return -1
            return y0 - y1
        if margin < y0 - y1:
            return 1
        elif margin < y1 - y0:
            return -1
        return x0 - x1

    order = [i for i, _ in sorted(enumerate(pts), key=functools.cmp_to_key(cmp))]
    return {"vertical": vertical, "margin": margin, "points": [list(p) for p in pts], "order": order}


cases = []
for n in [0, 1, 2, 3, 5, 8, 13, 21, 40, 63, 64, 65, 100, 130, 257, 600, 1500]:
    for mode in ["columns", "ties", "runs"]:
        cases.append(make_case(n, vertical=rng.random() < 0.5, mode=mode))
json.dump({"generator": "scripts/gen_python_sort_vectors.py", "python": sys.version.split()[0], "cases": cases},
          open(sys.argv[1], "w"), separators=(",", ":"))
