"""The comparator contract: a fixed predictor chosen in hindsight, and its losses.

A comparator is a :class:`~olbench.component.Component` (keyword-only parameters, a registry
key, a deterministic name such as ``BestFixed[loss='hinge',ridge=0.0,radius=None,...]``) with
one verb::

    fit = comparator.fit(X, y, meta=None, checkpoints=None, cache="default")

* ``X``: float64 ndarray (n, d) or CSR matrix; ``y``: float64 labels/targets; ``meta``: the
  stream's :class:`~olbench.streams.base.StreamMeta` (gives the generating ``u`` and the
  ``fingerprint`` used as cache key).
* a fit that no solver certifies within its limits (time, gap: see
  :class:`~olbench.comparators._solvers.Limits`) is a skip with the reason, and is not cached;
  the reason starts with ``time-out:`` when the time ran out (transient: a grid recomputes
  those runs when run again), else ``not certified:``.
* returns a :class:`~olbench.comparators.fit.ComparatorFit`: the fixed predictor ``u``
  (or ``None`` and a ``skip_reason`` -- a comparator that does not apply is a result, not a
  crash), its output ``margins`` u.x_t on every round (so any loss of it can be evaluated
  later), its per-round ``losses`` under its ``loss``, and for prefix comparators the
  per-checkpoint minima ``prefix_loss[k] = min_u sum_{t <= checkpoints[k]} loss_t(u)``.
  Solvers certify their own optimality: ``objective - lower_bound`` is a proven bound on the
  sub-optimality.
* ``fit.cum_loss_at(t)`` is what regret subtracts: the comparator's cumulative loss at rounds
  ``t`` (1-based). Regret(T) = sum_{t<=T} loss_t(w_t) - fit.cum_loss_at(T).

Fits are cached on disk with :class:`joblib.Memory` keyed by (comparator key, parameters,
data key, checkpoints). The data key of an order-invariant comparator (``order_invariant``:
all but the prefix ones) is :func:`content_key`, the same for every permutation of the rows,
so the permutations of one dataset share one fit: it is made on the rows sorted by their
hashes (:func:`row_hashes`), so that its u is the same whatever the order the rows came in
even where the minimiser is not unique, and its margins and losses are put back in each
run's row order; otherwise it is ``meta.fingerprint`` when known, else a hash of
(X, y). ``cache``: ``"default"`` (``$OLBENCH_CACHE`` or ``.olbench_cache/`` in the current
directory), a directory, a ``joblib.Memory``, or ``None`` for no cache. Exceptions are never
cached. A problem missing from a cache is solved by one process at a time, the others
waiting for its result, and every solve is journaled in the cache (:mod:`._cache`, which
holds the cache's look-up: :func:`._cache.cached_fit`).

>>> import numpy as np
>>> from olbench.comparators import make_comparator
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]); y = np.array([1.0, -1.0, 1.0])
>>> fit = make_comparator("best_fixed", loss="hinge").fit(X, y, cache=None)
>>> round(fit.cum_loss, 6), fit.cum_loss_at(np.array([1, 3])).round(6).tolist()
(0.0, [0.0, 0.0])
"""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import ClassVar

import numpy as np

from olbench.comparators._cache import (  # noqa: F401  (CACHE_VERSION: public here too)
    CACHE_VERSION,
    cached_fit,
    get_memory,
)
from olbench.comparators._duality import NotCertified, skip_reason
from olbench.comparators._keys import (  # noqa: F401  (content_key: public here too)
    _content_key,
    content_key,
    data_key,
    row_hashes,
)
from olbench.comparators.fit import ComparatorFit
from olbench.component import Component, OneOf, Registry
from olbench.features import as_features
from olbench.labels import RunLabels, oco_labels
from olbench.learning_task import comparator_mismatch, comparator_tasks
from olbench.losses import DEFAULT_LOSS, get_loss

#: None: the run's loss (olbench.harness.tasks.with_run_loss); fitted alone, the task's default
LOSS_CHOICES = OneOf(None, "hinge", "squared_hinge", "logistic", "squared", "absolute",
                     "epsilon_insensitive")


def _prepare(X, y):
    X = as_features(X, check_finite=False)
    y = np.ascontiguousarray(y, dtype=np.float64).ravel()
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} entries")
    return X, y


def _in_row_order(fit: ComparatorFit, order: np.ndarray) -> ComparatorFit:
    """A fit made on the rows ``X[order]`` (the canonical order) with its per-round margins
    and losses put back in the order of ``X``."""
    if fit.margins is None:
        return fit
    inverse = np.empty_like(order)
    inverse[order] = np.arange(len(order))
    predicted = getattr(fit, "predicted", None)       # a multiclass fit's
    return replace(fit, margins=fit.margins[inverse],
                   losses=None if fit.losses is None else fit.losses[inverse],
                   predicted=None if predicted is None else predicted[inverse])


def _classification_loss(comparator) -> bool:
    loss = getattr(comparator, "loss", None)
    try:
        return isinstance(loss, str) and get_loss(loss).task == "classification"
    except ValueError:
        return False


def _task_of(y: np.ndarray, meta) -> str:
    task = getattr(meta, "task", None)
    if task in DEFAULT_LOSS:
        return task
    return "classification" if np.isin(y, (-1.0, 1.0)).all() else "regression"


# The solve functions of the cache (:func:`._cache.cached_fit`): joblib keeps their fits in a
# folder named by their module and name (``<cache>/joblib/olbench/comparators/base/
# _fit_uncached``), so they stay here; moved, every cached fit would be solved again.
def _fit_uncached(key: str, params: dict, data: str, checkpoints, version: int, *, X, y, meta,
                  comparator):
    """``comparator``'s fit, cached by the arguments before ``*`` (its key and parameters,
    the data's key, the checkpoints, :data:`CACHE_VERSION`): the others are not hashed."""
    return comparator._fit(X, y, meta, checkpoints)


def _fit_stream_uncached(key: str, params: dict, data: str, checkpoints, version: int, *,
                         stream, meta, comparator):
    """:func:`_fit_uncached` of a fit over a stream read chunk by chunk."""
    return comparator._fit_stream(stream, meta, checkpoints)


class Comparator(Component):
    """Base class; subclasses register with ``class C(Comparator, key="...")`` and define
    :meth:`_fit` (X, y already validated)."""

    registry: ClassVar[Registry] = Registry("comparator", "olbench.comparators")
    #: cheap comparators skip the disk cache
    cacheable: ClassVar[bool] = True
    #: True: u minimises the comparator's ``loss`` (regret under another loss is meaningless);
    #: False: u is fixed by other means (generating vector, max margin), any loss measures it
    minimises_loss: ClassVar[bool] = False
    #: True: the fit does not depend on the order of the rows, so one fit serves every
    #: permutation of a dataset (cached by :func:`content_key`); prefix fits do depend on it
    order_invariant: ClassVar[bool] = True
    #: the fit is a linear u of the input space (``fit.u``); False: a function of another
    #: space (a kernel's RKHS), whose fit has margins and losses but ``u = None``
    linear: ClassVar[bool] = True

    @classmethod
    def problem_with(cls, task: str | None, loss: str | None, run_loss: str | None = None
                     ) -> str | None:
        """Why a comparator of this class, fitted in ``loss`` (its own; a grid gives one whose
        loss is null the run's), cannot measure the runs of a learner of ``task``
        (classification, regression, oco; None: not asked) whose per-round loss is
        ``run_loss`` (None: not asked); None when it can. The one rule between a comparator
        and a run's task: a comparator of a declared task (an OCO set's) measures that task
        only, else the task of its loss (a hinge comparator is not fitted for a regressor);
        and regret in the run's loss against a fit in another loss needs both losses of one
        task (a hinge fit cannot measure a squared-loss run). Read from the class and the
        loss, so that a grid asks it of a spec without building the comparator.

        >>> Comparator.problem_with("regression", "hinge")
        'a classification loss (hinge) cannot measure a regression learner'
        >>> Comparator.problem_with("classification", "hinge"), Comparator.problem_with(
        ...     "classification", None)
        (None, None)
        >>> print(Comparator.problem_with(None, "hinge", run_loss="squared"))
        a classification loss (hinge) cannot measure a regression run (squared loss): leave the \
comparator's loss null (it then takes the run's)
        """
        declared = getattr(cls, "task", None)
        if task is not None and isinstance(declared, str):
            return None if declared == task else \
                f"a comparator of {declared} runs cannot measure a {task} learner"
        if loss is None:
            return None
        own = get_loss(loss).task
        if task is not None and own != task:
            return f"a {own} loss ({loss}) cannot measure a {task} learner"
        if run_loss is not None and loss != run_loss and own != get_loss(run_loss).task:
            return (f"a {own} loss ({loss}) cannot measure a {get_loss(run_loss).task} run "
                    f"({run_loss} loss): leave the comparator's loss null (it then takes the "
                    f"run's)")
        return None

    def fit(self, X, y, meta=None, *, checkpoints=None, cache="default") -> ComparatorFit:
        self.validate()
        mismatch = comparator_mismatch(self, getattr(meta, "task", None),
                                       getattr(meta, "name", "the data"))
        if mismatch:   # the stream declares its task: best_point on a classification set...
            raise ValueError(mismatch)
        X, y = _prepare(X, y)
        if meta is None and comparator_tasks(self) == {"oco"}:   # arrays declare nothing:
            oco_labels(np.asarray(y), 0, f"comparator {self.key} (online convex "
                       "optimisation)")                     # y must say "no labels"
        if getattr(self, "loss", "") is None:  # outside a grid, nothing gave the run's loss
            declared = getattr(type(self), "task", None)
            task = declared if isinstance(declared, str) else _task_of(y, meta)
            fit = self.clone(loss=DEFAULT_LOSS[task]).fit(
                X, y, meta, checkpoints=checkpoints, cache=cache)
            fit.params = {"key": self.key, **self.get_params()}
            return fit
        if meta is None and _classification_loss(self):   # arrays: labels as run() reads
            labels = RunLabels("classification")          # them ({0, 1} -> {-1, +1}),
            y = labels(y, X.shape[0], 0)                  # with its warning on all-zero y
            note = labels.one_class_note()
            if note:
                warnings.warn(note, UserWarning, stacklevel=2)
        if checkpoints is not None:
            checkpoints = np.unique(np.asarray(checkpoints, dtype=np.int64))
            if checkpoints[0] < 1 or checkpoints[-1] > X.shape[0]:
                raise ValueError(f"checkpoints must lie in [1, {X.shape[0]}]")
        memory = get_memory(cache) if self.cacheable else None
        try:
            if self.order_invariant and self.cacheable:
                # one fit per data content, whatever the row order: made on the rows in a
                # canonical order (by row hash), so that where the minimiser is not unique
                # (an LP's optimal face) every permutation gets the same u, cached or not
                rows = row_hashes(X, y)
                order = np.argsort(rows, kind="stable")
                Xc, yc = X[order], y[order]
                fit = _in_row_order(self._fit(Xc, yc, meta, checkpoints) if memory is None else
                                    cached_fit(self, memory, _content_key(rows, X.shape),
                                               checkpoints, _fit_uncached, X=Xc, y=yc,
                                               meta=meta), order)
            elif memory is None:
                fit = self._fit(X, y, meta, checkpoints)
            else:
                fit = cached_fit(self, memory, data_key(X, y, meta), checkpoints,
                                 _fit_uncached, X=X, y=y, meta=meta)
        except NotCertified as e:          # out of limits: a skip, never cached
            fit = self._skip(skip_reason(e), getattr(self, "loss", None))
        fit.params = {"key": self.key, **self.get_params()}
        return fit

    def _fit(self, X, y, meta, checkpoints) -> ComparatorFit:
        raise NotImplementedError

    # -- out-of-core streams ------------------------------------------------------------
    def streamed_problem(self) -> str | None:
        """Why this comparator cannot be fitted over a stream read chunk by chunk
        (:meth:`fit_stream`), None if it can. By default it cannot: its solvers take all
        the rows in memory."""
        return "its solver takes all the rows in memory"

    def fit_stream(self, stream, meta=None, *, checkpoints, cache="default") -> ComparatorFit:
        """The fit over ``stream`` read chunk by chunk (:mod:`._chunked`), for a stream too
        large for memory: the same u as :meth:`fit` on the same rows (within its
        certificate), with u's cumulative loss and mistakes at ``checkpoints`` instead of
        per-round arrays (:attr:`ComparatorFit.streamed`). Cached by the stream's
        fingerprint and the checkpoints. A comparator whose :meth:`streamed_problem` says
        it cannot raises a ValueError saying why."""
        self.validate()
        meta = stream.meta if meta is None else meta
        if getattr(self, "loss", "") is None:  # outside a grid, nothing gave the run's loss
            fit = self.clone(loss=DEFAULT_LOSS[meta.task]).fit_stream(
                stream, meta, checkpoints=checkpoints, cache=cache)
            fit.params = {"key": self.key, **self.get_params()}
            return fit
        problem = self.streamed_problem()
        if problem:
            raise ValueError(f"{self.name} cannot be fitted over a stream read chunk by chunk: "
                             f"{problem}")
        checkpoints = np.unique(np.asarray(checkpoints, dtype=np.int64))
        if checkpoints[0] < 1 or checkpoints[-1] > meta.n:
            raise ValueError(f"checkpoints must lie in [1, {meta.n}]")
        memory = get_memory(cache) if self.cacheable and meta.fingerprint else None
        try:
            fit = self._fit_stream(stream, meta, checkpoints) if memory is None else \
                cached_fit(self, memory, f"streamed:{meta.fingerprint}", checkpoints,
                           _fit_stream_uncached, stream=stream, meta=meta)
        except NotCertified as e:
            fit = self._skip(skip_reason(e), getattr(self, "loss", None))
        fit.params = {"key": self.key, **self.get_params()}
        return fit

    def _fit_stream(self, stream, meta, checkpoints) -> ComparatorFit:
        raise NotImplementedError

    def _streamed_result(self, u, loss: str, checkpoints, sums, **kw) -> ComparatorFit:
        """A streamed fit from u's :class:`~olbench.checkpoints.RunningSums`."""
        ties = {name.removeprefix("mistakes_"): values for name, values in sums.at.items()
                if name.startswith("mistakes_")}
        return ComparatorFit(self.name, loss, getattr(self, "epsilon", 0.1), u=u,
                             checkpoints=sums.checkpoints, checkpoint_loss=sums.at["loss"],
                             checkpoint_mistakes=ties or None, **kw)

    # helpers for subclasses
    def _result(self, X, y, u, loss: str, epsilon: float, **kw) -> ComparatorFit:
        margins = np.asarray(X @ u, dtype=float).ravel()
        return ComparatorFit(self.name, loss, epsilon, u=u, margins=margins,
                             losses=get_loss(loss, epsilon=epsilon)(margins, y), **kw)

    def _skip(self, reason: str, loss: str | None = None) -> ComparatorFit:
        return ComparatorFit(self.name, loss, getattr(self, "epsilon", 0.1), skip_reason=reason)
