"""Real data bundled with scikit-learn (offline): breast cancer, digits, wine, iris, diabetes.

Classification sets become binary tasks at the stream boundary: ``positive_label`` (a class
number or name) against the rest, or against ``negative_label`` only (the other rows are
dropped). All real-data streams share the same options (:class:`RealArrays`):

* ``order="file"`` keeps the dataset's order, ``"permuted"`` applies a permutation seeded by
  ``seed`` (the LIBOL protocol averages over 20 such permutations);
* ``standardize`` centres and scales every feature with statistics of the WHOLE stream (a
  look-ahead, documented as such); ``normalize`` scales each row to unit norm (no
  look-ahead); ``bias`` appends a constant 1 (in this order).

>>> BreastCancer().meta.n, BreastCancer().meta.d
(569, 30)
>>> Digits(positive_label=3, negative_label=8).meta.n
357
"""

from __future__ import annotations


from typing import Any

import numpy as np

from olbench.component import Interval, OneOf
from olbench.streams.base import InMemoryStream
from olbench.streams.labels import LabelMap, label_key
from olbench.streams.preprocess import Standardizer, normalize_rows

ORDERS = ("file", "permuted")

#: constraints of the options every real-data stream has
REAL_DATA_CONSTRAINTS = {"order": OneOf(*ORDERS), "seed": Interval(0, 2**63 - 1, integer=True),
                         "normalize": OneOf(True, False), "standardize": OneOf(True, False),
                         "bias": OneOf(True, False)}


def permutation(n: int, seed: int) -> np.ndarray:
    """The stream order for ``order="permuted"``: the same for in-memory and file streams."""
    return np.random.default_rng(int(seed)).permutation(n)


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

    def _build(self):
        X, raw, extra = self._load()
        extra = dict(extra)
        if self.order == "permuted":
            perm = permutation(X.shape[0], self.seed)
            X, raw = X[perm], raw[perm]
        if self.task == "classification":
            labels = self._label_map()
            seen = set(np.unique(raw).tolist())
            extra["positive_label"] = labels.resolve(seen)
            extra["labels_seen"] = sorted(label_key(v) for v in seen)
            y, keep = labels.apply(raw)
            if keep is not None:
                X = X[keep]
        else:
            y = np.asarray(raw, dtype=np.float64)
        if self.standardize:
            X = Standardizer.fit(X).apply(X)
        if self.normalize:
            X = normalize_rows(X)
        return X, y, {"extra": extra}


class _Sklearn(RealArrays):
    loader_name: str = ""
    default_positive: Any = None

    def __init__(self, *, positive_label: Any = None, negative_label: Any = None,
                 order: str = "file", seed: int = 0, normalize: bool = False,
                 standardize: bool = False, bias: bool = False):
        self.positive_label, self.negative_label = positive_label, negative_label
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()

    def _source(self) -> str:
        return f"sklearn.datasets.{self.loader_name}"

    def _label_map(self) -> LabelMap:
        names = [str(v) for v in self._bunch().target_names]
        pos = self.default_positive if self.positive_label is None else self.positive_label
        source = self._source()
        if names != [str(i) for i in range(len(names))]:
            source += " (classes " + ", ".join(f"{i}={v}" for i, v in enumerate(names)) + ")"
        return LabelMap(*(names.index(v) if isinstance(v, str) and v in names else v
                          for v in (pos, self.negative_label)), source=source)

    def _bunch(self):
        import sklearn.datasets
        return getattr(sklearn.datasets, self.loader_name)()

    def _load(self):
        bunch = self._bunch()
        return bunch.data, bunch.target, {"dataset": self.loader_name}


class BreastCancer(_Sklearn, key="breast_cancer"):
    """Wisconsin diagnostic breast cancer (569 x 30); positive class: ``"malignant"`` (0)."""

    loader_name, default_positive = "load_breast_cancer", "malignant"


class Digits(_Sklearn, key="digits"):
    """8x8 handwritten digits (1797 x 64), one digit (``positive_label``, default 0) vs rest."""

    loader_name, default_positive = "load_digits", 0


class Wine(_Sklearn, key="wine"):
    """Wine recognition (178 x 13), one cultivar (default ``"class_0"``) vs rest."""

    loader_name, default_positive = "load_wine", "class_0"


class Iris(_Sklearn, key="iris"):
    """Fisher's iris (150 x 4), one species (default ``"setosa"``, separable) vs rest."""

    loader_name, default_positive = "load_iris", "setosa"


class Diabetes(RealArrays, key="diabetes"):
    """Diabetes progression (442 x 10), a regression stream with real targets.

    >>> round(float(Diabetes().materialize()[1][:3].sum()), 1)
    367.0
    """

    task = "regression"

    def __init__(self, *, order: str = "file", seed: int = 0, normalize: bool = False,
                 standardize: bool = False, bias: bool = False):
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()

    def _load(self):
        from sklearn.datasets import load_diabetes
        bunch = load_diabetes()
        return bunch.data, bunch.target, {"dataset": "load_diabetes"}



