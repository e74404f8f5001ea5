"""Mistake bounds of the multiclass learners on separable streams (Crammer & Singer, JMLR 3,
2003; Crammer et al., JMLR 7, 2006, through Kesler's construction).

A stream is separable with multiclass margin gamma when some W* with ||W*||_F = 1 has
W*_y . x_t - max_{r != y_t} W*_r . x_t >= gamma on every round; R = max_t ||x_t||. Kesler's
vector of a round and a rival class r, z = (e_y - e_r) (x) x, has ||z||^2 = 2 ||x||^2, which
is where the 2 in each bound comes from. Any separating unit W* gives a valid bound; gamma is
the largest, the multiclass hard margin's (comparator ``multiclass_max_margin``), when a run
has that fit, else the stream's own (``meta.margin`` of a stream that knows its W*:
:class:`~olbench.streams.synthetic.multiclass.MulticlassSeparable`).

>>> multiclass_perceptron(R=1.0, gamma=0.5)
8.0
"""

from __future__ import annotations

import numpy as np

from olbench.bounds.core import RunRecord, Skip, theorem
from olbench.losses import get_loss


def multiclass_perceptron(R: float, gamma: float) -> float:
    """Updates of an ultraconservative additive multiclass Perceptron <= 2 (R / gamma)^2.

    Source: Crammer & Singer (2003), Theorem 3 (the max, uniform and proportional updates
    alike). Assumptions: W_1 = 0; separable with margin gamma by a unit W*; ||x_t|| <= R; an
    update W_y += x, W_r -= tau_r x (tau >= 0, summing to 1) only on rounds where every r with
    tau_r > 0 scores at least y. Proof in one line: each update moves <W*, W> up by >= gamma
    and ||W||^2 up by <= ||x||^2 (1 + sum tau_r^2) <= 2 R^2.

    >>> multiclass_perceptron(R=2.0, gamma=1.0)
    8.0
    """
    return 2.0 * (R / gamma) ** 2


def multiclass_pa_separable(R: float, gamma: float) -> float:
    """Multiclass PA (max-score): sum_t loss_t^2 <= 2 R^2 / gamma^2, loss_t the multiclass
    hinge loss of the learner.

    Source: Crammer et al. (2006), Theorem 2 on Kesler's vectors (Sec. 7): PA's step on z with
    ||z||^2 <= 2 R^2 and U = W* / gamma, which has U . z >= 1 on every round (loss 0) and
    ||U||^2 = 1 / gamma^2. Assumptions: W_1 = 0, the step tau = loss / (2 ||x||^2).

    >>> multiclass_pa_separable(R=1.0, gamma=0.5)
    8.0
    """
    return 2.0 * R ** 2 / gamma ** 2


def multiclass_pa1_mistakes(R: float, C: float, gamma: float) -> float:
    """Multiclass PA-I mistakes (margin <= 0) <= max(2 R^2, 1/C) / gamma^2 on a separable
    stream.

    Source: Crammer et al. (2006), Theorem 4 on Kesler's vectors, with U = W* / gamma (whose
    losses are all 0): max(||z||^2, 1/C) (||U||^2 + 2 C sum_t loss_t(U)).

    >>> multiclass_pa1_mistakes(R=1.0, C=0.1, gamma=0.5)
    40.0
    """
    return max(2.0 * R ** 2, 1.0 / C) / gamma ** 2


def _margin(rec: RunRecord) -> float:
    """The multiclass margin gamma > 0 of the run's stream: the hard margin's (the largest)
    when the run has a multiclass_max_margin fit, else the stream's own under its W*; a Skip
    saying why there is none."""
    for fit in rec.fits.values():
        if str(getattr(fit, "comparator", "")).startswith("MulticlassMaxMargin"):
            if not fit.ok:
                raise Skip(f"the stream is not separable (multiclass_max_margin: "
                           f"{fit.skip_reason}) and the theorem needs gamma > 0")
            return float(fit.info["gamma"])
    if rec.margin is None:
        raise Skip("the multiclass margin gamma is unknown: comparator multiclass_max_margin "
                   "finds it (or a stream that knows its separating W*, e.g. "
                   "multiclass_separable)")
    if rec.margin <= 0:
        raise Skip(f"the stream is not separable by its W* (min multiclass margin "
                   f"{rec.margin:.3g}) and the theorem needs gamma > 0; comparator "
                   f"multiclass_max_margin would look for another W")
    return float(rec.margin)


def _max_margin(params) -> list[dict]:
    """``needs`` of the theorems: the multiclass hard margin (it supplies gamma)."""
    return [{"key": "multiclass_max_margin"}]


_SOURCE_CS = ("Crammer & Singer (2003), Ultraconservative online algorithms for multiclass "
              "problems, JMLR 3, Theorem 3")
_SOURCE_PA = "Crammer et al. (2006), Online Passive-Aggressive Algorithms, JMLR 7, "


@theorem("multiclass_perceptron", "updates", needs=_max_margin, formula="2(R/γ)²",
         source=_SOURCE_CS)
def MULTICLASS_PERCEPTRON(rec: RunRecord):
    bound = multiclass_perceptron(rec.require_radius(), _margin(rec))
    updates = np.cumsum(rec.updated)
    return [(T, bound, updates[T - 1]) for T in rec.checkpoints]


@theorem("multiclass_pa_separable", "sum_sq_hinge", needs=_max_margin, formula="2R²/γ²",
         source=_SOURCE_PA + "Theorem 2 and Sec. 7 (Kesler's construction)")
def MULTICLASS_PA_SEPARABLE(rec: RunRecord):
    bound = multiclass_pa_separable(rec.require_radius(), _margin(rec))
    observed = np.cumsum(get_loss("multiclass_hinge")(rec.margins, rec.y) ** 2)
    return [(T, bound, observed[T - 1]) for T in rec.checkpoints]


@theorem("multiclass_pa1_mistakes", "mistakes", needs=_max_margin,
         formula="max(2R², 1/C)/γ²", source=_SOURCE_PA + "Theorem 4 and Sec. 7")
def MULTICLASS_PA1_MISTAKES(rec: RunRecord):
    bound = multiclass_pa1_mistakes(rec.require_radius(), float(rec.params["C"]),
                                    _margin(rec))
    mistakes = np.cumsum(rec.margins <= 0)          # (a tie is a mistake: margin <= 0)
    return [(T, bound, mistakes[T - 1]) for T in rec.checkpoints]
