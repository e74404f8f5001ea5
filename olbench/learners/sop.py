"""The second-order Perceptron."""

import numpy as np

from olbench.bounds import SOP_MISTAKES
from olbench.component import OneOf, reciprocal_range
from olbench.learners.base import Learner
from olbench.learners.families import covariance_advice
from olbench.learners.state import State, identity_blocks, square_footprint, symmetric
from olbench.learners.traits import VARIANT_AND_TIE_SPELLING
from olbench.renamed import Renamed
from olbench.resources import Footprint, features
from olbench.rules import sop as rule


class SOP(Learner, key="sop"):
    """Second-order Perceptron (Cesa-Bianchi, Conconi, Gentile, "A second-order Perceptron
    algorithm", SIAM J. Comput. 34(3):640-668, 2005, Fig. 1).

    Predicts sign(w_t.x_t) with w_t = (a I + S S' + x_t x_t')^-1 v, where S's columns are the
    x_s of the mistaken rounds so far and v = sum of y_s x_s over them; on a mistake x_t joins
    S and v <- v + y_t x_t. The paper's a is ``ridge`` here (the weight of the identity, as
    in ridge regression; every other learner's ``a`` is an initial covariance, Sigma_0 = a I,
    which is this ``ridge``'s inverse). Kept as Sigma = (ridge I + S S')^-1 and w = Sigma v,
    updated by Sherman-Morrison in O(d^2) (see :mod:`olbench.rules.sop`); the output recorded
    is the paper's w_t.x_t = (w.x) / (1 + x' Sigma x). Full d x d matrix (the paper has no
    diagonal form). Mistake bound: :func:`olbench.bounds.sop.sop_mistakes` (Theorem 1).

    ``libol=True`` behaves as LIBOL's ``SOP.m`` (``SOP_c.cpp``), which differs in two ways:
    (1) it downdates Sigma with x_t on *every* round, mistaken or not; (2) its tie rule,
    sign(0) = +1, so it updates v on a wrong label only. LIBOL's ``a`` is the initial Sigma,
    Sigma_0 = a I, this ``ridge``'s inverse (they agree at LIBOL's default a = 1, which its
    parameter search never changes). With LIBOL's w = our v, ``SOP.m`` records v' Sigma_t x
    (= the output recorded here) and ``SOP_c`` v' Sigma_{t-1} x, a positive multiple: the
    predictions agree. (Old spellings, until 0.3: ``variant="libol", tie="libol"``; ``a``
    for ``ridge``.)

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0]]); y = np.array([1, -1])
    >>> run(SOP(), X, y).margins.tolist()    # p_2 = v'(I + x1 x1' + x2 x2')^-1 x2 with v = x1
    [0.0, 0.2]
    """

    constraints = {"ridge": reciprocal_range("Sigma_0 = I / ridge must be finite"),
                   "libol": OneOf(False, True)}
    bounds = (SOP_MISTAKES,)
    libol_tie = True
    renamed_params = (VARIANT_AND_TIE_SPELLING, Renamed("ridge", ("a",)))
    summary = "second-order Perceptron, (ridge·I + Σ xx')⁻¹ on mistakes, full matrix"
    source = "Cesa-Bianchi, Conconi, Gentile 2005"

    def __init__(self, *, ridge: float = 1.0, libol: bool = False):
        self.ridge = ridge
        self.libol = libol

    def rule(self):
        return rule.RULE

    def rule_params(self):
        return rule.Params(bool(self.libol), bool(self.libol))

    def init_state(self, d):
        # Sigma_0 = I / ridge, then one scratch row for Sigma x (see olbench.rules.sop)
        return State(np.zeros(d), identity_blocks(d, 1.0 / float(self.ridge), extra_rows=1),
                     np.zeros(1))

    def _exported_A(self):
        return symmetric(self.state_.A[:-1])   # drop the scratch row

    def footprint(self, n, d, nnz=None):
        return Footprint(square_footprint(d), "a d x d matrix (a I + S S')^-1", features(d),
                         covariance_advice(type(self)))
