"""The alternating linear losses that make Follow the Leader suffer linear regret."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from olbench.component import Interval
from olbench.streams.base import InMemoryStream


def alternating_losses(n: int, scale: float = 1.0) -> np.ndarray:
    """g_1 = scale/2, then g_t = -scale, +scale, -scale, ... (t = 2, 3, ...), one per row.

    >>> alternating_losses(5).ravel().tolist()
    [0.5, -1.0, 1.0, -1.0, 1.0]
    """
    g = np.where(np.arange(n) % 2 == 1, -1.0, 1.0) * scale
    g[0] = scale / 2
    return g[:, None]


class Alternating(InMemoryStream, key="alternating"):
    """f_t(w) = g_t w on K = [-G, G]... as rows: g_1 = G/2, then -G, +G, -G, ... (d = 1).

    The sums S_t = sum_{s<=t} g_s alternate between G/2 and -G/2, so Follow the Leader on
    [-1, 1] (w_{t+1} = -sign(S_t)) always plays the worse end and suffers loss G from round 2
    on, while u = 0 (or the best end) loses at most G/2 in total: FTL's regret is about G (T - 1).
    Source: Shalev-Shwartz (2012), "Online Learning and Online Convex Optimization",
    Example 2.2; Hazan (2016), Sec. 5.1. The labels y_t are 0 (unused: the row is the loss).

    >>> Alternating(n=4).materialize()[0].ravel().tolist()
    [0.5, -1.0, 1.0, -1.0]
    """

    task: ClassVar[str] = "oco"
    constraints = {"n": Interval(1, math.inf, integer=True),
                   "G": Interval(0, math.inf, low_open=True)}

    def __init__(self, *, n: int = 1000, G: float = 1.0):
        self.n = n
        self.G = G

    def value_range(self) -> tuple[float, float]:
        """Every entry is a gradient coordinate in [-G, G]."""
        return (-float(self.G), float(self.G))

    def _build(self):
        return alternating_losses(int(self.n), float(self.G)), np.zeros(int(self.n)), {}
