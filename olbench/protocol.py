"""Run the online protocol: the only caller of the compiled rules (olbench.rules).

>>> import numpy as np
>>> from olbench import make_learner, run
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]]); y = np.array([1, -1, 1])
>>> trace = run(make_learner("perceptron"), X, y)
>>> trace.margins.tolist(), trace.n_mistakes
([0.0, 0.0, 1.0], 2)

Inputs are checked and converted once, at the protocol's boundary, by the one conversion of
each kind: features by :func:`olbench.features.as_features` (float64, dense C-contiguous or
canonical CSR), labels by :class:`olbench.labels.RunLabels` ({-1, +1} for classification,
{0, 1} and bool mapped; real targets for regression). NaN/inf, wrong labels, a wrong number
of features and an empty stream each raise a ``ValueError`` naming the problem and the row;
so do a stream of another task than the learner's and rows outside the losses a learner
takes (:mod:`olbench.learning_task`).
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.breakdown import breakdown_error, check_final_state
from olbench.features import as_features, check_finite_features, most_non_zeros
from olbench.labels import RunLabels
from olbench.learners.multiclass import run_labels
from olbench.learning_task import UNLABELLED_TASKS, check_loss_range, learner_mismatch
from olbench.losses import DEFAULT_LOSS, LABELLED_TASKS, Loss, get_loss, mistakes, predicted_labels
from olbench.resources import check_memory, size_problem


# ----------------------------------------------------------------------------- the trace
@dataclass(frozen=True)
class Trace:
    """What one run of the protocol produced. Arrays are per round, in stream order.

    ``margins[t]`` is the learner's output p_t, recorded before y_t was revealed;
    ``updated[t]`` says whether the update rule fired; ``losses[t]`` is the per-example
    loss ``loss_fn`` (named ``loss_name``); ``time_s`` is the wall time of the compiled loop
    alone.
    """

    learner: str
    task: str
    tie: str
    margins: np.ndarray
    y: np.ndarray
    updated: np.ndarray
    loss_fn: Loss = field(repr=False)
    time_s: float
    state: dict[str, np.ndarray] = field(repr=False)
    n_features: int = 0
    time_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, int), repr=False)
    time_cum: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    #: the number of non-zero weights at the same points as ``time_cum``, counted at the
    #: ``checkpoints`` given to :func:`run` and at the last round only (NaN at the other
    #: chunk ends: a lazy learner's count costs O(d); NaN too where the learner's w is not a
    #: weight vector: :meth:`Learner.nonzero_weights`)
    nonzero_cum: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    #: ``(t, snapshot)`` at each checkpoint where the learner has one to give
    #: (:meth:`Learner.checkpoint_snapshot`: an online PCA learner's subspace played next)
    snapshots: tuple = field(default=(), repr=False)
    #: a multiclass run's: the class predicted at each round (an index into ``classes``,
    #: the lowest among the top scores) and the class codes; ``y`` and ``predicted`` hold
    #: indices, ``margins`` the multiclass margins s_y - max_{r != y} s_r (olbench.losses)
    predicted: np.ndarray | None = field(default=None, repr=False)
    classes: np.ndarray | None = field(default=None, repr=False)

    @property
    def loss_name(self) -> str:
        return self.loss_fn.name

    @cached_property
    def losses(self) -> np.ndarray:
        """Per-round values of the trace's loss (computed on first use)."""
        return self.loss_fn(self.margins, self.y)

    @property
    def n(self) -> int:
        return int(self.margins.shape[0])

    @property
    def mistakes(self) -> np.ndarray | None:
        """Boolean per round under the tie rule (classification and multiclass only)."""
        if self.task not in LABELLED_TASKS:
            return None
        return mistakes(self.margins, self.y, self.tie, self.predicted)

    @property
    def predictions(self) -> np.ndarray:
        """Labels (classification, 0 for a tie under the Novikoff rule; multiclass: the class
        codes predicted) or real predictions."""
        if self.task == "multiclass":
            return self.classes[self.predicted]
        if self.task != "classification":
            return self.margins
        return predicted_labels(self.margins, self.tie)

    @property
    def n_mistakes(self) -> int | None:
        m = self.mistakes
        return None if m is None else int(m.sum())

    @property
    def n_updates(self) -> int:
        return int(self.updated.sum())

    @property
    def cumulative_loss(self) -> float:
        return float(self.losses.sum())

    def time_at(self, t: Any) -> np.ndarray:
        """Cumulative loop time (s) after round(s) t: exact at the ``checkpoints`` given to
        :func:`run` and at chunk ends, otherwise that of the next such point."""
        t = np.asarray(t)
        return self.time_cum[np.minimum(np.searchsorted(self.time_rows, t, side="left"),
                                        self.time_cum.size - 1)]

    def nonzero_at(self, t: Any) -> np.ndarray:
        """The number of non-zero weights after round(s) t: exact at the ``checkpoints``
        given to :func:`run` and at the last round (elsewhere that of the next chunk end,
        NaN unless it is one of those)."""
        t = np.asarray(t)
        return self.nonzero_cum[np.minimum(np.searchsorted(self.time_rows, t, side="left"),
                                           self.nonzero_cum.size - 1)]

    def loss(self, name: str | Loss, **loss_params: Any) -> np.ndarray:
        """Per-round values of any loss, evaluated after the fact from the margins."""
        loss = name if isinstance(name, Loss) else get_loss(name, **loss_params)
        return loss(self.margins, self.y)


# ----------------------------------------------------------------------------- checks
def _non_finite_output(learner, X, offset: int, row: int) -> None:
    """The loop stopped at ``row`` on a NaN/inf output: name the bad input rows, or the
    parameter that broke the rule's arithmetic (olbench.breakdown)."""
    check_finite_features(X, offset)
    raise breakdown_error(learner, f"the output is NaN or infinite at row {row}", X)


def _check_chunk_size(chunk_size: Any) -> None:
    if chunk_size is None:
        return
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) \
            or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive integer or None, got {chunk_size!r}")


def _check_checkpoints(checkpoints: Any) -> list[int]:
    """The timing points of :func:`run`: integers >= 1 (rounds are 1-based)."""
    if checkpoints is None:
        return []
    points = np.atleast_1d(np.asarray(checkpoints))
    if points.dtype == bool or not np.issubdtype(points.dtype, np.number) \
            or not np.all(np.isfinite(points)) or np.any(points != np.round(points)) \
            or np.any(points < 1):
        raise ValueError(f"checkpoints must be round counts T >= 1 (integers), got "
                         f"{np.asarray(checkpoints).tolist()!r}")
    return sorted({int(c) for c in points})


def _n_rows(X: Any) -> int:
    return X.shape[0] if hasattr(X, "shape") else len(X)


def _known_rows(learner, X: Any) -> int | None:
    """The rows a run will see, when known before it starts: an array's, or a stream's
    length if the learner's memory grows with it (its meta may take a pass over a file)."""
    if not hasattr(X, "chunks"):
        return _n_rows(X)
    return int(X.meta.n) if learner.state_grows_with_rows else None


def _check_room(learner, X_chunk, *, total: int | None, offset: int, fresh: bool,
                limit: Any) -> None:
    """Refuse, before it allocates, a chunk that would take the learner past the memory
    free (or ``limit``): up front for the whole run on its first chunk, then for each
    further one, counting the state already held (a kernel learner's grows, or widens for
    longer sparse rows)."""
    n_rows, d = X_chunk.shape
    check_memory(learner, n=max(total or 0, offset + n_rows), d=d,
                 nnz=most_non_zeros(X_chunk) if sp.issparse(X_chunk) else None, limit=limit,
                 held=0 if fresh else learner.state_nbytes(),
                 records=max(total or 0, n_rows) if fresh else n_rows)


def _chunks(X: Any, y: Any, chunk_size: int | None, labelled: bool = True
            ) -> Iterator[tuple[Any, Any]]:
    if hasattr(X, "chunks"):  # a stream
        if y is not None:
            raise ValueError("pass labels inside the stream, not as y, when X is a stream")
        yield from X.chunks(chunk_size) if chunk_size else X.chunks()
        return
    if y is None and labelled:
        raise ValueError("labels y are required when X is an array")
    if y is None:   # an OCO learner's arrays: each row a loss, y unused (RunLabels: zeros)
        y = np.zeros(_n_rows(X))
    n = _n_rows(X)
    n_labels = _n_rows(y) if np.ndim(y) else 1
    if n_labels != n:  # checked whole: slicing per chunk would drop extra labels silently
        raise ValueError(f"labels have shape {np.shape(y)} but the features have {n} rows: "
                         f"one label per row")
    if not chunk_size or chunk_size >= n:  # one chunk: the arrays themselves (a CSR slice copies)
        yield X, y
        return
    step = chunk_size
    for start in range(0, n, step):
        yield X[start:start + step], y[start:start + step]


# ----------------------------------------------------------------------------- running
def _read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view. The loops only read rows and labels, but numba compiles a loop once
    per signature, and a read-only array (a stream's cached data) is another type than a
    writable one: with every input read-only, each loop compiles once, not twice (measured:
    27 rules compiled a second run loop in the test suite, 4-12 s of CPU each)."""
    view = array.view()
    view.flags.writeable = False
    return view


def _call_rule(loop_dense, loop_csr, learner, X, begin, end, *arrays):
    """Run a loop over rows begin..end-1 of X. Rows are passed as views, never copies: a CSR
    slice ``X[begin:end]`` would copy its indices and data (measured: 1.8x the loop's own
    time at 50 non-zeros per row), so the loop gets the window of ``indptr`` instead, whose
    entries still point into the whole ``indices``/``data``."""
    state, params = learner.state_, learner.rule_params()
    try:
        if sp.issparse(X):
            return loop_csr(params, state.w, state.A, state.s,
                            *map(_read_only, (X.indptr[begin:end + 1], X.indices, X.data)),
                            *arrays)
        return loop_dense(params, state.w, state.A, state.s, _read_only(X[begin:end]), *arrays)
    except ZeroDivisionError:   # a compiled rule divided by 0: the same diagnosis as a NaN
        raise breakdown_error(learner, "a division by zero", X[begin:end]) from None


def run(learner, X: Any, y: Any = None, *, loss: str | Loss | None = None,
        tie: str | None = None, chunk_size: int | None = None, reset: bool = True,
        checkpoints: Any = None, memory_limit: Any = None, classes: Any = None) -> Trace:
    """Run the online protocol of ``learner`` over a stream and return its :class:`Trace`.

    For each round t: p_t = predict(x_t) is recorded, then y_t is revealed and the learner
    updates, all inside a compiled loop. ``X`` is an array (dense or scipy sparse, with labels
    ``y``) or a stream (an object with ``chunks()``; the learner's state carries across
    chunks, so memory stays constant apart from the per-round outputs). ``reset=False``
    continues from the learner's current state. ``loss`` names the per-round loss stored in
    the trace (default: hinge for classification, squared for regression); ``tie`` the rule
    for counting mistakes (default: the learner's). ``checkpoints`` (round counts T) makes
    the loop's cumulative wall time exact at those rounds (:meth:`Trace.time_at`).

    Before it allocates, the run compares the memory the learner's state will take
    (:meth:`~olbench.learners.base.Learner.footprint`) with the memory free on this machine,
    or ``memory_limit`` (bytes, or a size such as ``"8GiB"``), and refuses, naming the size
    and what sets it, a run that would not fit (:mod:`olbench.resources`).

    A multiclass learner's classes (``classes``: k for 1..k, or the class codes) are, when
    not given here: its own ``classes`` option's, else the stream's, else the distinct
    labels of ``y`` (:mod:`olbench.learners.multiclass`).
    """
    learner.validate()
    _check_chunk_size(chunk_size)
    problem = size_problem(memory_limit)
    if problem:
        raise ValueError(f"memory_limit={memory_limit!r}: {problem}")
    timing_points = _check_checkpoints(checkpoints)
    task = learner.task
    loss_fn = loss if isinstance(loss, Loss) else get_loss(loss or DEFAULT_LOSS[task])
    if loss_fn.task == "classification" and task == "regression":  # y m means nothing for real y
        raise ValueError(f"loss={loss_fn.name!r} is a classification loss (of y_t p_t) but "
                         f"{learner.name} is a regression learner; use a regression loss")
    if (loss_fn.task in UNLABELLED_TASKS or task in UNLABELLED_TASKS) and loss_fn.task != task:
        # the output is the loss suffered (OCO, online PCA), or it is not: never mixed
        raise ValueError(f"loss={loss_fn.name!r} is a loss of task {loss_fn.task} but "
                         f"{learner.name} is a {task} learner; use loss="
                         f"{DEFAULT_LOSS[task]!r}" + (", the loss it records as its output"
                                                      if task in UNLABELLED_TASKS else ""))
    if hasattr(X, "chunks"):   # a stream declares its task; arrays are checked row by row
        mismatch = learner_mismatch(learner, X)
        if mismatch:
            raise ValueError(mismatch)
    labels = run_labels(learner, X, y, classes, reset) if task == "multiclass" \
        else RunLabels(task)
    if task == "multiclass" and reset:   # k sizes the state, checked before it is allocated
        learner.classes_ = labels.classes
    total = _known_rows(learner, X)
    rule = learner.rule()
    margins: list[np.ndarray] = []
    predicted: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    updated: list[np.ndarray] = []
    elapsed, offset = 0.0, 0
    time_rows: list[int] = []
    time_cum: list[float] = []
    timing_set = set(timing_points)
    nonzero: list[float] = []
    snapshots: list[tuple[int, np.ndarray]] = []
    for X_chunk, y_chunk in _chunks(X, y, chunk_size, labelled=task not in UNLABELLED_TASKS):
        X_chunk = as_features(X_chunk, offset=offset,
                              check_finite=not learner.non_finite_rows_show_in_output)
        n_rows, d = X_chunk.shape
        if n_rows == 0:
            continue
        if d == 0:
            raise ValueError("features have 0 columns (d = 0): there is nothing to learn from")
        y_chunk = labels(y_chunk, n_rows, offset)   # first: labels say what the data are
        check_loss_range(learner, X_chunk, offset)
        fresh = reset and offset == 0
        _check_room(learner, X_chunk, total=total, offset=offset, fresh=fresh,
                    limit=memory_limit)
        if fresh:
            learner.reset(d, labels.classes) if task == "multiclass" else learner.reset(d)
        elif not learner.is_initialised:
            raise ValueError("reset=False needs a learner that has already seen data")
        elif d != learner.n_features_:
            raise ValueError(f"rows {offset}..{offset + n_rows - 1} have {d} features but the "
                             f"learner was set up for {learner.n_features_}")
        learner._reserve(X_chunk, total)
        m = np.empty(n_rows)
        u = np.empty(n_rows, dtype=np.bool_)
        # a multiclass loop also records the class it predicted (olbench.rules.loop)
        outputs = (m, np.empty(n_rows, dtype=np.int64), u) if rule.multiclass else (m, u)
        y_read = _read_only(y_chunk)
        # zero rows: compiles (or loads from cache) for these types outside the timed region
        _call_rule(rule.run_dense, rule.run_csr, learner, X_chunk, 0, 0, y_read[:0],
                   *(a[:0] for a in outputs))
        # the loop is timed piecewise, split at the requested checkpoints
        cuts = [c - offset for c in timing_points if offset < c < offset + n_rows] + [n_rows]
        begin = 0
        for end in cuts:
            start = time.perf_counter()
            stopped = _call_rule(rule.run_dense, rule.run_csr, learner, X_chunk, begin,
                                 end, y_read[begin:end], *(a[begin:end] for a in outputs))
            elapsed += time.perf_counter() - start
            if stopped >= 0:
                _non_finite_output(learner, X_chunk, offset, offset + begin + stopped)
            time_rows.append(offset + end), time_cum.append(elapsed)
            counted = offset + end in timing_set
            if counted:
                learner._catch_up()            # every weight read: O(d), so at checkpoints
                snapshot = learner.checkpoint_snapshot()
                if snapshot is not None:
                    snapshots.append((offset + end, snapshot))
            nonzero.append(learner.nonzero_weights() if counted else math.nan)
            begin = end
        margins.append(m), ys.append(y_chunk), updated.append(u)
        if rule.multiclass:
            predicted.append(outputs[1])
        offset += n_rows
    if offset == 0:
        raise ValueError("empty stream: there are no rows to learn from")
    if timing_points and timing_points[-1] > offset:
        raise ValueError(f"checkpoint {timing_points[-1]} is past the last round ({offset})")
    learner._finalize()
    if math.isnan(nonzero[-1]):          # the last round, when no checkpoint asked for it
        nonzero[-1] = learner.nonzero_weights()
    check_final_state(learner)
    note = labels.one_class_note() if reset and not hasattr(X, "chunks") else None
    if note:
        warnings.warn(note, UserWarning, stacklevel=2)
    margins_all, y_all, updated_all = (parts[0] if len(parts) == 1 else np.concatenate(parts)
                                       for parts in (margins, ys, updated))
    multiclass = {"predicted": np.concatenate(predicted), "classes": learner.classes_.copy()} \
        if rule.multiclass else {}
    return Trace(learner=learner.name, task=task, tie=tie or learner.tie,
                 margins=margins_all, y=y_all, updated=updated_all,
                 loss_fn=loss_fn, time_s=elapsed,
                 state=learner.export_state(),
                 n_features=learner.n_features_, time_rows=np.array(time_rows),
                 time_cum=np.array(time_cum), nonzero_cum=np.array(nonzero, dtype=float),
                 snapshots=tuple(snapshots),
                 **multiclass)


def predict(learner, X: Any) -> np.ndarray:
    """Outputs p = w.x for each row of X, without learning (a multiclass learner's: the
    scores W_r . x, one row of k per row of X). A learner that has seen no data
    yet predicts from its initial state for X's d features (w = 0 unless ``init`` says
    otherwise: every margin 0), which it does not keep: it stays fresh, so predicting first
    changes nothing in a later run."""
    X = as_features(X)
    if not learner.is_initialised:
        # a throwaway copy: some predict rules write scratch space in the state (SOP, NAROW)
        learner = learner.clone().reset(X.shape[1])
    if X.shape[1] != learner.n_features_:
        raise ValueError(f"X has {X.shape[1]} features but the learner was set up for "
                         f"{learner.n_features_}")
    rule = learner.rule()
    out = np.empty((X.shape[0], learner.n_classes_) if rule.multiclass else X.shape[0])
    _call_rule(rule.predict_dense, rule.predict_csr, learner, X, 0, X.shape[0], out)
    return out
