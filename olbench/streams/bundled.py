"""Real data bundled with scikit-learn (offline): breast cancer, digits, wine, iris, diabetes.

Classification sets become binary tasks at the stream boundary: ``positive_label`` (a class
number or name) against the rest, or against ``negative_label`` only (the other rows are
dropped). The options every real-data stream shares (order, standardize, normalize, bias) are
described in :mod:`olbench.streams.real`.

>>> BreastCancer().meta.n, BreastCancer().meta.d
(569, 30)
>>> Digits(positive_label=3, negative_label=8).meta.n
357
"""

from __future__ import annotations

from typing import Any

from olbench.labels import LabelMap
from olbench.streams.real import RealArrays


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



