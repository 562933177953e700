"""Text-quality measures of `make quality` (docs/quality.md, "How each number is computed").

normalise(lines)      the lines joined in reading order with nothing between them, Unicode NFC, then every
                      white-space character removed (str.isspace: ASCII blanks, U+3000 ideographic space, line
                      breaks, ...). Nothing else is folded: full-width and ASCII forms, kana and case stay distinct.
ordered CER           Levenshtein distance (insert, delete, substitute, each cost 1) between the normalised
                      output and the normalised truth, over Unicode scalars, divided by the truth's length.
                      Can exceed 1 when the output is much longer than the truth.
order-free error      with R and H the multisets of characters of the normalised truth and output:
                      max(|R - H|, |H - R|) / |R|, where - is multiset difference (missing and extra characters;
                      a substitution is one of each and counts once, as in the CER). It ignores order, so
                      order-free <= ordered CER always; the gap is what the reading order costs.
"""
import unicodedata
from collections import Counter

import numpy as np


def normalise(lines):
    text = unicodedata.normalize("NFC", "".join(lines))
    return "".join(ch for ch in text if not ch.isspace())


def levenshtein(a, b):
    """Edit distance, one row of the dynamic programme at a time. Within a row, the insertion chain
    current[j] = min(candidate[j], current[j-1] + 1) is a running minimum of candidate[k] - k, plus j."""
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    codes = np.array([ord(c) for c in b], dtype=np.int64)
    steps = np.arange(len(b) + 1, dtype=np.int64)
    previous = steps.copy()
    for i, ca in enumerate(a, 1):
        candidate = np.empty_like(previous)
        candidate[0] = i
        candidate[1:] = np.minimum(previous[1:] + 1, previous[:-1] + (codes != ord(ca)))
        previous = np.minimum.accumulate(candidate - steps) + steps
    return int(previous[-1])


def ordered_cer(output, truth):
    """Ordered CER of normalised strings; None when the truth is empty."""
    return levenshtein(output, truth) / len(truth) if truth else None


def order_free_error(output, truth):
    """Bag-of-characters error of normalised strings; None when the truth is empty."""
    if not truth:
        return None
    r, h = Counter(truth), Counter(output)
    return max(sum((r - h).values()), sum((h - r).values())) / len(truth)


def self_check():
    assert normalise(["第2章　目的", " (目的) "]) == "第2章目的(目的)"
    assert levenshtein("kitten", "sitting") == 3 and levenshtein("", "abc") == 3
    assert ordered_cer("abdc", "abcd") == 0.5 and order_free_error("abdc", "abcd") == 0.0
    assert order_free_error("abx", "abc") == 1 / 3 == ordered_cer("abx", "abc")
    assert order_free_error("", "abc") == 1.0 and order_free_error("abcabc", "abc") == 1.0


if __name__ == "__main__":
    self_check()
    print("metrics: self-check passed")
