"""The cases of the throughput benchmark (:mod:`throughput`): the rules and their settings,
the stream, olbench's learner for each rule, and the row of results one case gives."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

import numpy as np

import olbench

RULES = ("perceptron", "pa1", "ogd", "arow_diag", "arow_full", "scw_full", "sop_full", "kernel_pa1")
LABEL = {"perceptron": "Perceptron", "pa1": "PA-I (C=1)",
         "ogd": "OGD (hinge, eta=0.1 constant)", "arow_diag": "AROW diag (r=1)",
         "arow_full": "AROW full (r=1)", "scw_full": "SCW-I full (C=1, eta=0.75)",
         "sop_full": "SOP full (a=1)", "kernel_pa1": "Kernel PA-I (C=1, Gaussian h=sqrt(d))"}
FULL = ("arow_full", "scw_full", "sop_full")   # O(d^2) per round: run up to --full-max-d only
KERNEL = ("kernel_pa1",)   # O(n d) per round: on --kernel-n rows, up to --kernel-max-d only
CHAIN = ("perceptron", "pa1", "ogd", "arow_diag")   # the rules the 1-chain target is judged on
ETA, C, R, A0 = 1.0, 1.0, 1.0, 1.0
OGD_ETA = 0.1         # OGD's constant step on the hinge loss
SCW_ETA = 0.75
PHI = float(statistics.NormalDist().inv_cdf(SCW_ETA))   # SCW's phi = Phi^-1(eta)
#: the columns of ns/example, one per competitor
COLUMNS = ("olbench_run", "olbench_loop", "hand", "chain", "floor", "dot_pass", "numpy", "river",
           "sklearn")


# ----------------------------------------------------------------------------- the stream
def make_stream(n: int, d: int, seed: int = 0, flip: float = 0.1):
    """Gaussian X (n x d, float64, C order); y = sign(X u) in {-1, +1}, a fraction flipped."""
    rng = np.random.default_rng([seed, d])
    X = rng.standard_normal((n, d))
    u = rng.standard_normal(d)
    y = np.where(X @ u >= 0.0, 1.0, -1.0)
    y[rng.random(n) < flip] *= -1.0
    return np.ascontiguousarray(X), y


def kernel_width(d: int) -> float:
    """h = sqrt(d): two standard normal rows are about 2 d apart in squared distance, so
    k(x, x') = exp(-||x - x'||^2 / (2 h^2)) is about e^-1, neither 0 nor 1."""
    return math.sqrt(d)


def make_olbench(rule: str, d: int = 1):
    if rule == "kernel_pa1":
        return olbench.make_learner("kernel_pa", C=C, variant="pa1", h=kernel_width(d))
    if rule == "perceptron":
        return olbench.make_learner("perceptron", eta=ETA)
    if rule == "pa1":
        return olbench.make_learner("pa", C=C, variant="pa1")
    if rule == "ogd":
        return olbench.make_learner("ogd", loss="hinge", eta=OGD_ETA, schedule="constant")
    if rule == "scw_full":
        return olbench.make_learner("scw", C=C, confidence=SCW_ETA, a=A0)
    if rule == "sop_full":
        return olbench.make_learner("sop", ridge=A0)
    return olbench.make_learner("arow", r=R, a=A0, diagonal=(rule == "arow_diag"))


# ----------------------------------------------------------------------------- driver
@dataclass
class Row:
    rule: str
    d: int
    n: int
    ns: dict[str, float | None] = field(default_factory=dict)   # ns/example by competitor
    rows: dict[str, int] = field(default_factory=dict)          # rows each was timed on
    match: dict[str, str] = field(default_factory=dict)         # final weights vs olbench
    updates: float = 0.0                                        # fraction of rounds updated

    def ratio(self, num: str, den: str) -> float | None:
        a, b = self.ns.get(num), self.ns.get(den)
        return None if a is None or b is None or b == 0 else a / b


__all__ = ["A0", "C", "CHAIN", "COLUMNS", "ETA", "FULL", "KERNEL", "LABEL", "OGD_ETA", "PHI", "R",
           "RULES", "SCW_ETA", "Row", "kernel_width", "make_olbench", "make_stream"]
