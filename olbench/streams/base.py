"""The stream contract: chunks of (X, y) plus meta.

A stream is a :class:`~olbench.component.Component` (keyword-only parameters, a registry key,
a deterministic name) that yields its examples in order, chunk by chunk, so a stream larger
than memory runs in constant memory. Same parameters + same seed -> the same bytes, and the
same :attr:`StreamMeta.fingerprint`.

* ``X`` is float64: a C-contiguous ``ndarray`` of shape (rows, d) or a
  ``scipy.sparse.csr_matrix`` of shape (rows, d).
* ``y`` is float64: labels in {-1, +1} for classification (converted once, here at the
  stream boundary), real targets for regression.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterator

import numpy as np
import scipy.sparse as sp

from olbench.component import Component, Registry

Chunk = tuple["np.ndarray | sp.csr_matrix", np.ndarray]


@dataclass
class StreamMeta:
    """What is known about a stream. Unknown values are ``None``.

    radius: R = max_t ||x_t|| (realised). margin: gamma = min_t y_t u.x_t / ||u|| for the
    generating vector ``u`` (synthetic streams only). ``flipped``: boolean per round, True where
    the observed label was flipped by noise; ``clean_y``: the labels before noise.
    """

    name: str
    task: str                       # "classification" or "regression"
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


class Stream(Component):
    """Base class of all streams; subclasses register with ``class S(Stream, key="...")``."""

    registry: ClassVar[Registry] = Registry("stream", "olbench.streams")
    task: ClassVar[str] = "classification"

    def chunks(self, chunk_size: int | None = None) -> Iterator[Chunk]:
        """Yield (X, y) chunks in stream order."""
        raise NotImplementedError

    @property
    def meta(self) -> StreamMeta:
        raise NotImplementedError
