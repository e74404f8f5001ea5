"""svmlight / LIBSVM text files, streamed as CSR chunks in constant memory.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "toy.svm")
>>> _ = open(path, "w").write("+1 1:3 2:4\\n-1 2:1\\n")
>>> s = Svmlight(path=path)
>>> s.meta.n, s.meta.d, s.meta.radius
(2, 2, 5.0)
"""

from __future__ import annotations

import io
import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.component import Interval, OneOf
from olbench.streams.files.blocks import read_blocks
from olbench.streams.files.text import Scan, TextFile
from olbench.streams.hashing import hash_columns

_SVMLIGHT_HINTS = {
    "need more than 1 value to unpack": "expected 'index:value' pairs after the label",
    "should be sorted and unique": "feature indices must be increasing and unique",
    "invalid literal for int()": "feature index is not an integer",
    "could not convert string to float": "not a number",
    "Invalid index": "feature index out of range",
    "too large to convert": "feature index too large (at most 2^31 - 1)",
}


class Svmlight(TextFile, key="libsvm"):
    """An svmlight / LIBSVM text file, streamed as CSR chunks in constant memory.

    ``n_features``: the dimension (default: inferred from the largest index in the file; give
    it when a file does not use its last feature, e.g. a1a has 123). ``zero_based``: whether
    indices start at 0; ``"auto"`` decides from the whole file (zero-based iff an index 0
    occurs). Labels: {-1,+1}, {0,1}, {1,2}, {2,4} map to {-1,+1} (larger label positive)
    unless ``positive_label`` is given; multiclass files need ``positive_label``
    (one-vs-rest, or one-vs-one with ``negative_label``), or ``task="multiclass"``, which keeps
    the file's class codes (``meta.classes``). ``task="regression"`` keeps the targets;
    ``task="pca"`` the rows alone, for online PCA: every label dropped (y = 0), whatever its
    value (NaN, 0.5, ...), but each line still needs one, a number, since the format's first
    field is the label (a line that starts with ``index:value`` is refused, naming it).
    ``meta.extra`` has ``labels_seen``, ``positive_label``, ``zero_based``, ``path``.

    ``hash_features``: d, the number of buckets the feature indices are hashed into (with a
    sign each: :mod:`olbench.streams.hashing`), whatever the indices in the file; for files
    whose indices exceed the d a run can hold (10^9 hashed features of click logs). None (the
    default): no hashing, column j is feature j.
    """

    constraints = {**TextFile.constraints,
                   "n_features": Interval(1, math.inf, integer=True, none_ok=True),
                   "zero_based": OneOf("auto", True, False),
                   "hash_features": Interval(1, 2**31 - 1, integer=True, none_ok=True)}

    def __init__(self, *, path: str, n_features: int | None = None, zero_based: Any = "auto",
                 positive_label: Any = None, negative_label: Any = None,
                 task: str = "classification", order: str = "file", seed: int = 0,
                 normalize: bool = False, standardize: bool = False, bias: bool = False,
                 hash_features: int | None = None):
        self.path, self.n_features, self.zero_based = path, n_features, zero_based
        self.hash_features = hash_features
        self.positive_label, self.negative_label, self.task = positive_label, negative_label, task
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()
        if hash_features is not None and n_features is not None:
            raise ValueError(f"libsvm: give n_features={n_features!r} or "
                             f"hash_features={hash_features!r}, not both: hashing sets the "
                             f"dimension to hash_features whatever the file's indices")

    def _parse(self, block: bytes):
        from sklearn.datasets import load_svmlight_file
        X, y = load_svmlight_file(io.BytesIO(block), zero_based=True, dtype=np.float64)
        return X, y

    def _explain(self, error: Exception, line: bytes = b"") -> str:
        text = str(error)
        label = line.split(b"#", 1)[0].split()[:1]
        if self.task == "pca" and label and not self._parses(label[0]):
            return (f"the label {label[0].decode('utf-8', 'replace')!r} is not a number: an "
                    f"svmlight line starts with its label, which task=pca reads and then drops "
                    f"(write 0 where a row has none)")
        for key, hint in _SVMLIGHT_HINTS.items():
            if key in text:
                return f"{hint} ({text})"
        return text

    def _parses(self, line: bytes) -> bool:
        try:
            self._parse(line + b"\n")
        except (ValueError, IndexError, OverflowError):
            return False
        return True

    def _check_block(self, scan, X_raw, raw, block, first_line) -> None:
        super()._check_block(scan, X_raw, raw, block, first_line)
        if X_raw.nnz:
            bad = ~np.isfinite(X_raw.data)
            if bad.any():
                row = int(np.searchsorted(X_raw.indptr, np.flatnonzero(bad)[0], side="right") - 1)
                raise self._row_error(block, first_line, row,
                                      "feature value is not a finite number")
            low = int(X_raw.indices.min())
            if low == 0 and self.zero_based is False:
                row = int(np.flatnonzero(X_raw[:, 0].toarray().ravel())[0])
                raise self._row_error(block, first_line, row,
                                      "feature index 0 in a file read with zero_based=False")
            scan.min_index = low if scan.min_index is None else min(scan.min_index, low)
        scan.n_columns = max(scan.n_columns, X_raw.shape[1])

    def _finish_scan(self, scan: Scan) -> None:
        zero_based = (scan.min_index == 0) if self.zero_based == "auto" else self.zero_based
        scan.col_offset = 0 if zero_based else 1
        inferred = max(scan.n_columns - scan.col_offset, 0)
        scan.extra.update(zero_based=bool(zero_based), n_features_inferred=inferred)
        if self.hash_features is not None:
            scan.d = int(self.hash_features)
            return
        if self.n_features is not None and inferred > self.n_features:
            raise self._locate_index(scan, int(self.n_features))
        scan.d = int(self.n_features) if self.n_features is not None else inferred
        if scan.d == 0:
            raise ValueError(f"{self._path()}: no feature in the file; pass n_features")

    def _locate_index(self, scan: Scan, n_features: int) -> ValueError:
        limit = n_features + scan.col_offset
        start, line0 = self._start(self._path())
        for block, first_line, _ in read_blocks(self._path(), start, line0):
            X_raw, _ = self._parse(block)
            if X_raw.shape[1] > limit:
                row = int(np.flatnonzero(X_raw[:, limit:].getnnz(axis=1))[0])
                return self._row_error(block, first_line, row,
                                       f"feature index {X_raw[row].indices.max()} > "
                                       f"n_features={n_features}")
        return ValueError(f"{self._path()}: an index exceeds n_features={n_features}")

    def _columns(self, scan: Scan, X_raw):
        if self.hash_features is not None:
            shifted = sp.csr_matrix((X_raw.data, X_raw.indices - scan.col_offset, X_raw.indptr),
                                    shape=(X_raw.shape[0], max(X_raw.shape[1], 1)))
            return hash_columns(shifted, scan.d)
        X = sp.csr_matrix((X_raw.data, X_raw.indices - scan.col_offset, X_raw.indptr),
                          shape=(X_raw.shape[0], scan.d))
        return X


__all__ = ["Svmlight"]
