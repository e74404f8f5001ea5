"""A sparse stream at the scale of click and text data, generated chunk by chunk."""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp

from olbench.component import Interval
from olbench.features import row_norms
from olbench.streams.base import Chunk, Fingerprint, Stream, StreamMeta, _check_chunk_size
from olbench.streams.files.blocks import rechunk
from olbench.streams.synthetic.draw import COUNT, SEED

#: rows drawn per block: each block has its own generator (the block index is its spawn
#: key), so the rows are the same whatever the chunk size a run asks for
BLOCK_ROWS = 4096


class PlantedSparse(Stream, key="planted_sparse"):
    """Sparse rows labelled by a planted sparse separator, generated block by block in
    constant memory (n and d up to 2^24 and beyond).

    The separator u has ``active`` non-zero coordinates (a random support, N(0, 1) values,
    ||u|| = 1). Each row has ``informative`` entries drawn from u's support and
    ``nnz - informative`` from all d columns (both with replacement: a row whose draws
    collide has fewer entries, summed), values N(0, 1/nnz), so ||x|| is about 1. The label is
    sign(u.x) (+1 at 0), then flipped with probability ``flip_rate`` (label noise:
    ``meta.flipped``, ``meta.clean_y``). A first pass computes the meta (n, d, R, the margin
    of the observed labels w.r.t. u, the fingerprint) without holding the rows; u is not kept
    in ``meta.u`` (d numbers) but as ``meta.extra["u_support"]``, ``["u_values"]``.

    >>> s = PlantedSparse(n=1000, d=2**20, nnz=20, active=100, informative=4, seed=0)
    >>> X, y = next(s.chunks(500))
    >>> X.shape, int(X.getnnz(axis=1).max()) <= 20, s.meta.margin > 0
    ((500, 1048576), True, True)
    """

    constraints = {"n": COUNT, "d": COUNT, "nnz": COUNT, "active": COUNT,
                   "informative": Interval(0, math.inf, integer=True),
                   "flip_rate": Interval(0, 0.5, high_open=True), "seed": SEED}
    display_params = ("d", "nnz")

    def __init__(self, *, n: int = 10000, d: int = 2**20, nnz: int = 50, active: int = 1000,
                 informative: int = 5, flip_rate: float = 0.0, seed: int = 0):
        self.n, self.d, self.nnz, self.active = n, d, nnz, active
        self.informative, self.flip_rate, self.seed = informative, flip_rate, seed
        self.validate()
        for name, value, limit, what in (("nnz", nnz, d, "d"), ("active", active, d, "d"),
                                         ("informative", informative, min(nnz, active),
                                          "min(nnz, active)")):
            if value > limit:
                raise ValueError(f"PlantedSparse: {name}={value} exceeds {what} = {limit}")

    def _separator(self) -> tuple[np.ndarray, np.ndarray]:
        """u's support (sorted) and its values (||u|| = 1)."""
        rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(0,)))
        support = np.sort(rng.choice(int(self.d), int(self.active), replace=False))
        values = rng.standard_normal(int(self.active))
        return support, values / np.linalg.norm(values)

    def _blocks(self) -> Iterator[tuple[sp.csr_matrix, np.ndarray, np.ndarray, np.ndarray,
                                        np.ndarray]]:
        """(X, y, clean y, flipped, u.x) per block of :data:`BLOCK_ROWS` rows."""
        support, values = self._cached("_u_cache", self._separator)
        nnz, informative = int(self.nnz), int(self.informative)
        for b, start in enumerate(range(0, int(self.n), BLOCK_ROWS)):
            rows = min(BLOCK_ROWS, int(self.n) - start)
            rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(1, b)))
            cols = np.concatenate([support[rng.integers(0, support.size, (rows, informative))],
                                   rng.integers(0, int(self.d), (rows, nnz - informative))],
                                  axis=1)
            data = rng.standard_normal((rows, nnz)) / math.sqrt(nnz)
            X = sp.csr_matrix((data.ravel(), cols.ravel(), np.arange(0, rows * nnz + 1, nnz)),
                              shape=(rows, int(self.d)))
            X.sum_duplicates()
            at = np.minimum(np.searchsorted(support, X.indices), support.size - 1)
            weights = np.where(support[at] == X.indices, values[at], 0.0)
            scores = np.add.reduceat(X.data * weights, X.indptr[:-1]) if X.nnz else \
                np.zeros(rows)
            scores[np.diff(X.indptr) == 0] = 0.0        # reduceat's value for an empty row
            clean = np.where(scores >= 0.0, 1.0, -1.0)
            flipped = rng.random(rows) < float(self.flip_rate)
            yield X, np.where(flipped, -clean, clean), clean, flipped, scores

    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        size = _check_chunk_size(chunk_size)
        yield from rechunk(((X, y) for X, y, *_ in self._blocks()), size)

    @property
    def meta(self) -> StreamMeta:
        return self._cached("_meta_cache", self._compute_meta)

    def _compute_meta(self) -> StreamMeta:
        fp, radius, margin = Fingerprint(), 0.0, math.inf
        cleans, flips = [], []
        for X, y, clean, flipped, scores in self._blocks():
            fp.update(X, y)
            radius = max(radius, float(row_norms(X).max()))
            margin = min(margin, float(np.min(y * scores)))      # ||u|| = 1
            cleans.append(clean)
            flips.append(flipped)
        support, values = self._cached("_u_cache", self._separator)
        return StreamMeta(name=self.name, task=self.task, n=int(self.n), d=int(self.d),
                          radius=radius, margin=margin, fingerprint=fp.hexdigest(), sparse=True,
                          flipped=np.concatenate(flips), clean_y=np.concatenate(cleans),
                          extra={"u_support": support, "u_values": values,
                                 "flip_rate": float(self.flip_rate)})
