"""The multiclass family's base: one weight row per class, the classes, and their state.

A multiclass learner (task ``"multiclass"``, :mod:`olbench.learning_task`) keeps W, k x d, in
the ``w`` slot of its state (:mod:`olbench.rules.multiclass`), scores each class r by W_r . x,
predicts the lowest index among the top scores and records the multiclass margin
s_y - max_{r != y} s_r with the class it predicted (:mod:`olbench.losses`). Its classes are,
in this order: its ``classes`` option (k, for the classes 1..k, or the class codes), else
the stream's, else the distinct labels of the arrays given to :func:`olbench.run`; the run
maps each code to its index in the ascending codes (:class:`olbench.labels.ClassLabels`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from olbench.component import Constraint
from olbench.labels import ClassLabels, describe_labels, multiclass_classes
from olbench.learners.base import INIT_OPTIONS, Learner
from olbench.learners.state import State
from olbench.learning_task import data_label
from olbench.resources import Footprint, features


class ClassCodes(Constraint):
    """None (the classes come from the data), k >= 2 (the classes 1..k), or a list of at
    least two distinct whole numbers (the class codes)."""

    def check(self, value: Any) -> bool:
        if value is None:
            return True
        if isinstance(value, (bool, float, str)):
            return False
        try:
            classes = multiclass_classes(value)
        except ValueError:
            return False
        return np.ndim(value) == 0 or classes.size == len(value)    # (codes: distinct)

    def describe(self) -> str:
        return ("null (from the data), k >= 2 (the classes 1..k), or a list of at least two "
                "distinct whole numbers")


class MulticlassLearner(Learner):
    """Base of the multiclass learners: W (k x d) in ``w``; ``A`` as the subclass keeps it;
    ``s`` = its scalars, then k scratch entries for the scores of the current row."""

    task = "multiclass"
    optional_params = {**INIT_OPTIONS, "classes": (None, ClassCodes())}
    #: scalars a rule keeps before the scores' scratch (OGD's round counter)
    n_scalars = 0

    @property
    def n_classes_(self) -> int:
        return int(self.classes_.size)

    def declared_classes(self) -> np.ndarray | None:
        """The classes the ``classes`` option gives (None: from the data)."""
        if self.classes is None:
            return None
        return multiclass_classes(self.classes, source=f"{self.key} classes")

    def init_state(self, d):
        k = self.n_classes_
        return State(np.zeros((k, d)), self.init_covariance(d), np.zeros(self.n_scalars + k))

    def init_covariance(self, d: int) -> np.ndarray:
        return np.zeros((0, d))

    def reset(self, d: int, classes: Any = None) -> MulticlassLearner:
        """Validate, and start from W = 0 for d features and ``classes`` (class codes; None:
        the ``classes`` option's)."""
        found = self.declared_classes() if classes is None else np.asarray(classes, float)
        if found is None:
            raise ValueError(f"{self.key}: the classes are not known: give classes=k (the "
                             f"classes 1..k) or the list of class codes")
        self.classes_ = found
        return super().reset(d)

    def export_state(self):
        state = self.state_
        return {"w": state.w.copy(), "A": self._exported_A(),
                "s": state.s[:self.n_scalars].copy()}

    def _known_k(self) -> int:
        """k, as far as it is known before the data (2 when it is not)."""
        classes = getattr(self, "classes_", None)
        if classes is None:
            classes = self.declared_classes()
        return 2 if classes is None else int(classes.size)

    def footprint(self, n, d, nnz=None):
        # W and its exported copy, the scores' scratch, and the class predicted at each of
        # the n rounds (recorded beside the margins every learner records)
        k = self._known_k()
        return Footprint(8.0 * (2 * k * d + 2 * k + 8 + n), f"{k} rows of d weights (one "
                         f"per class)", f"{k} classes and {features(d)}")

    def predict_one(self, x: Any) -> float:
        """The class code this learner predicts for one example (the lowest index among the
        top scores), without learning from it; a fresh learner answers from W = 0 for the
        classes of its ``classes`` option: the first class."""
        from olbench.learners.base import _as_row
        from olbench.protocol import predict

        scores = predict(self, _as_row(x))[0]
        classes = self.classes_ if self.is_initialised else self.declared_classes()
        return float(classes[int(np.argmax(scores))])

    @property
    def coef_(self) -> np.ndarray:
        """W, one row of weights per class (in the order of ``classes_``)."""
        return self.state_.w


def run_labels(learner, X: Any, y: Any, classes: Any, reset: bool) -> ClassLabels:
    """The labels of a multiclass run of :func:`olbench.run`, with its classes: given to it, the
    learner's option, the learner's own (``reset=False``), the stream's, or those of ``y``;
    two that are given must agree."""
    source = learner.key
    given = [(f"run(classes={classes!r})", None if classes is None else
              multiclass_classes(classes, source=source)),
             (f"{learner.key}'s classes option", learner.declared_classes())]
    if not reset and learner.is_initialised:
        given.append(("the classes the learner was set up with", learner.classes_))
    stream = getattr(X, "classes", None) if hasattr(X, "chunks") else None
    if stream is not None:
        given.append((data_label(X) + "'s classes", multiclass_classes(stream, source=source)))
    known = [(who, found) for who, found in given if found is not None]
    for (who, found), (other, theirs) in zip(known, known[1:]):
        if found.shape != theirs.shape or not (found == theirs).all():
            raise ValueError(f"{who} are {describe_labels(found)} but {other} are "
                             f"{describe_labels(theirs)}: give one set of classes")
    if known:
        return ClassLabels(known[0][1], source=source)
    if hasattr(X, "chunks"):
        raise ValueError(f"{learner.key}: {data_label(X)} does not declare its classes: give "
                         f"classes=k (the classes 1..k) or the list of class codes")
    if y is None:
        raise ValueError("labels y are required when X is an array")
    values = np.asarray(y)
    if values.size and np.issubdtype(values.dtype, np.number) and values.dtype != bool \
            and np.isin(values, (-1, 1)).all() and (values == -1).any():
        raise ValueError(f"{learner.key} is a multiclass learner but the labels are "
                         f"{{-1, +1}}, a binary coding: use a binary classification learner "
                         f"(olbench --list learner), or give classes=[-1, 1] to learn the "
                         f"two classes as a multiclass problem")
    return ClassLabels(multiclass_classes(values, source=f"{source} labels"), source=source)
