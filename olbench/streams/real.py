"""The base of real-data streams read whole into memory (scikit-learn's bundled sets, .mat
files), and the options they all share:

* ``order="file"`` keeps the dataset's order, ``"permuted"`` applies a permutation seeded by
  ``seed`` (the LIBOL protocol averages over 20 such permutations), ``"libol"`` LIBOL's own
  permutation of run ``seed`` (:mod:`olbench.streams.orders`; file streams use the same
  :func:`~olbench.streams.orders.permutation`);
* ``standardize`` centres and scales every feature with statistics of the WHOLE stream (a
  look-ahead, documented as such); ``normalize`` scales each row to unit norm (no
  look-ahead); ``bias`` appends a constant 1 (in this order).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from olbench.component import Interval, OneOf
from olbench.labels import LabelMap, file_classes, labels_dropped, sorted_labels
from olbench.streams.base import InMemoryStream
from olbench.streams.orders import ORDERS, permutation
from olbench.streams.preprocess import Standardizer, normalize_rows

#: the tasks a real data file can be read as ("pca": the rows alone, for online PCA; the
#: labels are read as the file has them, then dropped: y = 0 every row)
FILE_TASKS = ("classification", "regression", "multiclass", "pca")
#: constraints of the options every real-data stream has
REAL_DATA_CONSTRAINTS = {"order": OneOf(*ORDERS), "seed": Interval(0, 2**63 - 1, integer=True),
                         "normalize": OneOf(True, False), "standardize": OneOf(True, False),
                         "bias": OneOf(True, False)}


def check_file_task(stream: Any) -> None:
    """A data file read for online PCA (``task="pca"``) with a binarisation beside it refused
    (:func:`~olbench.labels.labels_dropped`), at construction, naming the file."""
    if stream.task == "pca":
        labels_dropped(stream.positive_label, stream.negative_label,
                       f"{stream.key} file {stream.path}")


def unmapped_labels(task: str, raw: np.ndarray) -> np.ndarray:
    """The labels of rows read as ``task`` when no binary map applies: the targets or class
    codes as float64, or for ``task="pca"`` none (y = 0 every row: the labels dropped,
    whatever the file holds there).

    >>> unmapped_labels("pca", np.array(["M", "B"], dtype=object)).tolist()
    [0.0, 0.0]
    """
    if task == "pca":
        return np.zeros(len(raw))
    return np.asarray(raw, dtype=np.float64)


class RealArrays(InMemoryStream):
    """Base of in-memory real data: subclasses write ``_load() -> (X, raw_labels, extra)``."""

    constraints = REAL_DATA_CONSTRAINTS

    def _load(self) -> tuple[Any, np.ndarray, dict[str, Any]]:
        raise NotImplementedError

    def _source(self) -> str:
        return type(self).__name__

    def _label_map(self) -> LabelMap:
        return LabelMap(getattr(self, "positive_label", None),
                        getattr(self, "negative_label", None), source=self._source())

    def _rows_order(self, n: int, extra: dict) -> np.ndarray | None:
        """The order the rows are visited in (None: the file's): :func:`permutation`."""
        return None if self.order == "file" else permutation(n, self.seed, self.order)

    def _build(self):
        X, raw, extra = self._load()
        extra = dict(extra)
        perm = self._rows_order(X.shape[0], extra)
        if perm is not None:
            X, raw = X[perm], raw[perm]
        fields: dict[str, Any] = {"extra": extra}
        if self.task == "classification":
            labels = self._label_map()
            seen = set(np.unique(raw).tolist())
            extra["positive_label"] = labels.resolve(seen)
            extra["labels_seen"] = sorted_labels(seen)
            y, keep = labels.apply(raw)
            if keep is not None:
                X = X[keep]
        else:
            y = unmapped_labels(self.task, raw)
        if self.task == "multiclass":     # the file's class codes kept, as y and as classes
            fields["classes"] = file_classes(
                np.unique(y), getattr(self, "positive_label", None),
                getattr(self, "negative_label", None), self._source())
        if self.standardize:
            X = Standardizer.fit(X).apply(X)
        if self.normalize:
            X = normalize_rows(X)
        return X, y, fields


class RealFile(RealArrays):
    """Base of real data read whole from the file at ``path``, which labels' errors name."""

    def _source(self) -> str:
        return str(self.path)
