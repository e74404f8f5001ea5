"""The stream's own generating vector u (synthetic streams only)."""

from __future__ import annotations

import math

import numpy as np

from olbench.comparators import _chunked
from olbench.comparators.base import LOSS_CHOICES, Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import Interval, OneOf


class Generating(Comparator, key="generating"):
    """The vector ``meta.u`` that generated the labels, scaled as asked.

    ``scale``: ``"none"`` (as stored), ``"unit_norm"`` (||u|| = 1) or ``"unit_margin"``
    (u / (||u|| gamma) with gamma = ``meta.margin``, so the clean margin min_t y_t u.x_t is 1 --
    the scaling of the PA bounds). Skipped when the stream has no generating vector.

    >>> import numpy as np
    >>> from olbench.streams.base import StreamMeta
    >>> X = np.eye(2); y = np.array([1.0, -1.0])
    >>> meta = StreamMeta("toy", "classification", 2, 2, u=np.array([1.0, -1.0]), margin=0.5**0.5)
    >>> Generating(scale="unit_margin").fit(X, y, meta).margins.round(6).tolist()
    [1.0, -1.0]
    >>> Generating().fit(X, y).skip_reason
    'stream has no generating vector (meta.u is None)'
    """

    constraints = {"loss": LOSS_CHOICES, "scale": OneOf("none", "unit_norm", "unit_margin"),
                   "epsilon": Interval(0, math.inf)}
    cacheable = False

    def __init__(self, *, loss=None, scale="none", epsilon=0.1):
        self.loss = loss
        self.scale = scale
        self.epsilon = epsilon

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        u = self._scaled(meta, X.shape[1])
        if isinstance(u, str):
            return self._skip(u, self.loss)
        return self._result(X, y, u, self.loss, self.epsilon)

    def streamed_problem(self) -> str | None:
        return None

    def _fit_stream(self, stream, meta, checkpoints) -> ComparatorFit:
        u = self._scaled(meta, meta.d)
        if isinstance(u, str):
            return self._skip(u, self.loss)
        sums = _chunked.evaluate(stream.chunks, u, self.loss, checkpoints, self.epsilon)
        return self._streamed_result(u, self.loss, checkpoints, sums)

    def _scaled(self, meta, d: int) -> np.ndarray | str:
        """The generating vector, scaled as asked, or why there is none."""
        u = getattr(meta, "u", None)
        if u is None:
            return "stream has no generating vector (meta.u is None)"
        u = np.asarray(u, dtype=float).ravel()
        if u.shape[0] != d:
            return f"meta.u has {u.shape[0]} entries but X has {d} columns"
        if self.scale != "none":
            u = u / np.linalg.norm(u)
        if self.scale == "unit_margin":
            gamma = getattr(meta, "margin", None)
            if gamma is None or not gamma > 0:
                return "unit_margin scaling needs a positive meta.margin"
            u = u / gamma
        return u
