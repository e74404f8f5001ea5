"""The learner front: hyper-parameters, validation, state, and the river-style single step.

A learner subclass declares

* keyword-only hyper-parameters stored unchanged in ``__init__`` and nothing else there;
* ``constraints``: the allowed values of each (checked by :meth:`validate` at run start);
* :meth:`rule` (the compiled rule), :meth:`rule_params` (a namedtuple of numbers) and
  :meth:`init_state` (fresh ``w``, ``A``, ``s`` arrays for d features; see
  :mod:`olbench.rules` for what the slots hold);
* ``bounds``: the theorems of :mod:`olbench.bounds` that hold for its runs (if any), and
  any other trait of :mod:`olbench.learners.traits` where it is not the default;

and registers with ``class PA(Learner, key="pa")``. Everything else (running, chunking,
predict-then-learn, input checks) lives in :mod:`olbench.protocol`. The state triple and the
helpers that make a fresh one are in :mod:`olbench.learners.state`; the bases of the
online-convex-optimisation and covariance families in :mod:`olbench.learners.families`.

Every learner also accepts the initial-state options ``init`` (``"zeros"``, the default;
``"randn"``: w_0 ~ N(0, I), the ``t = randn(n,1)`` of Sugiyama's listings; or a given vector:
numbers or a file, :mod:`olbench.learners.initial`) and ``init_seed`` (the seed of the
``randn`` draw, reproducible). They set the ``w`` slot only (the weights, or the mean of the
covariance learners, whose Sigma_0 = a I is unchanged; for SOP, w_0 = Sigma_0 v_0), so they
make sense for learners whose ``w`` holds d weights; a learner whose ``w`` is something else
(dual coefficients of a growing state) refuses any ``init`` but ``"zeros"``. At the default
they are absent from names and configs, so every name and run made before them is unchanged.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import numpy as np

from olbench.component import Component, Registry
from olbench.learners.initial import (  # noqa: F401  (initial_weights: imported from here)
    INIT_OPTIONS,
    given_vector,
    init_label,
    initial_weights,
    is_given,
    is_zeros,
)
from olbench.learners.state import (  # noqa: F401  (the state helpers: imported from here)
    SYMMETRIC_BLOCK,
    State,
    generator_state,
    identity_blocks,
    square_footprint,
    symmetric,
    vector_state,
)
from olbench.learners.traits import Traits
from olbench.losses import DEFAULT_LOSS
from olbench.renamed import accepting_renamed, translated
from olbench.resources import Footprint, features
from olbench.rules.loop import Rule


def _accepting_init_options(init):
    """``__init__`` that also takes the family's options (:data:`INIT_OPTIONS`, and any other
    of its ``optional_params``; the signature seen by ``inspect``, hence by
    :meth:`Component.param_names`, stays the class's own)."""
    @functools.wraps(init)
    def wrapped(self, *args, **params):
        for name, (default, _) in type(self).optional_params.items():
            if name in params or not hasattr(self, name):  # a subclass's super().__init__
                setattr(self, name, params.pop(name, default))
        init(self, *args, **params)
    return wrapped


def __getattr__(name: str):
    # the family bases moved to olbench.learners.families, which imports Learner from here:
    # read on first use (not imported at the top) so that they stay importable from here
    if name in ("OCOLearner", "CovarianceLearner", "covariance_advice"):
        from olbench.learners import families

        return getattr(families, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Learner(Traits, Component):
    """Base class of every online learner. See the module docs for what a subclass declares,
    and :class:`~olbench.learners.traits.Traits` for the traits it may declare."""

    registry: ClassVar[Registry] = Registry("learner", "olbench.learners")
    optional_params = INIT_OPTIONS

    @classmethod
    def task_options(cls) -> dict[str, str]:
        """The tasks (:mod:`olbench.learning_task`) this learner does, each with the
        parameter values that make it do it ('' when it always does)."""
        return {cls.task: ""}

    @classmethod
    def task_for(cls, params: dict[str, Any]) -> str:
        """The task a learner of this class with hyper-parameters ``params`` (a spec's, the
        others at their defaults) does, read without building one: its class's ``task``
        unless a parameter decides it (OGD's ``loss``)."""
        return cls.task

    @classmethod
    def default_loss_for(cls, params: dict[str, Any]) -> str:
        """The loss a run of a learner with ``params`` measures unless the command names one
        (``loss=``): the task's default (hinge for classification, squared for regression);
        learners that minimise a loss of their own (OGD) measure that one."""
        return DEFAULT_LOSS[cls.task_for(params)]

    @property
    def default_loss(self) -> str:
        """:meth:`default_loss_for` this learner's hyper-parameters."""
        return self.default_loss_for(self.get_params())

    @classmethod
    def feasible_set(cls, params: dict[str, Any]) -> tuple[str, str, float | None]:
        """``(loss, domain, radius)`` of an online-convex-optimisation learner with
        ``params``: the losses its rows define and the set it plays in (``radius`` None: all
        of R^d), read without building it, from its parameters, else its class's own values
        (an OCO single cell is measured against the best point of that set:
        :func:`olbench.harness.tasks.cell_comparator`)."""
        def value(name: str, default: Any) -> Any:
            own = getattr(cls, name, default)   # a value the class fixes, not a property
            return params[name] if name in params else \
                default if isinstance(own, property) else own
        return value("loss", "linear"), value("domain", "ball"), value("radius", 1.0)

    def __init_subclass__(cls, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            cls.__init__ = _accepting_init_options(accepting_renamed(cls.__dict__["__init__"]))

    # -- what a subclass provides -------------------------------------------------------
    def rule(self) -> Rule:
        raise NotImplementedError

    def rule_params(self) -> tuple:
        raise NotImplementedError

    def init_state(self, d: int) -> State:
        raise NotImplementedError

    def _reserve(self, X, total: int | None = None) -> None:
        """Make room in the state for the rows of chunk X (learners with growing state);
        ``total``: the stream's number of rows, when known."""

    def _catch_up(self) -> None:
        """Bring lazily kept state up to date mid-run, changing nothing that follows
        (learners with lazy sparse updates: every weight read at a checkpoint)."""

    def _finalize(self) -> None:
        """After the last chunk: bring lazily kept state up to date, or trim state reserved
        for rows that did not come (kernel learners)."""

    def footprint(self, n: int, d: int, nnz: int | None = None) -> Footprint:
        """The memory its state takes at its largest in a run over n rows of d features
        (sparse rows of at most ``nnz`` non-zeros; None: dense rows), exported copies
        included (:mod:`olbench.resources`; checked against the arrays really allocated by
        tests/test_learner_contract.py). This default: d weights, and their copy."""
        return Footprint(8.0 * (2 * d + 8), "a vector of d weights", features(d))

    @property
    def state_grows_with_rows(self) -> bool:
        """Whether :meth:`footprint` grows with the rows n (a stream is then asked for its
        length before the run: :func:`olbench.run` refuses up front)."""
        return False

    @classmethod
    def display(cls, params):
        # a name written before a parameter was renamed (an older results table) shows as
        # the same learner's name does now
        try:
            new = translated(params, cls.renamed_params, cls.__name__, cls.param_defaults(),
                             warn=False)
        except ValueError:   # old values the new parameter cannot say: shown as written
            return super().display(params)
        order = {name: i for i, name in enumerate(cls.param_names())}
        return super().display(dict(sorted(new.items(),
                                           key=lambda item: order.get(item[0], len(order)))))

    @classmethod
    def display_shown(cls, params):
        # init_seed, like a seed, is a replicate: a grid derives it from each run's seed
        return [k for k in super().display_shown(params) if k != "init_seed"]

    @classmethod
    def param_label(cls, name: str, value: Any) -> Any:
        # a given initial vector is named by a hash of its values, not written out
        return init_label(value) if name == "init" else value

    def validate(self) -> None:
        super().validate()
        if is_given(self.init):   # a missing file or a NaN is reported before anything runs
            given_vector(self.init)

    # -- state ---------------------------------------------------------------------------
    def reset(self, d: int) -> Learner:
        """Validate the hyper-parameters and start from the initial state for d features."""
        self.validate()
        state = self.init_state(int(d))
        if not is_zeros(self.init):
            if state.w.shape != (int(d),):
                raise ValueError(f"{type(self).__name__}: init={init_label(self.init)!r} sets "
                                 f"the d = {d} weights of the w slot, but this learner's w has "
                                 f"shape {state.w.shape}")
            state.w[:] = initial_weights(self.init, self.init_seed, int(d))
        self.state_ = state
        self.n_features_ = int(d)
        return self

    def export_state(self) -> dict[str, np.ndarray]:
        """Copies of the meaningful state arrays (rules may keep scratch space in them)."""
        state = self.state_
        return {"w": state.w.copy(), "A": self._exported_A(), "s": state.s.copy()}

    def _exported_A(self) -> np.ndarray:
        """The meaningful part of ``A``, as a new array (without its scratch rows)."""
        return self.state_.A.copy()

    def checkpoint_snapshot(self) -> np.ndarray | None:
        """What the run keeps of the state at each checkpoint (:attr:`olbench.protocol.Trace.
        snapshots`), besides the count of non-zero weights: None, nothing, by default."""
        return None

    def nonzero_weights(self) -> float:
        """How many of the weights w the learner predicts with are not 0 (after
        :meth:`_catch_up`, for a lazy learner; NaN where w is not a weight vector over the
        features: a kernel learner's coefficients)."""
        return float(np.count_nonzero(self.state_.w))

    def state_nbytes(self) -> int:
        """The bytes of the state held now (0 before any data)."""
        if not self.is_initialised:
            return 0
        return sum(array.nbytes for array in self.state_)

    @property
    def is_initialised(self) -> bool:
        return getattr(self, "state_", None) is not None

    @property
    def coef_(self) -> np.ndarray:
        """The current weight vector (the mean, for AROW)."""
        return self.state_.w

    # -- the river-style single step (same compiled loops as olbench.run) -----------------
    def predict_one(self, x: Any) -> float:
        """The learner's output for one example, without learning from it.

        A fresh learner answers from its initial state for ``len(x)`` features, which it
        does not keep (so ``predict_one`` then ``learn_one`` from the very first example is
        the protocol, with no special case). With w = 0 that is margin 0: under the default
        tie rule ``"novikoff"`` (a mistake is y p <= 0) no label, a mistake whatever y is;
        under LIBOL's (``libol=True``, :attr:`tie`) the label sign(0) = +1
        (:mod:`olbench.losses`).

        >>> from olbench import make_learner
        >>> p = make_learner("perceptron")
        >>> p.predict_one([1.0, 0.0]), p.is_initialised
        (0.0, False)
        >>> p.learn_one([1.0, 2.0], 1).predict_one([1.0, 0.0])
        1.0
        """
        from olbench.protocol import predict

        return float(predict(self, _as_row(x))[0])

    def learn_one(self, x: Any, y: Any) -> Learner:
        """Predict on x, then learn from (x, y): one round of the protocol."""
        from olbench.protocol import run

        label = np.asarray(y)
        if label.size != 1:
            raise ValueError(f"learn_one takes one label for one example, got {label.size} "
                             f"labels: {label.tolist()!r}")
        run(self, _as_row(x), label.reshape(1), reset=not self.is_initialised)
        return self


def _as_row(x: Any):
    import scipy.sparse as sp

    if sp.issparse(x):
        return x
    if isinstance(x, (dict, str, bytes)):  # river's {name: value} rows are not supported
        raise ValueError(f"a single example must be a 1-D sequence of numbers (or a sparse "
                         f"row), got a {type(x).__name__}: {x!r:.80}")
    try:
        x = np.asarray(x)
    except ValueError as error:  # ragged nested lists
        raise ValueError(f"a single example must be a 1-D sequence of numbers: {error}") from None
    if x.ndim != 1:
        raise ValueError(f"a single example must be 1-D, got an array of shape {x.shape}")
    return x[None, :]  # dtype checked (numbers, not complex) by features.as_features
