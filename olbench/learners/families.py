"""The bases two families of learners share: :class:`OCOLearner`, the online-convex-
optimisation learners (the row is the loss, the point played lies in a feasible set), and
:class:`CovarianceLearner`, the learners that keep a Gaussian over weight vectors (and the
advice of :func:`covariance_advice`, for any learner keeping a d x d matrix).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from olbench.learners.base import Learner
from olbench.learners.initial import init_label, is_zeros
from olbench.learners.state import State, identity_blocks, square_footprint, symmetric
from olbench.resources import Footprint, features


class LossDescender(Learner):
    """A learner that descends a per-example loss it is given (``loss``), which decides its
    task: OGD, FTRL-Proximal. ``LOSS_TASKS`` maps each loss to the task it makes the learner
    do (:mod:`olbench.learning_task`); a run measures the loss the learner descends (on
    online-convex-optimisation streams, the loss suffered at the point played)."""

    LOSS_TASKS: ClassVar[dict[str, str]] = {"hinge": "classification",
                                            "logistic": "classification",
                                            "squared": "regression"}

    @property
    def task(self):
        return self.task_for({"loss": self.loss})

    @classmethod
    def task_for(cls, params):
        return cls.LOSS_TASKS.get(cls._descended(params), "classification")

    @classmethod
    def _descended(cls, params) -> str:
        """The loss a learner with ``params`` descends (its default where they leave it out)."""
        return params["loss"] if "loss" in params else cls.param_defaults()["loss"]

    @classmethod
    def task_options(cls):
        losses: dict[str, list[str]] = {}
        for loss, task in cls.LOSS_TASKS.items():
            losses.setdefault(task, []).append(loss)
        return {task: "loss=" + " or ".join(names) for task, names in losses.items()}

    @classmethod
    def default_loss_for(cls, params) -> str:
        # the loss it descends is the one its regret is measured in; on OCO streams that is
        # the loss suffered at the point played (what the row defines), as for every OCO run
        return "suffered" if cls.task_for(params) == "oco" else cls._descended(params)


class LazyLearner(LossDescender):
    """A loss descender whose regularised steps are applied lazily, per coordinate, when a row
    reads it (:mod:`olbench.rules.lazy`): a round costs O(non-zeros). ``lazy_rules`` is its
    rule module (``RULE``, and ``catch_up``, which writes every coordinate's current value
    into ``w`` at a checkpoint and after a run); ``coordinate_rows`` the rows of
    per-coordinate numbers in ``A``.
    """

    lazy_rules: ClassVar[Any]
    coordinate_rows: ClassVar[int] = 2
    #: the row of ``A`` holding each coordinate's anchor, where a given w0 is written; None
    #: for a dual-averaging rule, whose first point is the regulariser's minimiser, 0
    anchor_row: ClassVar[int | None] = 0

    def validate(self) -> None:
        super().validate()
        if self.anchor_row is None and not is_zeros(getattr(self, "init", "zeros")):
            raise ValueError(f"{type(self).__name__}: init={init_label(self.init)!r} does not "
                             f"apply: a dual-averaging rule's first point is its "
                             f"regulariser's minimiser, w_1 = 0, and every later point is "
                             f"computed from the gradients alone")

    def reset(self, d: int):
        super().reset(d)
        if self.anchor_row is not None:
            self.state_.A[self.anchor_row] = self.state_.w   # w0 is the anchor of round 0
        return self

    def rule(self):
        return self._lazy()[0]

    def _lazy(self):
        """(the compiled rule, its catch-up): the rule module's ``RULE`` and ``catch_up``."""
        return self.lazy_rules.RULE, self.lazy_rules.catch_up

    def init_state(self, d):
        return State(np.zeros(d), np.zeros((self.coordinate_rows, d)), np.zeros(3))

    def _catch_up(self) -> None:
        self._lazy()[1](self.rule_params(), *self.state_)

    def _finalize(self) -> None:
        self._catch_up()

    def footprint(self, n, d, nnz=None):
        vectors = 1 + self.coordinate_rows      # w and A, and the exported copy of each
        return Footprint(8.0 * (2 * vectors * d + 16), f"{vectors} vectors of d numbers",
                         features(d))


class OCOLearner(Learner):
    """Base of the online-convex-optimisation learners (task ``"oco"``): the row x_t is the
    loss f_t (:mod:`olbench.rules.oco`: ``loss="linear"`` or ``"quadratic"``), the learner
    plays a point w_t of the feasible set ``domain`` of size ``radius``
    (:mod:`olbench.rules.sets`: ``"ball"``, ``"simplex"``, ``"box"``) and records the loss
    it suffered, f_t(w_t). State: ``w`` = w_t (w_1 = P_K(0), uniform on the simplex), and
    ``rows`` rows of ``A`` (a cumulative gradient, scratch)."""

    task: ClassVar[str] = "oco"
    rows: ClassVar[int] = 3

    def validate(self) -> None:
        super().validate()
        if not is_zeros(getattr(self, "init", "zeros")):   # w_1 must lie in K (every theorem)
            raise ValueError(f"{type(self).__name__}: init={init_label(self.init)!r} does not "
                             f"apply; an online-convex-optimisation learner plays w_1 = P_K(0) "
                             f"in its feasible set")

    def init_state(self, d):
        from olbench.rules.sets import project_numpy

        w0 = project_numpy(np.zeros(d), getattr(self, "domain", "simplex"),
                           float(getattr(self, "radius", 1.0)))
        return State(w0, np.zeros((self.rows, d)), np.zeros(1))

    def _exported_A(self):
        return self.state_.A[:1].copy()   # the cumulative row; the others are scratch

    def footprint(self, n, d, nnz=None):
        # the point w_t, the rows of A, and the exported point and cumulative row
        return Footprint(8.0 * ((self.rows + 3) * d + 8),
                         f"{self.rows + 1} vectors of d numbers", features(d))


class CovarianceLearner(Learner):
    """Base of the learners that keep a Gaussian N(mu, Sigma) over weight vectors (AROW, CW,
    SCW, NHERD, NAROW, IELLIP): mu in ``w``, Sigma = a I at the start (hyper-parameter ``a``),
    kept in ``A[:d]`` (its lower triangle from 96 features on; exported whole) with a scratch
    row ``A[d]`` for Sigma x (see :mod:`olbench.rules.arow`), or as its diagonal in ``A[0]`` when
    ``diagonal`` is true."""

    diagonal: bool = False   # for the learners without a diagonal form

    def init_state(self, d):
        if self.diagonal:
            return State(np.zeros(d), np.full((1, d), float(self.a)), np.zeros(1))
        return State(np.zeros(d), identity_blocks(d, float(self.a), extra_rows=1),
                     np.zeros(1))

    def _exported_A(self):
        if self.diagonal:
            return self.state_.A.copy()
        return symmetric(self.state_.A[:-1])   # drop the scratch row

    def footprint(self, n, d, nnz=None):
        if self.diagonal:
            return Footprint(8.0 * (4 * d + 8), "a diagonal covariance of d numbers",
                             features(d))
        return Footprint(square_footprint(d), "a d x d covariance matrix", features(d),
                         covariance_advice(type(self)))

    @property
    def covariance_(self) -> np.ndarray:
        """Sigma (full), or its diagonal as a vector (``diagonal=True``)."""
        A = self.state_.A
        return A[0].copy() if self.diagonal else symmetric(A[:-1])


def covariance_advice(cls: type) -> str:
    """How a learner keeping a d x d matrix can need less memory."""
    if "diagonal" in cls.param_names():
        return "use diagonal=true (a diagonal covariance: d numbers), or fewer features"
    return ("use arow or cw with diagonal=true (a diagonal covariance: d numbers), or fewer "
            "features")
