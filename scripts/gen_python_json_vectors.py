#!/usr/bin/env python3
"""Test vectors for the json.dumps / repr(float) port (Tests/Fixtures/python/python_json_vectors.json).

Run with CPython 3.11: repr() of floats across magnitudes (incl. the fixed/exponent switch
points) and json.dumps(ensure_ascii=False, indent=2) of a nested document with awkward
strings. Deterministic (fixed seed)."""
import json
import random
import struct
import sys

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11"
rng = random.Random(7)
floats = [0.0, -0.0, 1.0, -1.0, 0.1, 0.812, 0.8125, 0.25000002980232239, 1e-4, 1e-5, 1.5e-5, 123456789.0,
          1e15, 1e16, 1e17, 9007199254740992.0, 1234567890123456.0, 12345678901234567.0, 5e-324,
          1.7976931348623157e308, 2.5, 100.0, 0.30000001192092896, 1e22, 1e-7, 0.001]
for _ in range(300):
    bits = rng.getrandbits(64)
    f = struct.unpack("<d", struct.pack("<Q", bits))[0]
    if f == f and f not in (float("inf"), float("-inf")):
        floats.append(f)
for _ in range(200):
    floats.append(round(rng.uniform(0, 1), 3))
    floats.append(float(struct.unpack("<f", struct.pack("<f", rng.uniform(0, 1)))[0]))
doc = {"contents": [[{"boundingBox": [[1, 2], [3, 4]], "id": 0, "text": " A&B <tag> \"q\" 's' \\path \t\n\r\b\f\x01\x1f\x7f 𠮷〓",
                      "confidence": 0.94, "empty": [], "obj": {}, "t": True, "f": False, "n": None}]],
       "imginfo": {"img_width": 645, "img_name": "ä b.png"}}
json.dump({"generator": "scripts/gen_python_json_vectors.py", "python": sys.version.split()[0],
           "floats": [[struct.unpack("<Q", struct.pack("<d", f))[0], repr(f)] for f in floats],
           "document_dumps": json.dumps(doc, ensure_ascii=False, indent=2)},
          open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=True)
