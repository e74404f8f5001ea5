"""Per-example losses as vectorised functions of (margins, y).

Conventions, stated once for the whole package:

* Classification labels are float64 in {-1, +1}; the learner's output ``margin`` p_t = w_t·x_t
  is a real number and its label prediction is sign(p_t) under a *tie rule*:
  ``"novikoff"`` (the default) counts y_t p_t <= 0 as a mistake, so p_t = 0 is always wrong
  (the convention of Novikoff's proof and of scikit-learn's Perceptron); ``"libol"`` predicts
  sign(0) = +1, so p_t = 0 is a mistake only when y_t = -1.
* Regression targets are real; the output p_t is the prediction itself.
* Losses are per example; ``squared`` is (1/2)(p - y)^2, whose gradient (p - y) x is the one
  OGD and scikit-learn's ``squared_error`` use.
* Online convex optimisation (task ``"oco"``): the row x_t *is* the loss f_t (a loss vector
  over experts, a linear loss's gradient, a quadratic loss's centre) and the learner's output
  is the loss it suffered, f_t(w_t), recorded before its update. The loss ``suffered`` is that
  recorded value itself (y_t is unused), so cumulative loss and regret of an OCO run are sums
  of what the learner reported; comparators of OCO runs report f_t(u) the same way.
* Regret = learner's cumulative loss - comparator's cumulative loss.

>>> import numpy as np
>>> m, y = np.array([2.0, 0.5, 0.0, -1.0]), np.array([1.0, 1.0, 1.0, 1.0])
>>> get_loss("hinge")(m, y)
array([0. , 0.5, 1. , 2. ])
>>> mistakes(m, y).tolist(), mistakes(m, y, tie="libol").tolist()
([False, False, True, True], [False, False, False, True])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

TIE_RULES = ("novikoff", "libol")


#: the loss a run measures when neither the command nor the learner names one, by task
DEFAULT_LOSS = {"classification": "hinge", "regression": "squared", "oco": "suffered"}


def predicted_labels(margins: np.ndarray, tie: str = "novikoff") -> np.ndarray:
    """Label predictions in {-1, +1}; for ``tie="novikoff"`` a zero margin gives 0 (no label)."""
    if tie == "novikoff":
        return np.sign(margins)
    if tie == "libol":
        return np.where(margins >= 0, 1.0, -1.0)
    raise ValueError(f"unknown tie rule {tie!r}; use one of {TIE_RULES}")


def mistakes(margins: np.ndarray, y: np.ndarray, tie: str = "novikoff") -> np.ndarray:
    """Boolean per round: the prediction was wrong under the tie rule (see module docs)."""
    if tie == "novikoff":
        return y * margins <= 0
    return predicted_labels(margins, tie) != y


@dataclass(frozen=True)
class Loss:
    """A per-example loss l(p, y) with its derivative in p (a subgradient where not smooth)."""

    name: str
    task: str                      # "classification", "regression" or "oco"
    value: Callable[[np.ndarray, np.ndarray], np.ndarray]
    derivative: Callable[[np.ndarray, np.ndarray], np.ndarray]
    piecewise_linear: bool = False

    def __call__(self, margins: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self.value(np.asarray(margins, float), np.asarray(y, float))


def _sigmoid(z: np.ndarray) -> np.ndarray:
    # exp of a non-positive number only: no overflow warnings
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def get_loss(name: str, *, epsilon: float = 0.1) -> Loss:
    """The loss called ``name``; ``epsilon`` is the width of the epsilon-insensitive tube."""
    losses = {
        "zero_one": Loss("zero_one", "classification",
                         lambda m, y: (y * m <= 0).astype(float),
                         lambda m, y: np.zeros_like(m)),
        "hinge": Loss("hinge", "classification",
                      lambda m, y: np.maximum(0.0, 1.0 - y * m),
                      lambda m, y: np.where(y * m < 1.0, -y, 0.0), piecewise_linear=True),
        "squared_hinge": Loss("squared_hinge", "classification",
                              lambda m, y: np.maximum(0.0, 1.0 - y * m) ** 2,
                              lambda m, y: -2.0 * y * np.maximum(0.0, 1.0 - y * m)),
        "logistic": Loss("logistic", "classification",
                         lambda m, y: np.logaddexp(0.0, -y * m),
                         lambda m, y: -y * _sigmoid(-y * m)),
        "squared": Loss("squared", "regression",
                        lambda m, y: 0.5 * (m - y) ** 2,
                        lambda m, y: m - y),
        "absolute": Loss("absolute", "regression",
                         lambda m, y: np.abs(m - y),
                         lambda m, y: np.sign(m - y), piecewise_linear=True),
        "epsilon_insensitive": Loss(
            "epsilon_insensitive", "regression",
            lambda m, y: np.maximum(0.0, np.abs(m - y) - epsilon),
            lambda m, y: np.where(np.abs(m - y) > epsilon, np.sign(m - y), 0.0),
            piecewise_linear=True),
        # OCO: the output already is the loss suffered, f_t(w_t) (see the module docs)
        "suffered": Loss("suffered", "oco", lambda m, y: m.copy(), lambda m, y: np.ones_like(m),
                         piecewise_linear=True),
    }
    try:
        return losses[name]
    except KeyError:
        raise ValueError(f"unknown loss {name!r}; known losses: "
                         f"{', '.join(sorted(losses))}") from None
