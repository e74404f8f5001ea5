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
* Multiclass classification (task ``"multiclass"``): labels y_t are class indices 0..k-1
  (a stream's own class codes are kept beside them, :mod:`olbench.labels`); the learner scores
  every class, s_r = W_r·x_t, plays the *lowest* index among the largest scores, and records
  the multiclass margin m_t = s_{y_t} - max_{r != y_t} s_r (Crammer & Singer 2003) with the
  class it predicted. Losses are functions of m_t (``multiclass_hinge`` = max(0, 1 - m_t)).
  A mistake under ``"novikoff"`` is m_t <= 0 (a tie for the top score is a mistake, as in the
  mistake bounds' proofs); under ``"libol"`` it is predicted != y_t (the lowest index wins a
  tie: MATLAB's ``max``, LIBOL's rule).
* Online PCA (task ``"pca"``): the row x_t is a data point; the learner plays a rank-k
  projection P_t and records its compression loss ||x_t - P_t x_t||^2 before it updates,
  which the loss ``compression`` reads as it is (y_t is unused).
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
DEFAULT_LOSS = {"classification": "hinge", "regression": "squared", "oco": "suffered",
                "multiclass": "multiclass_hinge", "pca": "compression"}

#: the tasks whose runs count mistakes (their labels are classes)
LABELLED_TASKS = ("classification", "multiclass")


def predicted_labels(margins: np.ndarray, tie: str = "novikoff") -> np.ndarray:
    """Label predictions in {-1, +1}; for ``tie="novikoff"`` a zero margin gives 0 (no label)."""
    if tie == "novikoff":
        return np.sign(margins)
    if tie == "libol":
        return np.where(margins >= 0, 1.0, -1.0)
    raise ValueError(f"unknown tie rule {tie!r}; use one of {TIE_RULES}")


def mistakes(margins: np.ndarray, y: np.ndarray, tie: str = "novikoff",
             predicted: np.ndarray | None = None) -> np.ndarray:
    """Boolean per round: the prediction was wrong under the tie rule (see module docs).
    ``predicted``: the classes a multiclass run predicted (None for a binary run), with
    ``margins`` its multiclass margins.

    >>> mistakes(np.array([0.0, 0.0, 1.0]), np.array([0, 1, 1]), "libol",
    ...          predicted=np.array([0, 0, 1])).tolist()
    [False, True, False]
    """
    if predicted is not None:
        if tie not in TIE_RULES:
            raise ValueError(f"unknown tie rule {tie!r}; use one of {TIE_RULES}")
        return margins <= 0 if tie == "novikoff" else np.asarray(predicted) != y
    if tie == "novikoff":
        return y * margins <= 0
    return predicted_labels(margins, tie) != y


@dataclass(frozen=True)
class Loss:
    """A per-example loss l(p, y) with its derivative in p (a subgradient where not smooth)."""

    name: str
    task: str                      # "classification", "regression", "multiclass" or "oco"
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
        # multiclass: functions of the multiclass margin m (y, the class, is in m already)
        "multiclass_hinge": Loss("multiclass_hinge", "multiclass",
                                 lambda m, y: np.maximum(0.0, 1.0 - m),
                                 lambda m, y: np.where(m < 1.0, -1.0, 0.0),
                                 piecewise_linear=True),
        "multiclass_squared_hinge": Loss("multiclass_squared_hinge", "multiclass",
                                         lambda m, y: np.maximum(0.0, 1.0 - m) ** 2,
                                         lambda m, y: -2.0 * np.maximum(0.0, 1.0 - m)),
        "multiclass_zero_one": Loss("multiclass_zero_one", "multiclass",
                                    lambda m, y: (m <= 0).astype(float),
                                    lambda m, y: np.zeros_like(m)),
        # OCO: the output already is the loss suffered, f_t(w_t) (see the module docs)
        "suffered": Loss("suffered", "oco", lambda m, y: m.copy(), lambda m, y: np.ones_like(m),
                         piecewise_linear=True),
        # online PCA: the output is the compression loss ||x_t - P_t x_t||^2 itself
        "compression": Loss("compression", "pca", lambda m, y: m.copy(),
                            lambda m, y: np.ones_like(m)),
    }
    try:
        return losses[name]
    except KeyError:
        raise ValueError(f"unknown loss {name!r}; known losses: "
                         f"{', '.join(sorted(losses))}") from None
