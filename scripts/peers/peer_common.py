"""What the peer runners (rapidocr_run.py, plain_ppocr.py) share: inputs, the no-network guard, the output.

Each runner reads the images named on its command line (or one path per line in --list FILE) and prints one
JSON object per image on standard output (JSON Lines), in input order:
    {"image": PATH, "lines": [{"text": STR, "score": FLOAT, "box": [[x, y] x 4]}], "seconds": FLOAT}
or, when the image cannot be read or the engine fails, {"image": PATH, "error": "one-line reason"}.
`lines` are in the engine's own output order; `seconds` is the wall time of that page (models loaded before).
"""
import argparse
import contextlib
import json
import socket
import sys

DEFAULT_MODELS = ".deps/models/ppocr"


def forbid_network():
    """Makes any attempt to open a network connection fail: the peers must run on the given files only."""

    def refuse(*args, **kwargs):
        raise RuntimeError("network access attempted by a peer engine (it must use the given model files)")

    socket.socket.connect = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse


@contextlib.contextmanager
def no_network():
    """forbid_network() for the length of a `with` block only (a server builds its engine under it, then binds)."""
    saved = socket.socket.connect, socket.create_connection, socket.getaddrinfo
    forbid_network()
    try:
        yield
    finally:
        socket.socket.connect, socket.create_connection, socket.getaddrinfo = saved


def parse_args(description, extra=None):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("images", nargs="*", help="image files")
    parser.add_argument("--list", help="file with one image path per line")
    parser.add_argument("--models", default=DEFAULT_MODELS,
                        help="folder with ppocrv5_{det,cls,rec}.onnx and ppocr_keys_v5.txt (default %(default)s)")
    if extra:
        extra(parser)
    args = parser.parse_args()
    paths = list(args.images)
    if args.list:
        with open(args.list, encoding="utf-8") as f:
            paths += [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    if not paths:
        parser.error("no images given")
    args.paths = paths
    return args


def emit(record):
    sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def box_list(points):
    """Four [x, y] corners as plain floats rounded to 0.1 px."""
    return [[round(float(x), 1), round(float(y), 1)] for x, y in points]
