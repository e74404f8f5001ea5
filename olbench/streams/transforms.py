"""Streams made from another stream: its rows through the empirical kernel map, or repeated
over several passes. Each wraps any stream (``stream=`` a stream, or in a config a nested
``_target_`` spec) and is itself a stream, so the two compose with each other and with
everything else (``Passes(stream=KernelMap(stream=Sinc(...)), passes=100)``).

* :class:`KernelMap`: features k_j(x) = exp(-||x - c_j||^2 / hh) at chosen centres c_j
  (the inner stream's inputs, a seeded sample of them, or given points): a linear learner
  on these features is the Gaussian kernel model of Sugiyama (2015), ch. 31's listings.
* :class:`Passes`: the inner stream ``passes`` times (epochs), each pass in the inner order
  or in its own seeded permutation. Rounds count every pass: ``meta.n`` = passes x the inner
  n, and every metric (mistakes, regret, bounds) is over all of them.

>>> from olbench.streams import Sinc
>>> s = Passes(stream=KernelMap(stream=Sinc(n=5, features="raw", bias=False)), passes=3)
>>> s.meta.n, s.meta.d, s.meta.extra["passes"]
(15, 5, 3)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from olbench.component import Component, Interval, IsInstance, OneOf
from olbench.streams.base import Chunk, Fingerprint, InMemoryStream, Stream, StreamMeta
from olbench.streams.base import _check_chunk_size as check_chunk_size
from olbench.streams.preprocess import gaussian_kernel_features

_SEED = Interval(0, 2**63 - 1, integer=True)


def _display_of(stream: Any) -> str:
    """The short name of an inner stream, given as a stream or (parsed from a name) a string."""
    from olbench.names import display_name

    return stream.display_name if isinstance(stream, Component) else display_name(str(stream))


class _Wrapper:
    """What the wrappers share: the task is the inner stream's, and so are the rounds."""

    stream: Stream

    @property
    def task(self) -> str:
        return self.stream.task

    def known_rounds(self) -> int | None:
        return self.stream.known_rounds()


class KernelMap(_Wrapper, InMemoryStream, key="kernel_map"):
    """The empirical kernel map of any stream: row x becomes (k_1(x), ..., k_m(x)) with
    k_j(x) = exp(-||x - c_j||^2 / hh), the Gaussian kernel of width h for hh = 2 h^2
    (Sugiyama 2015, ch. 31, listings of Fig. 31.5 and 31.9: ``hh = 2*0.3^2`` and centres at
    the training inputs, so a linear learner fits the kernel model f(x) = sum_j t_j k_j(x)).

    ``centers``: ``"inputs"`` (every row of the inner stream, in its order: m = n),
    ``"sample"`` (``n_centers`` distinct rows drawn with ``centers_seed``), or a list of
    points (each of the inner stream's dimension). ``bias=True`` appends a constant 1 after
    the kernel features. ``meta.extra`` keeps the inner stream's extras plus ``centers``
    (m x d array), ``hh`` and ``inputs`` (the inner rows, dense), so a fit can be drawn
    over the input space; ``meta.clean_y`` and ``meta.flipped`` are the inner stream's.
    ``meta.radius`` is that of the kernel features (at most sqrt(m), plus the bias).

    >>> from olbench.streams import Sinc
    >>> s = KernelMap(stream=Sinc(n=4, design="grid", features="raw", bias=False), hh=0.18)
    >>> X, _ = s.materialize()
    >>> X.shape, float(X[0, 0])          # each input is its own centre: k = 1 there
    ((4, 4), 1.0)
    """

    constraints = {"stream": IsInstance(Stream), "hh": Interval(0, math.inf, low_open=True),
                   "centers": IsInstance(str, list, tuple, np.ndarray),
                   "n_centers": Interval(1, math.inf, integer=True, none_ok=True),
                   "centers_seed": _SEED, "bias": OneOf(True, False)}

    def __init__(self, *, stream: Stream, hh: float = 0.18, centers: Any = "inputs",
                 n_centers: int | None = None, centers_seed: int = 0, bias: bool = False):
        self.stream, self.hh, self.centers = stream, hh, centers
        self.n_centers, self.centers_seed, self.bias = n_centers, centers_seed, bias
        self.validate()
        if isinstance(centers, str) and centers not in ("inputs", "sample"):
            raise ValueError(f"KernelMap: centers={centers!r}; use 'inputs', 'sample' or a "
                             f"list of points")
        if (centers == "sample") != (n_centers is not None):
            raise ValueError(f"KernelMap: n_centers={n_centers!r} is for centers='sample' "
                             f"(and required there), got centers={centers!r}")

    @classmethod
    def display(cls, params) -> str:
        return f"{_display_of(params.get('stream'))}, kernel map (hh={params.get('hh')})"

    def _centers(self, inputs: np.ndarray) -> np.ndarray:
        if isinstance(self.centers, str) and self.centers == "inputs":
            return inputs.copy()
        if isinstance(self.centers, str):        # "sample"
            if self.n_centers > len(inputs):
                raise ValueError(f"KernelMap: n_centers={self.n_centers} but the stream has "
                                 f"only {len(inputs)} rows")
            rng = np.random.default_rng(int(self.centers_seed))
            return inputs[np.sort(rng.choice(len(inputs), int(self.n_centers), replace=False))]
        centers = np.atleast_2d(np.asarray(self.centers, dtype=np.float64))
        if centers.shape[1] != inputs.shape[1] or not np.isfinite(centers).all():
            raise ValueError(f"KernelMap: centers must be finite points of dimension "
                             f"{inputs.shape[1]} (the stream's), got shape {centers.shape}")
        return centers

    def _build(self):
        X, y = self.stream.materialize()
        inputs = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
        centers = self._centers(inputs)
        inner = self.stream.meta
        features = gaussian_kernel_features(inputs, centers, float(self.hh))
        inputs.flags.writeable = False
        centers.flags.writeable = False
        extra = {**inner.extra, "centers": centers, "hh": float(self.hh), "inputs": inputs}
        return features, y, {"clean_y": inner.clean_y, "flipped": inner.flipped,
                             "extra": extra}


class Passes(_Wrapper, Stream, key="passes"):
    """A stream ``passes`` times over (epochs): pass p yields every row of the inner stream,
    in its own order (``order="file"``) or in a permutation drawn for that pass
    (``"permuted"``: pass p uses child p of ``SeedSequence(seed)``, so the passes' orders
    are reproducible and independent). In file order the inner stream is streamed again for
    each pass (constant memory); a permuted pass needs the inner stream in memory.

    Rounds count every pass (``meta.n`` = passes x n): the protocol, the metrics and the
    bounds see passes x n rounds. ``meta.extra``: the inner extras (per row of the inner
    stream), ``passes``, ``pass_length`` (n) and ``rows`` (for each round, the inner row it
    shows). ``flipped`` and ``clean_y`` follow the rounds. Radius, margin and the generating
    vector are the inner stream's (the same rows).

    >>> from olbench.streams import Separable
    >>> s = Passes(stream=Separable(n=3, d=2), passes=2, order="permuted", seed=1)
    >>> s.meta.extra["rows"].tolist()
    [1, 0, 2, 0, 1, 2]
    """

    constraints = {"stream": IsInstance(Stream), "passes": Interval(1, math.inf, integer=True),
                   "order": OneOf("file", "permuted"), "seed": _SEED}

    def __init__(self, *, stream: Stream, passes: int = 1, order: str = "file", seed: int = 0):
        self.stream, self.passes, self.order, self.seed = stream, passes, order, seed
        self.validate()

    def known_rounds(self) -> int | None:
        inner = self.stream.known_rounds()
        return None if inner is None else inner * int(self.passes)

    @classmethod
    def display(cls, params) -> str:
        order = params.get("order")
        passes = params.get("passes")
        return (f"{_display_of(params.get('stream'))}, {passes} pass{'es' * (passes != 1)}"
                + (f" ({order})" if order == "permuted" else ""))

    def pass_orders(self, n: int) -> list[np.ndarray]:
        """The inner row index of each round of each pass."""
        if self.order == "file":
            return [np.arange(n)] * int(self.passes)
        children = np.random.SeedSequence(int(self.seed)).spawn(int(self.passes))
        return [np.random.default_rng(child).permutation(n) for child in children]

    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        size = check_chunk_size(chunk_size)
        if self.order == "file":
            for _ in range(int(self.passes)):
                yield from self.stream.chunks(size)
            return
        X, y = self.stream.materialize()
        for rows in self.pass_orders(X.shape[0]):
            for start in range(0, len(rows), size):
                picked = rows[start:start + size]
                yield X[picked], y[picked]

    @property
    def meta(self) -> StreamMeta:
        return self._cached("_meta_cache", self._make_meta)

    def _make_meta(self) -> StreamMeta:
        inner = self.stream.meta
        rows = np.concatenate(self.pass_orders(inner.n))
        fingerprint = Fingerprint()
        for X, y in self.chunks():
            fingerprint.update(X, y)
        per_round = {k: None if v is None else v[rows]
                     for k, v in (("flipped", inner.flipped), ("clean_y", inner.clean_y))}
        rows.flags.writeable = False
        return StreamMeta(
            name=self.name, task=self.task, n=inner.n * int(self.passes), d=inner.d,
            radius=inner.radius, margin=inner.margin, u=inner.u,
            fingerprint=fingerprint.hexdigest(), bias=inner.bias, sparse=inner.sparse,
            **per_round, extra={**inner.extra, "passes": int(self.passes),
                                "pass_length": inner.n, "rows": rows})


class Rows(_Wrapper, InMemoryStream, key="rows"):
    """Chosen rows of another stream, in a chosen order: round t shows the inner stream's
    row ``rows[t]`` (0-based; a row may come back). The streams the bound atlas's search
    builds (:mod:`olbench.atlas.search`: an ordering of a generator's rows, or the rows an
    adaptive adversary picked) are these, so a witness is the inner stream's generator and
    seed plus a list of integers.

    Every fact is measured on the rows shown, not inherited: the radius, the margin with
    respect to the inner stream's generating vector ``u`` (at least the inner margin: fewer
    rows), the fingerprint. A multiclass stream keeps the inner margin (its rows' margin
    with respect to the inner generating matrix, computed for all of them: a lower bound for
    any subset) and class codes. ``meta.extra``: ``rows`` (the indices) and the inner
    stream's ``flipped`` and ``clean_y`` per round.

    >>> from olbench.streams import Separable
    >>> s = Rows(stream=Separable(n=4, d=2), rows=[3, 3, 0])
    >>> s.meta.n, bool(s.meta.margin >= Separable(n=4, d=2).meta.margin)
    (3, True)
    """

    constraints = {"stream": IsInstance(Stream), "rows": IsInstance(Sequence, np.ndarray)}

    def __init__(self, *, stream: Stream, rows: Any = (0,)):
        self.stream, self.rows = stream, rows
        self.validate()

    def known_rounds(self) -> int | None:
        return len(self.rows)

    def value_range(self) -> tuple[float, float] | None:
        return self.stream.value_range()   # the same entries

    @classmethod
    def display(cls, params) -> str:
        return f"{_display_of(params.get('stream'))}, {len(params.get('rows', ()))} rows chosen"

    def _build(self):
        X, y = self.stream.materialize()
        inner = self.stream.meta
        rows = np.asarray(self.rows)
        if rows.ndim != 1 or not len(rows) or rows.dtype.kind not in "iu" and not (
                rows.dtype.kind == "f" and np.all(rows == np.round(rows))):
            raise ValueError(f"Rows: rows must be a non-empty list of row indices, got "
                             f"{self.rows!r:.80}")
        rows = rows.astype(np.int64)
        outside = rows[(rows < 0) | (rows >= inner.n)]
        if outside.size:
            raise ValueError(f"Rows: row index {int(outside[0])} is outside the {inner.n} rows "
                             f"of {self.stream.name}")
        per_round = {k: None if v is None else v[rows]
                     for k, v in (("flipped", inner.flipped), ("clean_y", inner.clean_y))}
        fields = {"u": inner.u, "extra": {"rows": rows}, **per_round}
        if self.task == "multiclass":
            fields.update(margin=inner.margin, classes=inner.classes)
        return X[rows], y[rows], fields
