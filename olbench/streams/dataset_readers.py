"""The readers of ``stream=dataset``'s formats that have no stream of their own: LIBOL's
ARFF file and OpenML's datasets (in memory, loaded once per process). Not registered: a
catalogue name reads them (:class:`olbench.streams.datasets.Dataset`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from olbench.datasets import Card, DataFile, openml
from olbench.labels import sorted_labels
from olbench.paths import resolve_path
from olbench.streams.real import RealArrays, RealFile


class ArffFile(RealFile):
    """An ARFF file (LIBOL's sonar.arff), loaded whole; the last attribute is the label.

    Not registered: read through ``stream=dataset`` (its card names the positive class)."""

    def __init__(self, *, path: str, positive_label: Any = None, negative_label: Any = None,
                 order: str = "file", seed: int = 0, normalize: bool = False,
                 standardize: bool = False, bias: bool = False):
        self.path, self.positive_label, self.negative_label = path, positive_label, negative_label
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()

    def _load(self):
        from scipy.io import arff

        path = resolve_path(self.path)
        data, info = arff.loadarff(path)
        names = info.names()
        X = np.column_stack([data[n].astype(np.float64) for n in names[:-1]])
        raw = np.array([v.decode() if isinstance(v, bytes) else v for v in data[names[-1]]],
                       dtype=object)
        return X, raw, {"path": str(path)}


_OPENML: dict[tuple[str, str | None], tuple[Any, np.ndarray, dict]] = {}


def openml_arrays(name: str, data_dir: str | None) -> tuple[Any, np.ndarray, dict]:
    """An OpenML dataset's (X, raw labels, info), loaded once per process."""
    key = (name, data_dir)
    if key not in _OPENML:
        _OPENML[key] = openml.load(name, data_dir)
    return _OPENML[key]


def openml_card(name: str, data_dir: str | None) -> Card:
    """A card for an OpenML dataset, from the data themselves (OpenML has no fixed list)."""
    X, raw, info = openml_arrays(name, data_dir)
    classes = sorted_labels(set(raw.tolist()))
    regression = openml.is_regression(raw)
    task = "regression" if regression else "binary" if len(classes) <= 2 else "multiclass"
    shown = ",".join(map(str, classes[:6])) + (",..." if len(classes) > 6 else "")
    return Card(name, "openml", task, X.shape[1],
                DataFile(f"{info['openml_name']} (OpenML id {info['openml_id']}, version "
                         f"{info['openml_version']})", X.shape[0]),
                classes=None if regression else len(classes),
                labels="real" if regression else "{" + shown + "}", format="openml",
                source=info["source"], citation=info["citation"])


class OpenMLData(RealArrays):
    """An OpenML dataset in memory. Not registered: read through ``stream=dataset
    stream.name=openml:<name or id>``."""

    def __init__(self, *, name: str, data_dir: str | None = None, task: str = "classification",
                 positive_label: Any = None, negative_label: Any = None, order: str = "file",
                 seed: int = 0, normalize: bool = False, standardize: bool = False,
                 bias: bool = False):
        self.dataset, self.data_dir, self.task = name, data_dir, task
        self.positive_label, self.negative_label = positive_label, negative_label
        self.order, self.seed = order, seed
        self.normalize, self.standardize, self.bias = normalize, standardize, bias
        self.validate()

    def get_params(self) -> dict[str, Any]:
        return {p: self.dataset if p == "name" else getattr(self, p) for p in self.param_names()}

    def _source(self) -> str:
        return f"dataset {self.dataset!r}"

    def _load(self):
        X, raw, info = openml_arrays(self.dataset, self.data_dir)
        if self.task == "regression":
            raw = np.asarray(raw, dtype=np.float64)
        return X, raw, {k: v for k, v in info.items() if k != "citation"}
