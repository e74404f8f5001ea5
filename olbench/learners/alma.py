"""ALMA_2, the Approximate Large Margin Algorithm with p = 2 (and LIBOL's ALMA.m with its p)."""

from math import inf, sqrt

import numpy as np

from olbench.bounds import ALMA2_CORRECTIONS
from olbench.component import RECIPROCAL_LOW, Interval, InvalidParameterError, OneOf
from olbench.learners.base import Learner
from olbench.learners.state import State
from olbench.learners.traits import VARIANT_SPELLING
from olbench.renamed import Renamed
from olbench.rules import alma as rule


class ALMA(Learner, key="alma"):
    """ALMA_2(alpha; B, C): ALMA_p of Gentile ("A new approximate maximal margin classification
    algorithm", JMLR 2:213-242, 2001, Fig. 1 and Sec. 3) with p = 2, where the p-norm link is
    the identity.

    With k = 1 + the number of corrections so far, x^ = x / ||x||, gamma_k = B / sqrt(k) and
    the step size eta_k = eta / sqrt(k) (the paper's C is ``eta`` here, the step size's
    scale, as OGD's eta with ``schedule="sqrt"``; C is every other learner's aggressiveness):
    if y w.x^ <= (1 - alpha) gamma_k, then w <- w + eta_k y x^, w <- w / max(1, ||w||),
    k <- k + 1. w_1 = 0. ``B=None`` means B = 1/alpha; with eta = sqrt(2) these are the
    paper's recommended values and LIBOL's defaults (alpha = 0.9). The output recorded is w.x
    on the raw row (its sign is the prediction). Corrections bound on separable data:
    :func:`olbench.bounds.alma.alma2_corrections` (derived there).

    ``libol=True`` behaves as LIBOL's ``ALMA.m`` (``ALMA_c.cpp``; river's ``ALMAClassifier``
    is the same rule), which differs in two ways: (1) it does not normalise x; (2) it
    corrects on y w.x < (1 - alpha) gamma_k (strict). k is the same in both (1, then +1 per
    correction). Its mistakes are counted as y w.x <= 0 (LIBOL's sign(0) = +1 differs only
    on a round with w.x = 0, and the corrections do not depend on it). LIBOL's p enters only
    as gamma_k = B sqrt(p-1)/sqrt(k) and eta_k = C/(sqrt(p-1) sqrt(k)) with Euclidean norms
    throughout -- not the p-norm ALMA_p of the paper -- and ``p`` is exactly that, with
    ``libol=True`` only (LIBOL searches p in 2, 4, ..., 10; the paper's p-norm link for p != 2
    is not implemented: ``p`` other than 2 without ``libol`` is refused). LIBOL's compiled
    ``ALMA_c`` ignores ``options.C`` and
    always uses C = 1.41421356237. With alpha = 1 LIBOL's strict test never fires from w = 0
    (y w.x = 0 is not < 0): that learner stays at w = 0. (Old spellings, until 0.3:
    ``variant="libol"``; ``C`` for ``eta``.)

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[3.0, 4.0], [1.0, 0.0]]); y = np.array([1, -1])
    >>> trace = run(ALMA(), X, y)   # 1st: w = sqrt(2) (0.6, 0.8), projected to (0.6, 0.8)
    >>> trace.state["w"].round(12).tolist(), trace.state["s"].tolist()   # w, k
    ([-0.4, 0.8], [3.0])
    """

    display_params = ("alpha",)
    constraints = {"alpha": Interval(0, 1, low_open=True),
                   "B": Interval(0, inf, low_open=True, none_ok=True),
                   "eta": Interval(0, inf, low_open=True), "p": Interval(2, 1e6),
                   "libol": OneOf(False, True)}
    bounds = (ALMA2_CORRECTIONS,)
    renamed_params = (VARIANT_SPELLING, Renamed("eta", ("C",)))
    summary = "ALMA_2: normalised margin test, step η/√k, projection on the unit ball"
    source = "Gentile 2001"

    def __init__(self, *, alpha: float = 0.9, B: float | None = None, eta: float = sqrt(2),
                 p: float = 2.0, libol: bool = False):
        self.alpha = alpha
        self.B = B
        self.eta = eta
        self.p = p
        self.libol = libol

    def validate(self):
        """Each parameter in its range, and the margin threshold (1 - alpha) B / sqrt(k) a
        normal float64 at k = 1 when alpha < 1: B = 5e-324 made it 0, and LIBOL's strict test
        y w.x < 0 never fired from w = 0 (no update, every round a mistake)."""
        super().validate()
        if self.p != 2 and not self.libol:
            raise InvalidParameterError(
                f"ALMA: p={self.p!r} is implemented only as LIBOL's ALMA.m has it (libol=True: "
                "p scales the margin by sqrt(p-1) and the step by 1/sqrt(p-1), with Euclidean "
                "norms); the paper's p-norm ALMA_p (p != 2) is not implemented")
        B = 1.0 / self.alpha if self.B is None else self.B
        if self.alpha < 1 and (1.0 - self.alpha) * B < RECIPROCAL_LOW:
            raise InvalidParameterError(
                f"ALMA: invalid B={self.B!r} with alpha={self.alpha!r}; the margin threshold "
                f"(1 - alpha) B / sqrt(k) must be a normal float64 (at least "
                f"{RECIPROCAL_LOW!r}) while alpha < 1, but (1 - alpha) B = "
                f"{(1.0 - self.alpha) * B!r}")

    def rule(self):
        return rule.RULE

    def rule_params(self):
        B = 1.0 / self.alpha if self.B is None else self.B
        return rule.Params(float(self.alpha), float(B), float(self.eta), sqrt(self.p - 1.0),
                           bool(self.libol))

    def init_state(self, d):
        return State(np.zeros(d), np.zeros((0, d)), np.ones(1))   # s[0] = k = 1
