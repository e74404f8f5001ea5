"""OpenML datasets by name or id: ``stream.name=openml:credit-g`` or ``openml:31``.

Read through scikit-learn's ``fetch_openml`` (a well-kept client of OpenML's API with its own
cache: files are written to a temporary folder and moved into place, so an interrupted
download leaves no partial file), offline first like the catalogue's files:

1. each folder of :func:`olbench.datasets.search_path` (``run.data_dir`` / ``$OLBENCH_DATA``,
   ``../shared/data``, the download cache) is tried as scikit-learn's ``data_home`` under
   ``<folder>/openml``, with the network refused, so only a complete cached copy is used;
2. otherwise, unless ``$OLBENCH_OFFLINE`` is set, it is downloaded into
   ``<data folder or cache>/openml``. Offline with no copy: :class:`DatasetNotFound` says which
   command fills which folder.

Features: numeric columns as they are, categorical ones one-hot encoded (one column per
category, in OpenML's category order); a missing feature value is refused (no imputation).
Labels: the dataset's default target, kept as it is; classes are binarised as for LIBSVM's
multiclass sets (``positive_label``, optionally ``negative_label``), and a numeric target
with more than ten distinct values is read as regression.

>>> parse("openml:credit-g"), parse("openml:31"), parse("a9a")
({'name': 'credit-g'}, {'data_id': 31}, None)
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any
from urllib.error import URLError

import numpy as np

from olbench.datasets.fetch import (
    DatasetNotFound,
    cache_dir,
    data_dir,
    offline,
    search_path,
)

PREFIX = "openml:"
CITATION = ("J. Vanschoren, J. N. van Rijn, B. Bischl and L. Torgo, OpenML: networked science "
            "in machine learning, SIGKDD Explorations 15(2), 2013")
#: a numeric target with more distinct values than this is a regression target
MAX_CLASSES = 10


class NotCached(URLError):
    """Raised instead of a network request while looking in a local cache (a URLError, so
    scikit-learn neither retries nor deletes a cached file)."""

    def __init__(self):
        super().__init__("not in this cache (network refused while looking locally)")


def parse(name: Any) -> dict | None:
    """``fetch_openml`` keywords for ``openml:<name>`` / ``openml:<id>``; None otherwise."""
    if not isinstance(name, str) or not name.startswith(PREFIX):
        return None
    key = name[len(PREFIX):].strip()
    if not key:
        raise ValueError(f"dataset name {name!r}: say which OpenML dataset, e.g. "
                         f"openml:credit-g or openml:31")
    return {"data_id": int(key)} if key.isdigit() else {"name": key}


def fetch(key: dict, data_home: Path, network: bool):
    """The one function that reads OpenML: ``fetch_openml`` into ``data_home``; with
    ``network=False`` any request raises :class:`NotCached` instead of going out."""
    from sklearn.datasets import _openml, fetch_openml

    kw = dict(key, data_home=str(data_home), as_frame=True, parser="auto")
    if network:
        return fetch_openml(**kw)

    def refuse(*args, **kwargs):
        raise NotCached()

    real = _openml.urlopen
    _openml.urlopen = refuse
    try:
        with warnings.catch_warnings():      # its "network error ... retrying" is ours
            warnings.simplefilter("ignore")
            return fetch_openml(**kw, n_retries=1, delay=1e-3)   # no slow retries
    finally:
        _openml.urlopen = real


def _not_found(name: str, why: str, explicit) -> DatasetNotFound:
    looked = ", ".join(str(root / "openml") for _, root in search_path(explicit))
    target = (data_dir(explicit) or cache_dir()) / "openml"
    key = parse(name)
    call = ", ".join(f"{k}={v!r}" for k, v in key.items())
    return DatasetNotFound(
        f"OpenML dataset {name!r} is not on this machine and {why}. Looked in: {looked}. "
        f"Fill the cache once on a machine with network: python -c \"from sklearn.datasets "
        f"import fetch_openml; fetch_openml({call}, data_home='{target}')\" (and copy that "
        f"folder here), or unset OLBENCH_OFFLINE.")


def load(name: str, explicit=None) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """(X float64, raw labels, info) of an OpenML dataset, offline first."""
    key = parse(name)
    if key is None:
        raise ValueError(f"{name!r} is not an OpenML name (openml:<name> or openml:<id>)")
    bunch = None
    for label, root in search_path(explicit):
        try:
            bunch, where = fetch(key, root / "openml", network=False), label
            break
        except NotCached:
            continue
    if bunch is None:
        if offline():
            raise _not_found(name, "OLBENCH_OFFLINE is set", explicit)
        home = (data_dir(explicit) or cache_dir()) / "openml"
        try:
            bunch, where = fetch(key, home, network=True), "downloaded"
        except (OSError, ValueError) as error:   # no network, unknown name or id
            raise _not_found(name, f"could not be fetched ({type(error).__name__}: {error})",
                             explicit) from error
    X = features(bunch.data, name)
    raw = np.asarray(bunch.target.astype(object) if hasattr(bunch.target, "astype")
                     else bunch.target, dtype=object)
    if raw.ndim != 1:
        raise ValueError(f"OpenML dataset {name!r} has {raw.shape[1]} targets; olbench reads "
                         f"one")
    details = getattr(bunch, "details", {}) or {}
    info = {"openml_id": int(details.get("id", key.get("data_id", -1))),
            "openml_name": details.get("name", key.get("name")),
            "openml_version": details.get("version"), "where": where,
            "source": f"https://www.openml.org/d/{details.get('id', key.get('data_id', ''))}",
            "citation": CITATION}
    return X, raw, info


def features(frame, name: str) -> np.ndarray:
    """Numeric columns as float64, categorical ones one-hot (missing values refused).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"a": [1.0, 2.0], "c": pd.Categorical(["x", "y"])})
    >>> features(df, "toy").tolist()
    [[1.0, 1.0, 0.0], [2.0, 0.0, 1.0]]
    """
    import pandas as pd

    missing = [c for c in frame.columns if frame[c].isna().any()]
    if missing:
        raise ValueError(f"OpenML dataset {name!r}: missing feature values in column(s) "
                         f"{', '.join(map(str, missing[:5]))}; olbench does not impute them")
    categorical = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if categorical:
        frame = pd.get_dummies(frame, columns=categorical, dtype=np.float64)
    return np.ascontiguousarray(frame.to_numpy(dtype=np.float64))


def is_regression(raw: np.ndarray) -> bool:
    """A numeric target with more than :data:`MAX_CLASSES` distinct values."""
    try:
        values = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return len(np.unique(values)) > MAX_CLASSES
