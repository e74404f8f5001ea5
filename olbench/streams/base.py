"""The stream contract: chunks of (X, y) plus meta.

A stream is a :class:`~olbench.component.Component` (keyword-only parameters, a registry key,
a deterministic name) that yields its examples in order, chunk by chunk, so a stream larger
than memory runs in constant memory. Same parameters + same seed -> the same bytes, and the
same :attr:`StreamMeta.fingerprint`.

* ``X`` is float64: a C-contiguous ``ndarray`` of shape (rows, d) or a
  ``scipy.sparse.csr_matrix`` of shape (rows, d).
* ``y`` is float64: labels in {-1, +1} for classification (converted once, here at the
  stream boundary), real targets for regression.

Helpers shared by every stream live here too: :class:`Fingerprint` (a sha256 of the exact
bytes, independent of the chunk size), :meth:`Stream.materialize` (the whole stream as one
(X, y)), and :class:`InMemoryStream`, the base of streams whose data fit in memory (synthetic
and bundled): a subclass only writes ``_build()``.

>>> import numpy as np
>>> class Tiny(InMemoryStream):
...     def _build(self):
...         return np.array([[3.0, 4.0], [0.0, 1.0]]), np.array([1.0, -1.0]), {}
>>> Tiny().meta.radius
5.0
>>> [len(y) for _, y in Tiny().chunks(1)]
[1, 1]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import scipy.sparse as sp

from olbench.component import Component, Registry
from olbench.features import as_features, row_norms
from olbench.streams.orders import RUN_INDEXED_ORDERS

Chunk = tuple["np.ndarray | sp.csr_matrix", np.ndarray]


@dataclass
class StreamMeta:
    """What is known about a stream. Unknown values are ``None``.

    radius: R = max_t ||x_t|| (realised, over the features as streamed, bias included).
    margin: gamma = min_t y_t u.x_t / ||u|| for the generating vector ``u`` (synthetic streams
    only), over the labels and features as streamed, so it is negative when noise made the
    stream non-separable. ``flipped``: boolean per round, True where the observed label was
    flipped by noise; ``clean_y``: the labels before noise. ``fingerprint``: see
    :class:`Fingerprint`. ``extra``: stream-specific facts (e.g. ``clean_margin``,
    ``outliers``, ``switch_times``, ``labels_seen``); every key is documented by its stream.
    """

    name: str
    task: str                       # "classification", "regression", "multiclass", "oco"
    n: int
    d: int
    radius: float | None = None
    margin: float | None = None
    u: np.ndarray | None = None
    fingerprint: str | None = None
    bias: bool = False              # a constant feature was appended (last column)
    sparse: bool = False
    flipped: np.ndarray | None = None
    clean_y: np.ndarray | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: a multiclass stream's class codes, ascending (its labels are these codes)
    classes: np.ndarray | None = None


class Stream(Component):
    """Base class of all streams; subclasses register with ``class S(Stream, key="...")``."""

    registry: ClassVar[Registry] = Registry("stream", "olbench.streams")
    task: ClassVar[str] = "classification"

    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        """Yield (X, y) chunks in stream order (``chunk_size`` rows each, the last one fewer)."""
        raise NotImplementedError

    @property
    def meta(self) -> StreamMeta:
        raise NotImplementedError

    def known_rounds(self) -> int | None:
        """The number of rounds when the parameters say it, without reading or drawing the
        data (a synthetic stream's ``n``); None when only the data can tell."""
        n = getattr(self, "n", None) if "n" in self.param_names() else None
        return None if n is None else int(n)

    def known_features(self) -> int | None:
        """The features of a row (``meta.d``) when the parameters say it, without reading or
        drawing the data: a synthetic stream's ``d``, plus its bias column; None when only
        the data can tell."""
        names = self.param_names()
        d = getattr(self, "d", None) if "d" in names else None
        if d is None:
            return None
        return int(d) + int(bool(getattr(self, "bias", False)) if "bias" in names else 0)

    @classmethod
    def seed_in_run(cls, params: Mapping[str, Any], run_seed: int, child: int) -> int:
        """The ``seed`` this stream is built with in a grid's run of seed ``run_seed``:
        ``child``, a seed derived from the run's (the stream and the learner of a run vary
        independently); a stream whose order is indexed by the run (``order="libol"``: run i
        of LIBOL's protocol visits LIBOL's permutation i) takes the run's seed itself."""
        return int(run_seed) if params.get("order") in RUN_INDEXED_ORDERS else child

    @property
    def classes(self) -> np.ndarray | None:
        """A multiclass stream's class codes (``meta.classes``; a file stream reads its
        labels once to know them); None for the other tasks."""
        return self.meta.classes if self.task == "multiclass" else None

    def value_range(self) -> tuple[float, float] | None:
        """(low, high) that every row entry lies in when the parameters say it (an OCO
        stream's losses; the experts' are in [0, 1]); None when they do not."""
        return None

    def _cached(self, name: str, build) -> Any:
        """``build()`` once per instance, kept in ``self.__dict__[name]`` (name ends ``_cache``)."""
        value = self.__dict__.get(name)
        if value is None:
            value = self.__dict__[name] = build()
        return value

    def __getstate__(self) -> dict[str, Any]:
        # pickled (e.g. to joblib workers) without cached data: rebuilt there, same bytes
        return {k: v for k, v in self.__dict__.items() if not k.endswith("_cache")}

    def materialize(self) -> Chunk:
        """The whole stream as one (X, y); only for streams that fit in memory."""
        Xs, ys = [], []
        for X, y in self.chunks():
            Xs.append(X)
            ys.append(y)
        if not Xs:
            raise ValueError(f"{self.name}: the stream is empty")
        X = sp.vstack(Xs, format="csr") if sp.issparse(Xs[0]) else np.concatenate(Xs)
        return X, np.concatenate(ys)



DEFAULT_CHUNK_SIZE = 10_000


class Fingerprint:
    """sha256 of the exact bytes of a stream, fed chunk by chunk; the chunk size does not matter.

    Dense X, CSR X (row lengths, column indices, values) and y are hashed in separate running
    digests, so the same data cut into other chunks give the same hex digest.

    >>> import numpy as np
    >>> X, y = np.arange(6.0).reshape(3, 2), np.array([1.0, -1.0, 1.0])
    >>> a, b = Fingerprint(), Fingerprint()
    >>> a.update(X, y); b.update(X[:1], y[:1]); b.update(X[1:], y[1:])
    >>> a.hexdigest() == b.hexdigest()
    True
    """

    def __init__(self) -> None:
        self._parts = {k: hashlib.sha256() for k in ("shape", "dense", "rowlen", "indices",
                                                      "data", "y")}
        self._d: int | None = None

    def update(self, X, y: np.ndarray) -> None:
        if self._d is None:
            self._d = X.shape[1]
            self._parts["shape"].update(f"d={X.shape[1]};sparse={sp.issparse(X)}".encode())
        if sp.issparse(X):
            self._parts["rowlen"].update(np.diff(X.indptr).astype(np.int64).tobytes())
            self._parts["indices"].update(X.indices.astype(np.int64).tobytes())
            self._parts["data"].update(np.ascontiguousarray(X.data, np.float64).tobytes())
        else:
            self._parts["dense"].update(np.ascontiguousarray(X, np.float64).tobytes())
        self._parts["y"].update(np.ascontiguousarray(y, np.float64).tobytes())

    def hexdigest(self, length: int = 16) -> str:
        total = hashlib.sha256()
        for part in self._parts.values():
            total.update(part.digest())
        return total.hexdigest()[:length]


def fingerprint_chunks(chunks: Iterable[Chunk]) -> str:
    """The :class:`Fingerprint` of a sequence of (X, y) chunks."""
    fp = Fingerprint()
    for X, y in chunks:
        fp.update(X, y)
    return fp.hexdigest()


def margin_of(u: np.ndarray, X, y: np.ndarray) -> float:
    """min_t y_t u.x_t / ||u||: the margin of the stream (X, y) with respect to u."""
    return float(np.min(y * (X @ u)) / np.linalg.norm(u))


def append_bias(X, value: float = 1.0):
    """X with a constant last column ``value`` (dense or CSR, format kept)."""
    ones = np.full((X.shape[0], 1), value)
    if sp.issparse(X):
        return sp.hstack([X, sp.csr_matrix(ones)], format="csr")
    return np.hstack([X, ones])


def _check_chunk_size(chunk_size: int | None) -> int:
    size = DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
        raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    return int(size)


class InMemoryStream(Stream):
    """A stream whose data are built once in memory, cached on the instance, and sliced.

    Subclasses write ``_build() -> (X, y, meta_fields)`` where ``meta_fields`` may set ``u``,
    ``flipped``, ``clean_y`` and ``extra`` (and ``margin`` to override the computed one).
    If the stream has a ``bias`` parameter that is true, a constant column is appended
    after ``_build`` (1, or the stream's ``bias_value`` parameter if it has one) and ``u`` is
    padded with a 0 (so margins w.r.t. ``u`` are unchanged).
    n, d, R, the margin w.r.t. ``u`` and the fingerprint are computed here. The cached
    arrays are read-only: chunks are views, never copies.
    """

    def _build(self) -> tuple[Any, np.ndarray, dict[str, Any]]:
        raise NotImplementedError

    def _data(self) -> tuple[Any, np.ndarray, StreamMeta]:
        return self._cached("_data_cache", self._assemble)

    def _assemble(self) -> tuple[Any, np.ndarray, StreamMeta]:
        X, y, fields = self._build()
        X = as_features(X, check_finite=False)
        y = np.ascontiguousarray(y, dtype=np.float64).ravel()
        if X.shape[0] != y.shape[0]:
            raise ValueError(f"{self.name}: {X.shape[0]} rows of features but {y.shape[0]} labels")
        fields = dict(fields)
        u = fields.pop("u", None)
        bias = bool(getattr(self, "bias", False))
        if bias:
            X = append_bias(X, float(getattr(self, "bias_value", 1.0)))
            if u is not None:
                u = np.append(u, 0.0)
        margin = fields.pop("margin", None)
        if margin is None and u is not None and self.task == "classification" and len(y):
            margin = margin_of(u, X, y)
        for arr in (X.data, X.indices, X.indptr) if sp.issparse(X) else (X,):
            arr.flags.writeable = False
        y.flags.writeable = False
        fp = Fingerprint()
        fp.update(X, y)
        meta = StreamMeta(
            name=self.name, task=self.task, n=X.shape[0], d=X.shape[1],
            radius=float(row_norms(X).max()) if X.shape[0] else 0.0, margin=margin, u=u,
            fingerprint=fp.hexdigest(), bias=bias, sparse=sp.issparse(X), **fields)
        return X, y, meta

    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        size = _check_chunk_size(chunk_size)
        X, y, _ = self._data()
        for start in range(0, X.shape[0], size):
            yield X[start:start + size], y[start:start + size]

    @property
    def meta(self) -> StreamMeta:
        return self._data()[2]

    def materialize(self) -> Chunk:
        X, y, _ = self._data()
        return X, y

