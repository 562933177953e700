#!/usr/bin/env python3
"""Generates stand-in ONNX models for KotenOCR's `ndl` and `koten` modes.

NDL's real weights (CC BY 4.0) cannot be downloaded on the build machines, so the `ndl` and `koten` code paths
and the memory benchmark run on stand-ins: random weights, but the real tensor names, dtypes and shapes
(docs/reference-pipelines.md §1.2, §1.5, §2.1, §2.2; parity README §2–3.1), the real file sizes, and layers shaped
like the real networks at the real input size (docs/memory-design.md: "shape-alike, not just size-alike"), so that
their resident memory and activation peaks mean something. They are NOT NDL's models and read nothing.

Usage:  .deps/venv/bin/python scripts/make-standins.py OUT_DIR [--ndl-version 1.2|1.0] [--mode all|ndl|koten]
                                                       [--koten-detector-size 1280]
Needs only `onnx` and `numpy` (scripts/requirements-standins.txt). Deterministic: a fixed seed per model, so a
re-run writes identical bytes; the SHA-256 of every file is printed and written to OUT_DIR/STANDIN.md.
Files are written to a temporary name and renamed, so a half-written model never exists under its real name.
"""
import argparse
import contextlib
import hashlib
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

GENERATOR_VERSION = "1"
IR_VERSION = 8      # loadable by every supported ONNX Runtime (1.21–1.32)
OPSET = 17          # what NDL's own exports use (PARSeq convert2onnx: opset_version=17)
SEED = 20261129

# Published file sizes (docs/memory-design.md, docs/reference-pipelines.md §5, koten ports) read as MiB:
# PARSeq-tiny with a 7141-character charset has 8.73 M float32 parameters = 34.9e6 bytes, which cannot fit in
# "34.2 MB" read as 10^6 bytes, so the published figures are binary megabytes (2^20), as GitHub and `ls -h` print.
SIZE_UNIT = 1 << 20
TOLERANCE = 0.02    # every file within ±2 % of its target

NUM_CLASSES = 17                # ndl.yaml classes; DEIM labels are 1-based (1..17)
CHARSET_SIZE = 7141             # NDLmoji.yaml model.charset_train, in code points
VOCAB_OUT = CHARSET_SIZE + 1    # logits: 0 = EOS, k = charset[k-1]
VOCAB_EMBED = CHARSET_SIZE + 3  # + BOS (7142) and PAD (7143), graph-internal
ASTRAL_INDICES = (7081, 7111, 7116, 7127)
FE0E_INDEX = 7133

NDL_CLASSES = [
    "text_block", "line_main", "line_caption", "line_ad", "line_note", "line_note_tochu", "block_fig", "block_ad",
    "block_pillar", "block_folio", "block_rubi", "block_chart", "block_eqn", "block_cfm", "block_eng", "block_table",
    "line_title",
]

# File names as NDL publishes them (NDLOCR-Lite src/model, NDL Koten OCR-Lite src/model).
NDL_FILES = {
    "1.2": {
        "detector": "deim-s-1024x1024.onnx",
        "recogniser30": "parseq-ndl-24x256-30-tiny-189epoch-tegaki3-r8data-202604.onnx",
        "recogniser50": "parseq-ndl-24x384-50-tiny-300epoch-tegaki3-r8data-202604.onnx",
        "recogniser100": "parseq-ndl-24x768-100-tiny-153epoch-tegaki3-r8data-202604.onnx",
    },
    "1.0": {
        "detector": "deim-s-1024x1024.onnx",
        "recogniser30": "parseq-ndl-16x256-30-tiny-192epoch-tegaki3.onnx",
        "recogniser50": "parseq-ndl-16x384-50-tiny-146epoch-tegaki2.onnx",
        "recogniser100": "parseq-ndl-16x768-100-tiny-165epoch-tegaki2.onnx",
    },
}
NDL_RECOGNISER_HEIGHT = {"1.2": 24, "1.0": 16}
# (role, input width, max label length, published size in SIZE_UNITs, decoded length of the stand-in)
NDL_RECOGNISERS = [
    ("recogniser30", 256, 30, 34.2, 12),
    ("recogniser50", 384, 50, 35.2, 30),
    ("recogniser100", 768, 100, 39.1, 60),
]
NDL_DETECTOR_SIZE = 38.4
KOTEN_DETECTOR = ("rtmdet-s-1280x1280.onnx", 38.3)
KOTEN_RECOGNISER = ("parseq-ndl-32x384-tiny-10.onnx", 36.0, 32, 384, 100, 24)


# ---------------------------------------------------------------------------------------------------------------
# Graph builder: static shapes tracked by hand, weights from one seeded generator per model.

class Graph:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes, self.initializers, self.plan = [], [], []
        self.count = 0
        self.params = 0
        self.shared, self.scope = {}, None
        self.pending = None
        self.size_matching_bytes = 0

    def name(self, base):
        self.count += 1
        return f"{base}_{self.count}"

    def const(self, array, base="const"):
        name = self.name(base)
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def i64(self, values):
        return self.const(np.array(values, dtype=np.int64), "i64")

    def f32(self, values):
        return self.const(np.array(values, dtype=np.float32), "f32")

    @contextlib.contextmanager
    def sharing(self, key):
        """Weights created inside are created once per key and reused, in the same order, on later entries
        (one layer run twice, e.g. PARSeq's decoder in its first and refinement passes)."""
        self.scope = (self.shared.setdefault(key, []), [0])
        try:
            yield
        finally:
            self.scope = None

    def weight(self, shape, std, mean=0.0, base="w"):
        if self.scope is not None:
            store, position = self.scope
            position[0] += 1
            if position[0] <= len(store):
                return store[position[0] - 1]
        n = int(np.prod(shape))
        self.params += n
        array = (self.rng.standard_normal(n, dtype=np.float32) * np.float32(std) + np.float32(mean)).reshape(shape)
        name = self.const(array, base)
        if self.scope is not None:
            self.scope[0].append(name)
        return name

    def op(self, op_type, inputs, outputs=1, **attrs):
        outs = [self.name(op_type.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=self.name("n_" + op_type), **attrs))
        return outs[0] if outputs == 1 else outs

    def note(self, stage, layers, shape):
        """Records one stage of the layer plan (STANDIN.md) with its output activation size."""
        elements = int(np.prod(shape))
        self.plan.append((stage, layers, "×".join(str(d) for d in shape), elements * 4 / 1e6))

    # --- layers ---------------------------------------------------------------------------------------------

    def act(self, x, kind):
        if kind is None:
            return x
        if kind == "relu":
            return self.op("Relu", [x])
        if kind == "silu":
            return self.op("Mul", [x, self.op("Sigmoid", [x])])
        if kind == "gelu":  # the erf form torch exports; ONNX Runtime fuses it into Gelu
            e = self.op("Erf", [self.op("Div", [x, self.f32(np.sqrt(2.0))])])
            return self.op("Mul", [self.op("Mul", [x, self.op("Add", [e, self.f32(1.0)])]), self.f32(0.5)])
        raise ValueError(kind)

    def conv(self, x, cin, cout, k, stride=1, groups=1, act=None, pad=None):
        kh, kw = (k, k) if isinstance(k, int) else k
        sh, sw = (stride, stride) if isinstance(stride, int) else stride
        if pad is None:
            pad = (kh // 2, kw // 2) if (sh, sw) == (1, 1) or kh > sh else (0, 0)
        fan_in = (cin // groups) * kh * kw
        w = self.weight((cout, cin // groups, kh, kw), np.sqrt(2.0 / fan_in))
        b = self.weight((cout,), 0.01)
        y = self.op("Conv", [x, w, b], kernel_shape=[kh, kw], strides=[sh, sw], group=groups,
                    pads=[pad[0], pad[1], pad[0], pad[1]])
        return self.act(y, act)

    def linear(self, x, din, dout, act=None, std=None):
        w = self.weight((din, dout), std if std is not None else np.sqrt(1.0 / din))
        b = self.weight((dout,), 0.01)
        return self.act(self.op("Add", [self.op("MatMul", [x, w]), b]), act)

    def layer_norm(self, x, dim):
        scale = self.weight((dim,), 0.02, mean=1.0)
        bias = self.weight((dim,), 0.02)
        return self.op("LayerNormalization", [x, scale, bias], axis=-1, epsilon=1e-6)

    def heads(self, x, tokens, dim, heads, transpose_for_keys=False):
        y = self.op("Reshape", [x, self.i64([1, tokens, heads, dim // heads])])
        return self.op("Transpose", [y], perm=[0, 2, 3, 1] if transpose_for_keys else [0, 2, 1, 3])

    def attention(self, q_in, kv_in, nq, nkv, dim, heads):
        """Multi-head attention as torch exports it: scores [1, heads, nq, nkv] are materialised."""
        q = self.heads(self.linear(q_in, dim, dim), nq, dim, heads)
        q = self.op("Mul", [q, self.f32(1.0 / np.sqrt(dim // heads))])
        k = self.heads(self.linear(kv_in, dim, dim), nkv, dim, heads, transpose_for_keys=True)
        v = self.heads(self.linear(kv_in, dim, dim), nkv, dim, heads)
        p = self.op("Softmax", [self.op("MatMul", [q, k])], axis=-1)
        o = self.op("Transpose", [self.op("MatMul", [p, v])], perm=[0, 2, 1, 3])
        o = self.op("Reshape", [o, self.i64([1, nq, dim])])
        return self.linear(o, dim, dim)

    def mlp(self, x, dim, hidden, act="gelu"):
        return self.linear(self.linear(x, dim, hidden, act=act), hidden, dim)

    def vit_block(self, x, tokens, dim, heads, hidden):
        """Pre-norm transformer block (timm ViT, DINOv3, PARSeq encoder)."""
        n = self.layer_norm(x, dim)
        x = self.op("Add", [x, self.attention(n, n, tokens, tokens, dim, heads)])
        return self.op("Add", [x, self.mlp(self.layer_norm(x, dim), dim, hidden)])

    def tokens_of(self, x, channels, h, w):
        """[1, C, H, W] → [1, H·W, C]."""
        return self.op("Transpose", [self.op("Reshape", [x, self.i64([1, channels, h * w])])], perm=[0, 2, 1])

    def map_of(self, t, channels, h, w):
        """[1, H·W, C] → [1, C, H, W]."""
        return self.op("Reshape", [self.op("Transpose", [t], perm=[0, 2, 1]), self.i64([1, channels, h, w])])

    def resize(self, x, scale, mode):
        return self.op("Resize", [x, "", self.f32([1, 1, scale, scale])], mode=mode)

    def size_matching(self, vector, width, into):
        """The size-matching block: the weights of the parts of the real graph not modelled layer by layer
        (exported constants, unrolled decoding steps, ...), as one float32 table [width, rows] read by a
        data-dependent Gather (so ONNX Runtime can neither fold nor drop it). Its row mean, × 1e-3, is added to
        `into`, a pre-activation it shifts negligibly. `rows` is chosen in `model` so the file hits its target."""
        self.pending = (self.name("size_matching"), width)
        index = self.op("ArgMax", [vector], axis=1, keepdims=0)            # [1] int64, data-dependent
        row = self.op("Gather", [self.pending[0], index], axis=0)          # [1, rows]
        shift = self.op("Mul", [self.op("ReduceMean", [row], keepdims=0), self.f32(1e-3)])
        return self.op("Add", [into, shift])

    def model(self, inputs, outputs, doc, target_bytes):
        if self.pending:
            name, width = self.pending
            placeholder = numpy_helper.from_array(np.zeros((width, 1), dtype=np.float32), name)
            base = self._model(inputs, outputs, doc, [placeholder]).ByteSize() - 4 * width
            rows = (target_bytes - base) // (4 * width)
            if rows < 1:
                raise SystemExit(f"size matching: the layers alone are {base} bytes, over the target {target_bytes}")
            self.params += width * rows
            self.size_matching_bytes = 4 * width * rows
            table = self.rng.standard_normal(width * rows, dtype=np.float32).reshape(width, rows) * np.float32(0.02)
            return self._model(inputs, outputs, doc, [numpy_helper.from_array(table, name)])
        return self._model(inputs, outputs, doc, [])

    def _model(self, inputs, outputs, doc, extra):
        graph = helper.make_graph(self.nodes, "standin", inputs, outputs, self.initializers + extra)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION,
                                  producer_name="koten-ocr/make-standins", producer_version=GENERATOR_VERSION,
                                  doc_string=doc)
        helper.set_model_props(model, {"koten-ocr.standin": "true"})
        return model


def value(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


# ---------------------------------------------------------------------------------------------------------------
# DEIMv2-S (NDLOCR-Lite layout detector): ViT-Tiny (DINOv3 distilled, dim 192, 3 heads, 12 blocks, patch 16) with
# interaction features from blocks 3/7/11, a conv spatial prior (STA-like), HybridEncoder (hidden 192, AIFI on
# stride 32, FFN 512), 4 decoder layers over 300 queries, DEIM's post-processor (top-300 over query×class).

def build_deim(seed):
    g = Graph(seed)
    S, D, Q = 800, 192, 300
    images, sizes = "images", "orig_target_sizes"
    # Spatial prior: stride-2 convs, 32 → 64 → 128 → 256 → 256 channels, strides 2..32.
    c1 = g.conv(images, 3, 32, 3, 2, act="relu");       g.note("prior c1", "Conv 3→32 k3 s2 + ReLU", [1, 32, 400, 400])
    c2 = g.conv(c1, 32, 64, 3, 2, act="relu");          g.note("prior c2", "Conv 32→64 k3 s2 + ReLU (stride 4)", [1, 64, 200, 200])
    c3 = g.conv(c2, 64, 128, 3, 2, act="relu");         g.note("prior c3", "Conv 64→128 k3 s2 + ReLU (stride 8)", [1, 128, 100, 100])
    c4 = g.conv(c3, 128, 256, 3, 2, act="relu");        g.note("prior c4", "Conv 128→256 k3 s2 + ReLU (stride 16)", [1, 256, 50, 50])
    c5 = g.conv(c4, 256, 256, 3, 2, act="relu");        g.note("prior c5", "Conv 256→256 k3 s2 + ReLU (stride 32)", [1, 256, 25, 25])
    # ViT-Tiny over 50×50 patches plus 5 learned tokens (class + 4 registers): global attention over 2505 tokens.
    n = (S // 16) ** 2
    t = g.tokens_of(g.conv(images, 3, D, 16, 16), D, 50, 50)
    t = g.op("Concat", [g.weight((1, 5, D), 0.02), t], axis=1)
    g.note("ViT patch embed", "Conv 3→192 k16 s16, + 5 tokens", [1, n + 5, D])
    taps = []
    for i in range(12):
        t = g.vit_block(t, n + 5, D, 3, 4 * D)
        if i in (3, 7, 11):
            taps.append(g.map_of(g.op("Slice", [t, g.i64([5]), g.i64([n + 5]), g.i64([1])]), D, 50, 50))
    g.note("ViT blocks ×12", "pre-norm, 3 heads, MLP 768; scores 3×2505×2505 per block", [1, 3, n + 5, n + 5])
    f8 = g.resize(taps[0], 2.0, "linear")
    f32 = g.resize(taps[2], 0.5, "linear")
    s8 = g.conv(g.op("Concat", [f8, c3], axis=1), D + 128, D, 1, act="relu")
    s16 = g.conv(g.op("Concat", [taps[1], c4], axis=1), D + 256, D, 1, act="relu")
    s32 = g.conv(g.op("Concat", [f32, c5], axis=1), D + 256, D, 1, act="relu")
    g.note("fusion", "blocks 3/7/11 at strides 8/16/32 ⊕ prior, Conv 1×1 → 192", [1, D, 100, 100])
    # HybridEncoder: AIFI (post-norm transformer layer, 8 heads, FFN 512) on stride 32, then CCFF.
    a = g.tokens_of(s32, D, 25, 25)
    a = g.layer_norm(g.op("Add", [a, g.attention(a, a, 625, 625, D, 8)]), D)
    a = g.layer_norm(g.op("Add", [a, g.mlp(a, D, 512)]), D)
    s32 = g.map_of(a, D, 25, 25)
    g.note("AIFI", "transformer layer on 25×25 tokens, 8 heads, FFN 512", [1, 625, D])

    def fuse(x, cin):
        y = g.conv(x, cin, D, 1, act="relu")
        z = g.conv(g.conv(y, D, D, 3, groups=D, act="relu"), D, D, 1, act="relu")
        return g.op("Add", [y, z])

    def down(x):  # SCDown: pointwise, then depthwise 3×3 stride 2
        return g.conv(g.conv(x, D, D, 1, act="relu"), D, D, 3, 2, groups=D, act="relu")

    l32 = g.conv(s32, D, D, 1, act="relu")
    td16 = fuse(g.op("Concat", [g.resize(l32, 2.0, "nearest"), s16], axis=1), 2 * D)
    l16 = g.conv(td16, D, D, 1, act="relu")
    out8 = fuse(g.op("Concat", [g.resize(l16, 2.0, "nearest"), s8], axis=1), 2 * D)
    out16 = fuse(g.op("Concat", [down(out8), l16], axis=1), 2 * D)
    out32 = fuse(g.op("Concat", [down(out16), l32], axis=1), 2 * D)
    g.note("CCFF", "top-down + bottom-up fusion, 192 channels at strides 8/16/32", [1, D, 100, 100])
    # Query selection over all 13125 encoder tokens (each with an anchor box), then 4 decoder layers over the
    # 300 selected queries, each with its reference box and a position embedding of it (query_pos_head).
    levels = ((100, 0.05), (50, 0.1), (25, 0.2))
    m = g.op("Concat", [g.tokens_of(out8, D, 100, 100), g.tokens_of(out16, D, 50, 50),
                        g.tokens_of(out32, D, 25, 25)], axis=1)
    tokens = sum(n * n for n, _ in levels)
    anchors = []
    for n, size in levels:
        centres = (np.arange(n, dtype=np.float64) + 0.5) / n
        cy, cx = np.meshgrid(centres, centres, indexing="ij")
        anchors.append(np.stack([cx.ravel(), cy.ravel(), np.full(n * n, size), np.full(n * n, size)], axis=1))
    anchors = np.concatenate(anchors)
    anchor_logits = g.const(np.log(anchors / (1 - anchors)).astype(np.float32)[None], "anchors")
    m = g.layer_norm(g.linear(m, D, D), D)
    enc_score = g.op("ReduceMax", [g.linear(m, D, NUM_CLASSES)], axes=[2], keepdims=0)
    enc_ref = g.op("Add", [g.linear(g.linear(g.linear(m, D, D, act="relu"), D, D, act="relu"), D, 4, std=0.01),
                           anchor_logits])
    _, top = g.op("TopK", [enc_score, g.i64([Q])], outputs=2, axis=1)
    top = g.op("Reshape", [top, g.i64([Q])])
    q = g.op("Reshape", [g.op("Gather", [g.op("Reshape", [m, g.i64([tokens, D])]), top], axis=0), g.i64([1, Q, D])])
    ref = g.op("Reshape", [g.op("Gather", [g.op("Reshape", [enc_ref, g.i64([tokens, 4])]), top], axis=0),
                           g.i64([1, Q, 4])])
    g.note("query selection", f"{tokens} tokens with anchors → linear+LN → class score → TopK 300", [1, tokens, D])
    pos = g.linear(g.linear(g.op("Sigmoid", [ref]), 4, 2 * D, act="relu"), 2 * D, D)
    mem32 = g.tokens_of(out32, D, 25, 25)
    for _ in range(4):
        h = g.op("Add", [q, pos])
        q = g.layer_norm(g.op("Add", [q, g.attention(h, h, Q, Q, D, 8)]), D)
        q = g.layer_norm(g.op("Add", [q, g.attention(g.op("Add", [q, pos]), mem32, Q, 625, D, 8)]), D)
        q = g.layer_norm(g.op("Add", [q, g.mlp(q, D, 512, act="relu")]), D)
    g.note("decoder ×4", "self-attn 300 queries, cross-attn to stride-32 memory, FFN 512", [1, Q, D])
    cls = g.linear(q, D, NUM_CLASSES)
    box_raw = g.op("Add", [ref, g.linear(g.linear(q, D, D, act="relu"), D, 4, std=0.01)])
    char_logits = g.linear(q, D, 4)
    pooled = g.op("Reshape", [g.op("GlobalAveragePool", [out32]), g.i64([1, D])])
    box_raw = g.size_matching(pooled, D, box_raw)

    def across_queries(x, classes, scale, bias):
        """Standardises each class's logits over the 300 queries (random weights give every query nearly the
        same logits), then scale·z + bias: calibration that makes the stand-in's outputs look like a page."""
        t = g.op("Transpose", [x], perm=[0, 2, 1])
        t = g.op("LayerNormalization", [t, g.f32(np.full(Q, scale)), g.f32(np.full(Q, bias))], axis=-1, epsilon=1e-6)
        return g.op("Transpose", [t], perm=[0, 2, 1])

    # Post-processor: sigmoid over query×class pairs, calibrated so about 2.7 % exceed 0.25 (a page's worth of
    # detections), TopK 300 sorted descending; label = pair % 17 + 1; query = pair // 17.
    pairs = Q * NUM_CLASSES
    logit = g.op("Reshape", [across_queries(cls, NUM_CLASSES, 1.5, -4.0), g.i64([1, pairs])])
    scores, pair = g.op("TopK", [g.op("Sigmoid", [logit]), g.i64([Q])], outputs=2, axis=1, largest=1, sorted=1)
    labels_out = g.op("Add", [g.op("Mod", [pair, g.i64(NUM_CLASSES)]), g.i64(1)])
    query = g.op("Reshape", [g.op("Div", [pair, g.i64(NUM_CLASSES)]), g.i64([Q])])
    # Boxes: xyxy in [0, 1] with width and height ≥ 0.02 around the reference box, × orig_target_sizes (w, h, w, h).
    b = g.op("Sigmoid", [box_raw])
    b0, b1, b2, b3 = g.op("Split", [b], outputs=4, axis=2)
    w = g.op("Add", [g.op("Mul", [b2, g.f32(0.3)]), g.f32(0.02)])
    h = g.op("Add", [g.op("Mul", [b3, g.f32(0.3)]), g.f32(0.02)])
    x1 = g.op("Mul", [b0, g.op("Sub", [g.f32(1.0), w])])
    y1 = g.op("Mul", [b1, g.op("Sub", [g.f32(1.0), h])])
    xyxy = g.op("Concat", [x1, y1, g.op("Add", [x1, w]), g.op("Add", [y1, h])], axis=2)
    wh = g.op("Cast", [sizes], to=TensorProto.FLOAT)
    scale = g.op("Reshape", [g.op("Concat", [wh, wh], axis=1), g.i64([1, 1, 4])])
    all_boxes = g.op("Reshape", [g.op("Mul", [xyxy, scale]), g.i64([Q, 4])])
    g.nodes.append(helper.make_node("Reshape", [g.op("Gather", [all_boxes, query], axis=0), g.i64([1, Q, 4])],
                                    ["boxes"], name="n_boxes"))
    g.nodes.append(helper.make_node("Identity", [labels_out], ["labels"], name="n_labels"))
    g.nodes.append(helper.make_node("Identity", [scores], ["scores"], name="n_scores"))
    cc = g.op("ArgMax", [across_queries(char_logits, 4, 1.0, 0.0)], axis=2, keepdims=0)
    g.nodes.append(helper.make_node("Reshape", [g.op("Gather", [g.op("Reshape", [cc, g.i64([Q])]), query], axis=0),
                                                g.i64([1, Q])], ["char_count"], name="n_char_count"))
    g.note("post-processor", "sigmoid, TopK 300 over 300×17 pairs, gather boxes/char_count", [1, Q, 4])
    inputs = [value(images, TensorProto.FLOAT, [1, 3, S, S]), value(sizes, TensorProto.INT64, [1, 2])]
    outputs = [value("labels", TensorProto.INT64, [1, Q]), value("boxes", TensorProto.FLOAT, [1, Q, 4]),
               value("scores", TensorProto.FLOAT, [1, Q]), value("char_count", TensorProto.INT64, [1, Q])]
    return g, inputs, outputs


# ---------------------------------------------------------------------------------------------------------------
# RTMDet-s (NDL Koten OCR-Lite line detector): CSPNeXt-s backbone (widen 0.5, deepen 0.33: stem 16/16/32 at
# stride 2, stages 64/128/256/512 at strides 4..32, SPPF), CSPNeXtPAFPN (128 out), RTMDetSepBNHead (2 shared
# 3×3 convs, 128 channels, strides 8/16/32), distance decoding and mmdeploy-style NMS in the graph.

def build_rtmdet(seed, size):
    g = Graph(seed)
    x = "input"

    def block(x, c, add):
        y = g.conv(x, c, c, 3, act="silu")
        y = g.conv(g.conv(y, c, c, 5, groups=c, act="silu"), c, c, 1, act="silu")
        return g.op("Add", [x, y]) if add else y

    def csp(x, cin, cout, n, add, attention):
        mid = cout // 2
        main = g.conv(x, cin, mid, 1, act="silu")
        short = g.conv(x, cin, mid, 1, act="silu")
        for _ in range(n):
            main = block(main, mid, add)
        y = g.op("Concat", [main, short], axis=1)
        if attention:
            a = g.op("HardSigmoid", [g.conv(g.op("GlobalAveragePool", [y]), 2 * mid, 2 * mid, 1)],
                     alpha=1.0 / 6, beta=0.5)
            y = g.op("Mul", [y, a])
        return g.conv(y, 2 * mid, cout, 1, act="silu")

    def sppf(x, c):
        y = g.conv(x, c, c // 2, 1, act="silu")
        pools = [g.op("MaxPool", [y], kernel_shape=[k, k], strides=[1, 1], pads=[k // 2] * 4) for k in (5, 9, 13)]
        return g.conv(g.op("Concat", [y] + pools, axis=1), 2 * c, c, 1, act="silu")

    s2 = size // 2
    x = g.conv(x, 3, 16, 3, 2, act="silu")
    x = g.conv(x, 16, 16, 3, act="silu")
    x = g.conv(x, 16, 32, 3, act="silu");               g.note("stem", "Conv 3→16 s2, 16→16, 16→32 (k3, SiLU)", [1, 32, s2, s2])
    x = csp(g.conv(x, 32, 64, 3, 2, act="silu"), 64, 64, 1, True, True)
    g.note("stage 1", "Conv 32→64 k3 s2 + CSPNeXt ×1", [1, 64, size // 4, size // 4])
    c3 = csp(g.conv(x, 64, 128, 3, 2, act="silu"), 128, 128, 2, True, True)
    g.note("stage 2", "Conv 64→128 k3 s2 + CSPNeXt ×2", [1, 128, size // 8, size // 8])
    c4 = csp(g.conv(c3, 128, 256, 3, 2, act="silu"), 256, 256, 2, True, True)
    g.note("stage 3", "Conv 128→256 k3 s2 + CSPNeXt ×2", [1, 256, size // 16, size // 16])
    c5 = csp(sppf(g.conv(c4, 256, 512, 3, 2, act="silu"), 512), 512, 512, 1, False, True)
    g.note("stage 4", "Conv 256→512 k3 s2 + SPPF(5,9,13) + CSPNeXt ×1", [1, 512, size // 32, size // 32])
    r5 = g.conv(c5, 512, 256, 1, act="silu")
    t4 = csp(g.op("Concat", [g.resize(r5, 2.0, "nearest"), c4], axis=1), 512, 256, 1, False, False)
    r4 = g.conv(t4, 256, 128, 1, act="silu")
    p3 = csp(g.op("Concat", [g.resize(r4, 2.0, "nearest"), c3], axis=1), 256, 128, 1, False, False)
    p4 = csp(g.op("Concat", [g.conv(p3, 128, 128, 3, 2, act="silu"), r4], axis=1), 256, 256, 1, False, False)
    p5 = csp(g.op("Concat", [g.conv(p4, 256, 256, 3, 2, act="silu"), r5], axis=1), 512, 512, 1, False, False)
    outs = [g.conv(p3, 128, 128, 3, act="silu"), g.conv(p4, 256, 128, 3, act="silu"), g.conv(p5, 512, 128, 3, act="silu")]
    g.note("PAFPN", "top-down + bottom-up CSP, out Conv 3×3 → 128 at strides 8/16/32", [1, 128, size // 8, size // 8])
    # Head: conv weights shared across levels, biases per level (BN folded).
    shared = {kind: [g.weight((128, 128, 3, 3), np.sqrt(2.0 / 1152)) for _ in range(2)] for kind in ("cls", "reg")}
    cls_w, reg_w = g.weight((1, 128, 1, 1), 0.05), g.weight((4, 128, 1, 1), 0.05)
    cls_all, reg_all, points, strides = [], [], [], []
    for level, (o, stride) in enumerate(zip(outs, (8, 16, 32))):
        n = size // stride
        feats = {}
        for kind in ("cls", "reg"):
            f = o
            for w in shared[kind]:
                f = g.act(g.op("Conv", [f, w, g.weight((128,), 0.01)], kernel_shape=[3, 3], pads=[1, 1, 1, 1]), "silu")
            feats[kind] = f
        cls = g.op("Conv", [feats["cls"], cls_w, g.weight((1,), 0.01)], kernel_shape=[1, 1])
        reg = g.op("Conv", [feats["reg"], reg_w, g.weight((4,), 0.01)], kernel_shape=[1, 1])
        cls_all.append(g.op("Reshape", [cls, g.i64([1, n * n])]))
        reg_all.append(g.op("Reshape", [reg, g.i64([1, 4, n * n])]))
        ys, xs = np.meshgrid(np.arange(n, dtype=np.float32) * stride, np.arange(n, dtype=np.float32) * stride, indexing="ij")
        points.append(np.stack([xs.ravel(), ys.ravel()], axis=1))
        strides.append(np.full((n * n, 1), stride, dtype=np.float32))
    anchors = sum((size // s) ** 2 for s in (8, 16, 32))
    g.note("head", "2 shared Conv 3×3 128 (cls, reg) + Conv 1×1 → 1 / 4, per level", [1, 128, size // 8, size // 8])
    cls = g.op("Concat", cls_all, axis=1)
    reg = g.op("Transpose", [g.op("Concat", reg_all, axis=2)], perm=[0, 2, 1])            # [1, anchors, 4]
    pooled = g.op("Reshape", [g.op("GlobalAveragePool", [outs[2]]), g.i64([1, 128])])
    reg = g.size_matching(pooled, 128, reg)
    # Distances (l, t, r, b) = (sigmoid × 6 + 0.5) × stride > 0, so x1 < x2 and y1 < y2 after clipping.
    dist = g.op("Mul", [g.op("Add", [g.op("Mul", [g.op("Sigmoid", [reg]), g.f32(6.0)]), g.f32(0.5)]),
                        g.const(np.concatenate(strides)[None], "strides")])
    pts = g.const(np.concatenate(points)[None], "points")
    lt, rb = g.op("Split", [dist], outputs=2, axis=2)
    boxes = g.op("Concat", [g.op("Sub", [pts, lt]), g.op("Add", [pts, rb])], axis=2)
    boxes = g.op("Clip", [boxes, g.f32(0.0), g.f32(float(size))])
    # Scores standardised over the anchors, so a page gets tens of lines above the 0.3 threshold.
    logit = g.op("LayerNormalization", [cls, g.f32(np.full(anchors, 2.5)), g.f32(np.full(anchors, -6.0))], axis=-1,
                 epsilon=1e-6)
    scores = g.op("Sigmoid", [logit])
    pre_k = 3000
    pre_scores, pre_idx = g.op("TopK", [scores, g.i64([pre_k])], outputs=2, axis=1)
    pre_boxes = g.op("Gather", [g.op("Reshape", [boxes, g.i64([anchors, 4])]), g.op("Reshape", [pre_idx, g.i64([pre_k])])],
                     axis=0)
    selected = g.op("NonMaxSuppression", [g.op("Reshape", [pre_boxes, g.i64([1, pre_k, 4])]),
                                          g.op("Reshape", [pre_scores, g.i64([1, 1, pre_k])]),
                                          g.i64([300]), g.f32([0.3]), g.f32([0.01])])
    keep = g.op("Reshape", [g.op("Gather", [selected, g.i64([2])], axis=1), g.i64([-1])])
    kept_scores = g.op("Gather", [g.op("Reshape", [pre_scores, g.i64([pre_k])]), keep], axis=0)
    sorted_scores, order = g.op("TopK", [kept_scores, g.op("Shape", [kept_scores])], outputs=2, axis=0)
    kept_boxes = g.op("Gather", [g.op("Gather", [pre_boxes, keep], axis=0), order], axis=0)
    dets = g.op("Concat", [kept_boxes, g.op("Unsqueeze", [sorted_scores, g.i64([1])])], axis=1)
    g.nodes.append(helper.make_node("Unsqueeze", [dets, g.i64([0])], ["dets"], name="n_dets"))
    classes = g.op("Reshape", [g.op("Gather", [selected, g.i64([1])], axis=1), g.i64([-1])])
    g.nodes.append(helper.make_node("Unsqueeze", [g.op("Gather", [classes, order], axis=0), g.i64([0])], ["labels"],
                                    name="n_labels"))
    g.note("post-processor", f"{anchors} anchors → TopK 3000 → NMS (IoU 0.3, score 0.01, ≤300) → sorted", [1, 300, 5])
    inputs = [value("input", TensorProto.FLOAT, [1, 3, size, size])]
    outputs = [value("dets", TensorProto.FLOAT, [1, "num_dets", 5]), value("labels", TensorProto.INT64, [1, "num_dets"])]
    return g, inputs, outputs


# ---------------------------------------------------------------------------------------------------------------
# PARSeq-tiny: ViT encoder (patch 4×8, dim 192, 12 blocks, 3 heads, MLP 768), one decoder layer (6 heads, MLP 768)
# run twice — a first pass from the position queries and a refinement pass with the embedded first-pass tokens
# (the text embedding, 7144 × 192) — and the head 192 → 7142. The stand-in's logits put EOS (token 0) first from
# step `length` on, so every line decodes to exactly `length` characters (below the cascade's escalation lengths).

def build_parseq(seed, height, width, max_length, length):
    g = Graph(seed)
    D, T = 192, max_length + 1
    gh, gw = height // 4, width // 8
    n = gh * gw
    t = g.tokens_of(g.conv("images", 3, D, (4, 8), (4, 8)), D, gh, gw)
    t = g.op("Add", [t, g.weight((1, n, D), 0.02)])
    g.note("patch embed", "Conv 3→192 k4×8 s4×8 + position embedding", [1, n, D])
    for _ in range(12):
        t = g.vit_block(t, n, D, 3, 4 * D)
    memory = g.layer_norm(t, D)
    g.note("encoder ×12", "pre-norm, 3 heads, MLP 768; attention scores", [1, 3, n, n])
    pos_queries = g.weight((1, T, D), 0.02)
    embedding = g.weight((VOCAB_EMBED, D), 0.02)

    def decoder(query):
        with g.sharing("decoder"):  # one layer's weights, used by both passes
            x = query
            h = g.layer_norm(x, D)
            x = g.op("Add", [x, g.attention(h, h, T, T, D, 6)])
            x = g.op("Add", [x, g.attention(g.layer_norm(x, D), memory, T, n, D, 6)])
            x = g.op("Add", [x, g.mlp(g.layer_norm(x, D), D, 4 * D)])
            return g.layer_norm(x, D)

    head_w, head_b = g.weight((D, VOCAB_OUT), np.sqrt(1.0 / D)), g.weight((VOCAB_OUT,), 0.01)

    def head(h):
        return g.op("Add", [g.op("MatMul", [h, head_w]), head_b])

    first = head(decoder(pos_queries))
    tokens = g.op("ArgMax", [first], axis=2, keepdims=0)                                    # [1, T] int64
    context = g.op("Concat", [g.i64([[VOCAB_OUT]]), g.op("Slice", [tokens, g.i64([0]), g.i64([T - 1]), g.i64([1])])],
                   axis=1)                                                                   # BOS + tokens[:-1]
    content = g.op("Mul", [g.op("Gather", [embedding, context], axis=0), g.f32(np.sqrt(D))])
    logits = head(decoder(g.op("Add", [pos_queries, content])))
    g.note("decoder ×2 passes", f"self-attn {T} queries (6 heads), cross-attn to memory, MLP 768; head 192→7142",
           [1, T, VOCAB_OUT])
    pooled = g.op("ReduceMean", [memory], axes=[1], keepdims=0)                              # [1, 192]
    logits = g.size_matching(pooled, D, logits)
    eos = np.where(np.arange(T) < length, -30.0, 30.0).astype(np.float32).reshape(1, T, 1)
    onehot = np.zeros((1, 1, VOCAB_OUT), dtype=np.float32)
    onehot[0, 0, 0] = 1.0
    bias = g.op("Mul", [g.const(eos, "eos_bias"), g.const(onehot, "eos_column")])
    g.nodes.append(helper.make_node("Add", [logits, bias], ["logits"], name="n_logits"))
    inputs = [value("images", TensorProto.FLOAT, [1, 3, height, width])]
    outputs = [value("logits", TensorProto.FLOAT, [1, T, VOCAB_OUT])]
    return g, inputs, outputs


# ---------------------------------------------------------------------------------------------------------------
# Charset and class files.

def charset(koten):
    """7141 distinct code points: index 0 is a space, then printable ASCII, ×, Greek, kana, CJK; astral CJK
    Extension B characters at 7081, 7111, 7116, 7127 and U+FE0E at 7133 (docs/reference-pipelines.md §1.5). Koten's
    replaces the four astral characters by '〓' (§2.2), which occurs nowhere else."""
    base = [chr(c) for c in range(0x20, 0x7F)] + ["×"]
    base += [chr(c) for c in range(0x391, 0x3AA) if c != 0x3A2] + [chr(c) for c in range(0x3B1, 0x3CA)]
    base += [chr(c) for c in range(0x3041, 0x3097)] + [chr(c) for c in range(0x30A1, 0x30FB)]
    base += ["ー", "々", "、", "。", "「", "」", "『", "』", "・"]
    base += [chr(c) for c in range(0x4E00, 0x9FA0)]
    astral = ["\U0002000B", "\U00020089", "\U00020B9F", "\U0002123D"]
    special = {i: ("〓" if koten else a) for i, a in zip(ASTRAL_INDICES, astral)}
    special[FE0E_INDEX] = "\uFE0E"
    source = iter(base)
    chars = [special[i] if i in special else next(source) for i in range(CHARSET_SIZE)]
    assert len(chars) == CHARSET_SIZE and "〓" not in base
    return "".join(chars)


def charset_yaml(chars):
    quoted = chars.replace("\\", "\\\\").replace('"', '\\"')
    return ("# @package _global_\n# KotenOCR stand-in charset (scripts/make-standins.py): NOT NDL's NDLmoji.yaml.\n"
            f'model:\n  charset_test: "{quoted}"\n  charset_train: "{quoted}"\n')


def classes_yaml():
    return "# Classes\nnames:\n" + "".join(f"  {i}: {name}\n" for i, name in enumerate(NDL_CLASSES))


def check_charset_file(path, koten):
    """Reads the file back as a YAML double-quoted scalar (only \\\\ and \\" escapes occur, which JSON shares)."""
    text = open(path, encoding="utf-8").read()
    line = next(l for l in text.splitlines() if l.startswith("  charset_train: "))
    chars = json.loads(line[len("  charset_train: "):])
    assert len(chars) == CHARSET_SIZE, len(chars)
    assert chars[0] == " " and chars[FE0E_INDEX] == "\uFE0E"
    for i in ASTRAL_INDICES:
        assert (chars[i] == "〓") if koten else (ord(chars[i]) > 0xFFFF), i
    assert chars.count("〓") == (4 if koten else 0)
    assert len(set(chars)) == CHARSET_SIZE - (3 if koten else 0)


# ---------------------------------------------------------------------------------------------------------------

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_atomic(path, data):
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def finish(g, inputs, outputs, doc, path, target_bytes):
    model = g.model(inputs, outputs, doc, target_bytes)
    data = model.SerializeToString()
    if abs(len(data) - target_bytes) > TOLERANCE * target_bytes:
        raise SystemExit(f"{path}: {len(data)} bytes, not within ±2 % of {target_bytes}")
    # The ONNX checker with strict shape inference: every node valid for opset 17, and the inferred output
    # types and shapes agree with the declared (real) signature.
    onnx.checker.check_model(data, full_check=True)
    write_atomic(path, data)
    return {"bytes": len(data), "target": target_bytes, "params": g.params, "plan": g.plan,
            "size_matching": g.size_matching_bytes,
            "inputs": [describe(v) for v in inputs], "outputs": [describe(v) for v in outputs]}


def describe(v):
    t = v.type.tensor_type
    dims = [d.dim_param if d.dim_param else str(d.dim_value) for d in t.shape.dim]
    return f"`{v.name}` {TensorProto.DataType.Name(t.elem_type).lower().replace('float', 'float32')} [{','.join(dims)}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--ndl-version", choices=sorted(NDL_FILES), default="1.2",
                        help="1.2: 24×W recognisers (default); 1.0: the 16×W recognisers of v1.0–1.1.3")
    parser.add_argument("--mode", choices=["all", "ndl", "koten"], default="all")
    parser.add_argument("--koten-detector-size", type=int, default=1280,
                        help="RTMDet input side (docs/reference-pipelines.md §2.1 says 1280; some ports report 1024)")
    args = parser.parse_args()
    if args.koten_detector_size % 32:
        parser.error("--koten-detector-size must be a multiple of 32")
    script_sha = sha256(os.path.abspath(__file__))
    made = []  # (relative path, info)
    doc = ("KotenOCR stand-in for NDL's {}: random weights with the real signature, size and layer shapes. "
           "NOT NDL's model; it reads nothing. Generated by scripts/make-standins.py v" + GENERATOR_VERSION + ".")

    def out(*parts):
        path = os.path.join(args.out_dir, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return path

    if args.mode in ("all", "ndl"):
        files, height = NDL_FILES[args.ndl_version], NDL_RECOGNISER_HEIGHT[args.ndl_version]
        name = files["detector"]
        g, i, o = build_deim(SEED + 1)
        made.append((f"ndl/{name}", finish(g, i, o, doc.format(name), out("ndl", name), int(NDL_DETECTOR_SIZE * SIZE_UNIT))))
        for k, (role, width, max_len, size, length) in enumerate(NDL_RECOGNISERS):
            name = files[role]
            g, i, o = build_parseq(SEED + 10 + k, height, width, max_len, length)
            info = finish(g, i, o, doc.format(name), out("ndl", name), int(size * SIZE_UNIT))
            info["decoded_length"] = length
            made.append((f"ndl/{name}", info))
        write_atomic(out("ndl", "ndl.yaml"), classes_yaml().encode())
        write_atomic(out("ndl", "NDLmoji.yaml"), charset_yaml(charset(koten=False)).encode())
        check_charset_file(out("ndl", "NDLmoji.yaml"), koten=False)
        made += [("ndl/ndl.yaml", None), ("ndl/NDLmoji.yaml", None)]
    if args.mode in ("all", "koten"):
        name, size = KOTEN_DETECTOR
        g, i, o = build_rtmdet(SEED + 2, args.koten_detector_size)
        made.append((f"koten/{name}", finish(g, i, o, doc.format(name), out("koten", name), int(size * SIZE_UNIT))))
        name, size, height, width, max_len, length = KOTEN_RECOGNISER
        g, i, o = build_parseq(SEED + 20, height, width, max_len, length)
        info = finish(g, i, o, doc.format(name), out("koten", name), int(size * SIZE_UNIT))
        info["decoded_length"] = length
        made.append((f"koten/{name}", info))
        write_atomic(out("koten", "NDLmoji.yaml"), charset_yaml(charset(koten=True)).encode())
        check_charset_file(out("koten", "NDLmoji.yaml"), koten=True)
        made.append(("koten/NDLmoji.yaml", None))

    hashes = {rel: sha256(os.path.join(args.out_dir, rel)) for rel, _ in made}
    write_atomic(os.path.join(args.out_dir, "STANDIN.md"), report(args, made, hashes, script_sha).encode())
    for rel, _ in made:
        print(f"{hashes[rel]}  {rel}")


def report(args, made, hashes, script_sha):
    unit = "MiB" if SIZE_UNIT == 1 << 20 else "MB"
    lines = [
        "# Stand-in models — NOT NDL's weights",
        "",
        "These files are stand-ins generated by `scripts/make-standins.py` (generator v" + GENERATOR_VERSION
        + f", script SHA-256 `{script_sha}`) with `--ndl-version {args.ndl_version} --mode {args.mode}"
        + f" --koten-detector-size {args.koten_detector_size}`.",
        "They have random weights (numpy PCG64, fixed seeds) and read nothing. What they share with NDL's published",
        "models (NDLOCR-Lite, NDL Koten OCR-Lite; CC BY 4.0) is what the engine and its memory benchmark depend on:",
        "",
        "- the file names, the input and output names, dtypes and shapes (docs/reference-pipelines.md §1.2, §1.5, §2.1, §2.2);",
        f"- the file sizes (published sizes read as {unit}, each file within ±2 %), reached with one size-matching",
        "  table per model (a Gather-read initializer standing for the graph parts not modelled layer by layer).",
        "  Binary megabytes because PARSeq-tiny with a 7141-character charset alone has 8.73 M float32 parameters",
        "  (34.9e6 bytes), more than \"34.2 MB\" in decimal units. NDL does not publish v1.2 sizes; the v1.0 sizes",
        "  are used (the 24×W recognisers differ only in their position embeddings, +0.05–0.15 MB);",
        "- layers shaped like the real networks at the real input size (channel widths, strides, token counts,",
        "  attention score tensors), so their resident memory and activation peaks are realistic;",
        "- plausible outputs: DEIM labels 1–17, xyxy boxes inside the input, sorted scores, char_count 0–3;",
        "  RTMDet dets sorted by score with x1 < x2, y1 < y2 inside the input after in-graph NMS; PARSeq logits",
        "  [1,T,7142] whose greedy decoding stops at EOS after a fixed number of characters (below every",
        "  escalation length of the NDL cascade).",
        "",
        f"ONNX IR version {IR_VERSION}, opset {OPSET}, chosen so ONNX Runtime 1.21–1.32 all load them (run in 1.32 by the",
        "test suite `StandInModels`), checked by the ONNX checker with strict shape inference. The PARSeq input/output names",
        "(`images`, `logits`) are not documented for NDL's files; the engine must use the first input and output.",
        "The charsets are stand-ins too: 7141 code points with the properties the spec names (index 0 = space,",
        "astral characters at 7081/7111/7116/7127, U+FE0E at 7133; koten: those four replaced by '〓').",
        "Some ports report that NDL's `rtmdet-s-1280x1280.onnx` graph takes 1024×1024 despite its name;",
        "`--koten-detector-size 1024` makes that variant (the engine reads the size from the session).",
        "",
        "## Files",
        "",
        f"| file | bytes | target ({unit}) | deviation | parameters | size-matching | SHA-256 |",
        "|---|---|---|---|---|---|---|",
    ]
    for rel, info in made:
        size = os.path.getsize(os.path.join(args.out_dir, rel))
        if info:
            dev = round((info["bytes"] - info["target"]) / info["target"] * 100, 3) + 0.0
            lines.append(f"| `{rel}` | {size} | {info['target'] / SIZE_UNIT:.1f} | {dev:+.3f} % | {info['params']:,} "
                         f"| {info['size_matching'] / 1e6:.2f} MB | `{hashes[rel]}` |")
        else:
            lines.append(f"| `{rel}` | {size} | – | – | – | – | `{hashes[rel]}` |")
    lines += ["", "## Signatures and layer plans", ""]
    for rel, info in made:
        if not info:
            continue
        lines += [f"### `{rel}`", "",
                  "Inputs: " + ", ".join(info["inputs"]) + ". Outputs: " + ", ".join(info["outputs"]) + "."
                  + (f" Decodes to {info['decoded_length']} characters." if "decoded_length" in info else ""), "",
                  "| stage | layers | key tensor (output, or attention scores) | MB (float32) |", "|---|---|---|---|"]
        lines += [f"| {s} | {l} | {shape} | {mb:.1f} |" for s, l, shape, mb in info["plan"]]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
