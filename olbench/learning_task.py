"""The learning task of a learner, of a stream, of a comparator: one rule that they agree,
applied before any round runs by :func:`olbench.run`, by a grid
(:func:`olbench.harness.task_checks.validate`, so the command line refuses a mismatch with
the rest of the configuration) and by a comparator's fit.

Five tasks:

* ``"classification"``: a row of features x_t and a label y_t in {-1, +1};
* ``"regression"``: a row of features x_t and a real target y_t;
* ``"multiclass"``: a row of features x_t and a label y_t, one of k classes (the data's own
  codes; the learner keeps one weight row per class: :mod:`olbench.learners.multiclass`);
* ``"oco"``: online convex optimisation, prediction with expert advice included: the row x_t
  *is* the loss f_t (a gradient, a point, the experts' losses), the learner plays a point and
  records the loss it suffered; labels are ignored.
* ``"pca"``: online PCA: the row x_t is a data point, the learner plays a rank-k projection
  P_t before it sees x_t and records the compression loss ||x_t - P_t x_t||^2 it suffered;
  labels are dropped (:mod:`olbench.learners.pca`).

Every stream declares its task (``Stream.task``), every learner the task it does
(``Learner.task``, and :meth:`~olbench.learners.base.Learner.task_options` when a parameter
decides it, as OGD's ``loss``), every comparator the task it measures (its class's ``task``,
else its loss's). Arrays given without a stream declare nothing: their labels are checked
against the learner's task where they say it (:class:`olbench.labels.RunLabels`: {-1, +1}
for classification, finite reals for regression) and their rows against the range a learner
declares for its losses (:attr:`~olbench.learners.base.Learner.loss_range`: the experts'
losses in [0, 1] of Hedge and the weighted majority).

>>> from olbench import make_learner
>>> from olbench.streams import make_stream
>>> print(learner_mismatch(make_learner("hedge"), make_stream("separable")))  # doctest: +ELLIPSIS
learner hedge does online convex optimisation (task oco: each row is a loss) but stream \
separable is a classification stream (rows of features, labels in {-1, +1}); learners for \
classification: adagrad (loss=hinge or logistic), alma, aromma, arow, ..., ogd (loss=hinge or \
logistic), ...
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.features import check_finite_features

#: what each task does, as messages say it
DOES = {"classification": "classification", "regression": "regression",
        "multiclass": "multiclass classification", "oco": "online convex optimisation",
        "pca": "online PCA"}
#: what the data of each task hold
ROWS = {"classification": "rows of features, labels in {-1, +1}",
        "regression": "rows of features, real targets",
        "multiclass": "rows of features, labels one of k >= 2 classes",
        "oco": "each row is a loss",
        "pca": "rows of data, labels dropped"}
#: the comparator that measures runs of each task (the default of a single cell)
COMPARATOR_FOR = {"classification": "best_fixed", "regression": "best_fixed",
                  "multiclass": "multiclass_best_fixed", "oco": "best_point",
                  "pca": "best_subspace"}
#: the tasks whose learners record the loss they suffered as their output, with no label
UNLABELLED_TASKS = ("oco", "pca")


def _article(task: str) -> str:
    return "an" if DOES.get(task, task)[0] in "aeiou" else "a"   # (of what the task does)


def learners_for(task: str) -> list[str]:
    """Registry keys of the learners that do ``task``, each with the parameter values that
    make it so when a parameter decides (``"ogd (loss=hinge or logistic)"``).

    >>> learners_for("oco")[:3]
    ['eg', 'egpm', 'ftl']
    """
    from olbench.learners import Learner

    found = []
    for key in Learner.registry.keys():
        how = Learner.registry.get(key).task_options().get(task)
        if how is not None:
            found.append(f"{key} ({how})" if how else key)
    return found


def data_label(stream: Any) -> str:
    """How messages name a stream: a catalogue dataset by its name, else its registry key."""
    dataset = getattr(stream, "dataset", None)
    if isinstance(dataset, str):
        return f"dataset {dataset}"
    return f"stream {getattr(stream, 'key', None) or type(stream).__name__}"


def _task_of(obj: Any) -> str | None:
    task = getattr(obj, "task", None)
    return task if isinstance(task, str) else None


def learner_mismatch(learner: Any, stream: Any) -> str | None:
    """Why ``learner`` cannot learn from ``stream`` (their tasks differ), or None."""
    learner_task, stream_task = _task_of(learner), _task_of(stream)
    if learner_task is None or stream_task is None or learner_task == stream_task:
        return None
    does = DOES[learner_task] + (f" (task oco: {ROWS['oco']})" if learner_task == "oco" else "")
    own = getattr(stream, "get_params", lambda: {})()
    settable = " (or set the stream's task)" if "task" in own else ""
    return (f"learner {learner.key} does {does} but {data_label(stream)} is "
            f"{_article(stream_task)} {DOES[stream_task]} stream ({ROWS[stream_task]}); "
            f"learners for {DOES[stream_task]}: {', '.join(learners_for(stream_task))}"
            + settable)


def comparator_tasks(comparator: Any, loss: Any = None) -> set[str]:
    """The tasks a comparator measures: its class's declared task, else its loss's, else
    (``loss=None``: the run's loss) those of the losses it accepts; empty when unknown.
    ``comparator``: a comparator, or its class and its ``loss`` parameter (a spec's, read
    without building it).

    >>> from olbench.comparators import BestFixed, make_comparator
    >>> sorted(comparator_tasks(make_comparator("best_fixed"))), comparator_tasks(BestFixed,
    ...                                                                           "hinge")
    (['classification', 'regression'], {'classification'})
    """
    from olbench.losses import get_loss

    cls = comparator if isinstance(comparator, type) else type(comparator)
    declared = getattr(cls, "task", None)
    if isinstance(declared, str):
        return {declared}
    loss = loss if comparator is cls else getattr(comparator, "loss", None)
    accepted = getattr(cls.constraints.get("loss"), "values", ())
    found = set()
    for name in [loss] if isinstance(loss, str) else accepted:
        try:
            found.add(get_loss(name).task)
        except (ValueError, TypeError):  # None, or an unknown loss: validate names it
            pass
    return found


def comparator_mismatch(comparator: Any, data_task: str | None, data: str,
                        kind: str = "stream", loss: Any = None) -> str | None:
    """Why ``comparator`` (or a comparator class with its ``loss``: :func:`comparator_tasks`)
    cannot measure runs of ``data_task``: those on a stream, or of a learner (``kind``),
    named ``data``. Rows of losses and rows of features never mix; a regression comparator
    may measure classification runs (labels +-1 are real targets: least squares on them is
    a classifier), a classification one never takes real targets.
    """
    tasks = comparator_tasks(comparator, loss)
    if not tasks or data_task is None or data_task in tasks:
        return None
    if data_task == "classification" and "regression" in tasks:
        return None
    does = " or ".join(DOES[task] for task in sorted(tasks))
    rows = f" ({ROWS[next(iter(tasks))]})" if len(tasks) == 1 else ""
    return (f"comparator {comparator.key} measures {does} runs{rows} but {data} is "
            f"{_article(data_task)} {DOES[data_task]} {kind} ({ROWS[data_task]}); use "
            f"comparator={COMPARATOR_FOR[data_task]}")


def loss_range_fits(learner: Any, stream: Any) -> bool:
    """Whether the stream's entries, as its parameters say, lie in the range of losses the
    learner takes (Hedge's and the weighted majority's [0, 1]); True where either is not
    declared. :func:`check_loss_range` checks the rows themselves as they are read."""
    needed, given = getattr(learner, "loss_range", None), stream.value_range()
    return needed is None or given is None or needed[0] <= given[0] and given[1] <= needed[1]


def check_loss_range(learner: Any, X: Any, offset: int = 0) -> None:
    """Refuse rows outside the range of losses the learner declares (``loss_range``: Hedge
    and the weighted majority take the experts' losses in [0, 1]), naming the first value
    out of range, its row and column. X is float64, dense or CSR."""
    bounds = getattr(learner, "loss_range", None)
    if bounds is None or X.shape[0] == 0:
        return
    low, high = bounds               # (it holds 0: the implicit zeros of sparse rows)
    values = X.data if sp.issparse(X) else X.ravel()
    if values.size == 0 or low <= values.min() and values.max() <= high:
        return                       # (no temporary the size of the chunk on this path)
    outside = (values < low) | (values > high)
    if not outside.any():            # a NaN fails both comparisons: the loop names it
        return
    first = int(np.flatnonzero(outside)[0])
    if not np.isfinite(values[first]):  # named as every NaN/inf input is
        check_finite_features(X, offset)
    if sp.issparse(X):
        row = int(np.searchsorted(X.indptr, first, side="right") - 1)
        column = int(X.indices[first])
    else:
        row, column = divmod(first, X.shape[1])
    raise ValueError(f"{learner.key} learns from losses in [{low:g}, {high:g}] (prediction "
                     f"with expert advice: row t holds the experts' losses at round t) but "
                     f"row {offset + row} has {float(values[first]):g} in column {column}; "
                     f"rescale the losses into [{low:g}, {high:g}], or for rows of features "
                     f"with labels use a classification or regression learner")
