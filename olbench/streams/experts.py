"""Prediction with expert advice: a loss vector in [0, 1]^N per round."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from olbench.component import Interval, OneOf
from olbench.streams.base import InMemoryStream

MODES = ("stochastic", "adversarial", "switching")


def punish_the_leader(base: np.ndarray) -> np.ndarray:
    """``base`` losses (n x k) with the current leader (smallest cumulative loss so far, the
    first on ties) of each round given loss 1 on that round: the sequence that makes
    following the leader among these experts costly.

    >>> punish_the_leader(np.zeros((4, 2))).tolist()
    [[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]
    """
    losses = base.copy()
    cumulative = np.zeros(base.shape[1])
    for t in range(base.shape[0]):
        losses[t, int(np.argmin(cumulative))] = 1.0
        cumulative += losses[t]
    return losses


class Experts(InMemoryStream, key="experts"):
    """N experts' losses in {0, 1}: one planted good expert, the others worse.

    The good expert suffers Bernoulli(``p_best``) losses, every other one Bernoulli(``p_best
    + gap``) (``mode="stochastic"``); with ``mode="adversarial"`` the others' leader (the one
    with the smallest cumulative loss so far) is moreover given loss 1 on every round;
    ``mode="switching"``: the good expert changes ``switches`` times, at equally spaced
    rounds, cycling through the experts (``meta.extra["switch_times"]``, the 0-based rounds
    where a new one starts, and ``meta.extra["best_expert"]``, the good expert of each
    segment). The row x_t is the loss vector (Hedge suffers <w_t, x_t>); labels are 0.

    >>> s = Experts(n=6, N=3, p_best=0.0, gap=1.0, seed=0)
    >>> s.materialize()[0][0].tolist(), s.meta.extra["best_expert"]
    ([0.0, 1.0, 1.0], [0])
    """

    task: ClassVar[str] = "oco"
    #: N is named even at its default: panels and tables of several N must say which is which
    display_params = ("N",)
    constraints = {"n": Interval(1, math.inf, integer=True),
                   "N": Interval(1, math.inf, integer=True),
                   "p_best": Interval(0, 1), "gap": Interval(0, 1), "mode": OneOf(*MODES),
                   "switches": Interval(0, math.inf, integer=True),
                   "seed": Interval(0, 2**63 - 1, integer=True)}

    def __init__(self, *, n: int = 1000, N: int = 10, p_best: float = 0.3, gap: float = 0.2,
                 mode: str = "stochastic", switches: int = 3, seed: int = 0):
        self.n = n
        self.N = N
        self.p_best = p_best
        self.gap = gap
        self.mode = mode
        self.switches = switches
        self.seed = seed

    def value_range(self) -> tuple[float, float]:
        """Every loss is 0 or 1."""
        return (0.0, 1.0)

    @classmethod
    def display_shown(cls, params):
        """N always; the number of switches exactly when the good expert switches.

        >>> Experts(n=100, mode="switching").display_name, Experts(n=100).display_name
        ('Experts (n=100, N=10, mode=switching, switches=3)', 'Experts (n=100, N=10)')
        """
        switching = params.get("mode", cls.param_defaults()["mode"]) == "switching"
        shown = [k for k in super().display_shown(params) if k != "switches" or switching]
        return shown + (["switches"] if switching and "switches" in params
                        and "switches" not in shown else [])

    def validate(self):
        super().validate()
        if self.p_best + self.gap > 1:
            from olbench.component import InvalidParameterError

            raise InvalidParameterError(f"Experts: invalid gap={self.gap!r} with p_best="
                                        f"{self.p_best!r}; p_best + gap must be <= 1 (a "
                                        f"probability)")

    def _build(self):
        self.validate()
        n, N = int(self.n), int(self.N)
        rng = np.random.default_rng(np.random.SeedSequence(int(self.seed)))
        uniform = rng.random((n, N))
        starts = [0]
        if self.mode == "switching":
            starts = sorted({int(round(k * n / (self.switches + 1)))
                             for k in range(self.switches + 1)})
        segment = np.searchsorted(starts, np.arange(n), side="right") - 1
        best = [k % N for k in range(len(starts))]
        good = np.array(best)[segment]
        rate = np.full((n, N), self.p_best + self.gap)
        rate[np.arange(n), good] = self.p_best
        X = (uniform < rate).astype(float)
        if self.mode == "adversarial" and N > 1:
            others = [j for j in range(N) if j != best[0]]
            X[:, others] = punish_the_leader(X[:, others])
        return X, np.zeros(n), {"extra": {"best_expert": best, "switch_times": starts[1:]}}
