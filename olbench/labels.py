"""Labels, mapped once to {-1, +1}: the conventions of data files (:class:`LabelMap`, at the
stream boundary) and of arrays given to :func:`olbench.run` (:class:`RunLabels`).

Binary files come coded as {-1, +1}, {0, 1}, {1, 2} or {2, 4} (LIBSVM's breast-cancer); for
these the larger label is positive unless ``positive_label`` says otherwise. Any other set of
labels (a multiclass file, or an unknown coding) needs an explicit ``positive_label``: that
class becomes +1 and every other class -1 (one-vs-rest), or, with ``negative_label`` too,
only the two classes are kept (one-vs-one) and the other rows are dropped.

>>> import numpy as np
>>> labels = LabelMap(None, None, source="demo")
>>> labels.resolve({2.0, 4.0})
4.0
>>> labels.apply(np.array([2.0, 4.0, 4.0]))[0]
array([-1.,  1.,  1.])
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from olbench.features import check_finite_rows

#: Binary codings recognised without a ``positive_label`` (checked in this order), positive last.
KNOWN_CODINGS: tuple[tuple[float, float], ...] = ((-1.0, 1.0), (0.0, 1.0), (1.0, 2.0), (2.0, 4.0))


def label_key(value: Any) -> Any:
    """A label as compared: numbers as float (so 4 == 4.0 == '4'), anything else as str."""
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value).strip()


def sorted_labels(labels: Iterable[Any]) -> list[Any]:
    """Distinct label keys in a stable order: numbers first (ascending), then strings."""
    return sorted({label_key(v) for v in labels}, key=lambda v: (isinstance(v, str), v))


def describe_labels(labels: Iterable[Any]) -> str:
    keys = sorted_labels(labels)
    shown = ", ".join(_fmt(v) for v in keys[:30])
    return "{" + shown + (", ..." if len(keys) > 30 else "") + "}"


def _fmt(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, str) else str(v)


class LabelMap:
    """Maps raw labels to {-1, +1}; ``resolve`` once with all labels seen, then ``apply``."""

    def __init__(self, positive_label: Any = None, negative_label: Any = None, *,
                 source: str = "stream"):
        self.positive = None if positive_label is None else label_key(positive_label)
        self.negative = None if negative_label is None else label_key(negative_label)
        self.source = source
        if self.negative is not None and self.positive is None:
            raise ValueError(f"{source}: negative_label={negative_label!r} needs a positive_label")
        if self.negative is not None and self.negative == self.positive:
            raise ValueError(f"{source}: positive_label and negative_label are both "
                             f"{positive_label!r}")

    def resolve(self, labels_seen: Iterable[Any]) -> Any:
        """Check the labels seen against the mapping; return the positive label."""
        seen = {label_key(v) for v in labels_seen}
        odd = [v for v in sorted_labels(seen) if isinstance(v, float) and not math.isfinite(v)]
        if odd:  # a label cannot be NaN or infinite, whatever the coding
            raise ValueError(f"{self.source}: label {_fmt(odd[0])} is not a finite number")
        if self.positive is None:
            for coding in KNOWN_CODINGS:  # a file of one class (only -1s, say) included
                if seen and seen <= set(coding):
                    self.positive = coding[1]
                    return self.positive
            fractional = [v for v in sorted_labels(seen)
                          if isinstance(v, float) and not v.is_integer()]
            hint = (f"label {_fmt(fractional[0])} is not a class code: for real-valued "
                    f"targets pass task=regression; for classes " if fractional else "")
            raise ValueError(
                f"{self.source}: labels seen {describe_labels(seen)} are not a known binary "
                f"coding ({{-1,+1}}, {{0,1}}, {{1,2}}, {{2,4}}); {hint}pass positive_label=<one "
                f"of them> (one-vs-rest), and negative_label for one-vs-one")
        single_class = (len(seen) == 1 and self.negative is None
                        and isinstance(self.positive, str) == isinstance(next(iter(seen)), str))
        for name, value in (("positive_label", self.positive), ("negative_label", self.negative)):
            if value is not None and value not in seen and not single_class:
                raise ValueError(f"{self.source}: {name}={_fmt(value)} is not among the labels "
                                 f"seen {describe_labels(seen)}")
        return self.positive

    def apply(self, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """(y in {-1,+1}, mask of rows kept or None when all are kept)."""
        if self.positive is None:
            raise RuntimeError("LabelMap.apply before resolve")
        keys = _keys(raw)
        pos = keys == self.positive
        y = np.where(pos, 1.0, -1.0)
        if self.negative is None:
            return y, None
        keep = pos | (keys == self.negative)
        return y[keep], keep


def _keys(raw: np.ndarray) -> np.ndarray:
    raw = np.asarray(raw)
    if raw.dtype.kind in "fiub":
        return raw.astype(np.float64)
    return np.array([label_key(v) for v in raw], dtype=object)


def one_label_per_row(y: Any, n_rows: int, offset: int) -> np.ndarray:
    """``y`` as a 1-D array of one label per row of a chunk of ``n_rows`` rows (a column
    vector is flattened), or an error naming the shapes."""
    y = np.asarray(y)
    if y.ndim != 1:
        y = y.reshape(-1) if y.size == n_rows else y
    if y.ndim != 1 or y.shape[0] != n_rows:
        raise ValueError(f"labels have shape {np.shape(y)} but the features have "
                         f"{n_rows} rows (rows {offset}..{offset + n_rows - 1})")
    return y


class RunLabels:
    """The labels given to :func:`olbench.run`, chunk by chunk: classification labels to
    {-1, +1} ({0, 1} and bool mapped, consistently across chunks; anything else refused),
    regression targets to finite float64.

    >>> RunLabels("classification")(np.array([0, 1, 1]), 3, 0).tolist()
    [-1.0, 1.0, 1.0]
    """

    def __init__(self, task: str):
        self.task = task
        self.scheme: str | None = None   # "pm1" or "01" once seen
        self.positive_seen = False       # a +1 (or 1, True) label in any chunk so far

    def __call__(self, y: Any, n_rows: int, offset: int) -> np.ndarray:
        if y is None and self.task == "oco":   # each row is a loss: nothing to label
            return np.zeros(n_rows)
        if self.task == "pca":                 # online PCA drops the labels of its rows
            return np.zeros(n_rows)
        y = one_label_per_row(y, n_rows, offset)
        if self.task == "oco":
            return oco_labels(y, offset)
        if self.task != "classification":
            if y.dtype == bool or not np.issubdtype(y.dtype, np.number):
                raise ValueError(f"regression targets must be real numbers, got dtype {y.dtype}")
            y = y.astype(float)
            check_finite_rows(~np.isfinite(y), offset, "target")
            return y
        if y.dtype == bool:
            self.positive_seen = self.positive_seen or bool(y.any())
            return np.where(y, 1.0, -1.0)
        if not np.issubdtype(y.dtype, np.number):
            raise ValueError(f"classification labels must be numbers in {{-1, +1}} (or {{0, 1}},"
                             f" bool), got dtype {y.dtype}")
        is_minus, is_zero = y == -1, y == 0
        if not (is_minus | is_zero | (y == 1)).all():  # O(n); np.unique only to report
            values = np.unique(y)
            bad = values[~np.isin(values, (-1, 0, 1))]
            raise ValueError(f"classification labels must be in {{-1, +1}} (or {{0, 1}}, bool); "
                             f"found labels not allowed: {_preview(bad)} (rows {offset}.."
                             f"{offset + n_rows - 1}); map them first, e.g. y = np.where(y == "
                             f"positive, 1, -1)")
        has_minus, has_zero = bool(is_minus.any()), bool(is_zero.any())
        if has_minus and has_zero:
            raise ValueError("labels mix -1 and 0: use {-1, +1} or {0, 1}, not both")
        scheme = "pm1" if has_minus else "01" if has_zero else self.scheme
        if self.scheme is not None and scheme is not None and scheme != self.scheme:
            raise ValueError(f"labels switch from {self._show(self.scheme)} to "
                             f"{self._show(scheme)} at rows {offset}..: use one label set")
        self.scheme = scheme or self.scheme
        self.positive_seen = self.positive_seen or bool((y == 1).any())
        if y.dtype == np.float64 and not has_zero:
            return y  # already {-1, +1} float64: no copy (the compiled rules never write to y)
        return np.where(y > 0, 1.0, -1.0)

    def one_class_note(self) -> str | None:
        """After the last chunk: a warning's text when every label was 0 -- one class of a
        {0, 1} coding, or the zeros an OCO stream gives (y unused), which a classification
        learner would read as labels without a word."""
        if self.task != "classification" or self.scheme != "01" or self.positive_seen:
            return None
        return ("every label is 0: read as the {0, 1} coding, every example is of the negative "
                "class; if the rows are losses (experts, online convex optimisation) and y is "
                "unused, use a learner of that task (olbench --list learner)")

    @staticmethod
    def _show(scheme: str) -> str:
        return "{-1, +1}" if scheme == "pm1" else "{0, 1}"


def oco_labels(y: np.ndarray, offset: int,
               who: str = "an online-convex-optimisation learner") -> np.ndarray:
    """The y of an online-convex-optimisation run: unused, so all 0 (what every OCO stream
    gives). Nonzero values mean the arrays are a classification or regression dataset (a
    row of features and its label), which an OCO learner would silently read as losses.

    >>> oco_labels(np.array([1.0, -1.0]), 0)
    Traceback (most recent call last):
    ...
    ValueError: an online-convex-optimisation learner takes each row of X as a loss (or a \
gradient, the experts' losses) and no labels, but y holds labels [-1.0, 1.0] (first at row 0): \
these arrays look like a classification or regression dataset; give y as zeros (or None) if X \
really holds losses, or use one of that task (olbench --list learner)
    """
    if y.dtype == bool or not np.issubdtype(y.dtype, np.number):
        raise ValueError(f"{who} takes no labels; y has dtype "
                         f"{y.dtype}: give y as zeros (or None)")
    nonzero = np.flatnonzero(y)
    if nonzero.size:
        raise ValueError(
            f"{who} takes each row of X as a loss (or a "
            f"gradient, the experts' losses) and no labels, but y holds labels "
            f"{_preview(np.unique(y[nonzero]).astype(float))} "
            f"(first at row {offset + int(nonzero[0])}): these arrays look like a classification "
            "or regression dataset; give y as zeros (or None) if X really holds losses, or use "
            "one of that task (olbench --list learner)")
    return y.astype(float)


def _preview(values: np.ndarray, k: int = 10) -> str:
    shown = ", ".join(repr(v.item()) for v in values[:k])
    return f"[{shown}{', ...' if values.size > k else ''}]"


def multiclass_classes(raw: Any, source: str = "labels") -> np.ndarray:
    """The classes of a multiclass task from the labels (or the class codes) given: their
    distinct values, ascending, as float64. Codes are finite whole numbers (LIBSVM's and
    LIBOL's 1..k, 0..9 for digits); at least two of them.

    >>> multiclass_classes([3, 1, 2, 3]).tolist()
    [1.0, 2.0, 3.0]
    >>> multiclass_classes(4).tolist()     # k: the classes 1..k
    [1.0, 2.0, 3.0, 4.0]
    """
    if isinstance(raw, (int, np.integer)) and not isinstance(raw, bool):
        if raw < 2:
            raise ValueError(f"{source}: a multiclass task needs k >= 2 classes, got k = {raw}")
        return np.arange(1.0, raw + 1.0)
    values = np.asarray(raw)
    if values.dtype == bool or not np.issubdtype(values.dtype, np.number) \
            or np.iscomplexobj(values):
        raise ValueError(f"{source}: multiclass labels must be whole numbers (class codes such "
                         f"as 1..k), got dtype {values.dtype}")
    values = np.unique(values.astype(np.float64).ravel())
    bad = values[~np.isfinite(values) | (values != np.round(values))]
    if bad.size:
        raise ValueError(f"{source}: multiclass labels must be whole numbers (class codes such "
                         f"as 1..k); found {_preview(bad)}; for real-valued targets use a "
                         f"regression learner")
    if values.size < 2:
        raise ValueError(f"{source}: a multiclass task needs k >= 2 classes, but the labels "
                         f"hold {values.size} ({_preview(values)}); give the classes "
                         f"(classes=k or a list of codes) when a stream shows fewer")
    return values


def file_classes(labels_seen: Iterable[Any], positive_label: Any, negative_label: Any,
                 source: str) -> np.ndarray:
    """The classes of a data file read as multiclass (``task=multiclass``): the codes it
    holds, which a binarisation asked for beside it would contradict."""
    if (positive_label, negative_label) != (None, None):
        raise ValueError(f"{source}: task=multiclass keeps the file's classes, but "
                         f"positive_label/negative_label binarise them: leave them null")
    return multiclass_classes(sorted(labels_seen), source=source)


def labels_dropped(positive_label: Any, negative_label: Any, source: str) -> None:
    """Refuse a binarisation beside ``task=pca``, which reads the data's labels and drops them
    (y = 0 every row): ``positive_label``/``negative_label`` would have nothing to act on."""
    if (positive_label, negative_label) != (None, None):
        raise ValueError(f"{source}: task=pca drops the labels (online PCA reads the rows "
                         f"alone), but positive_label={positive_label!r}/negative_label="
                         f"{negative_label!r} binarise them: leave them null")


class ClassLabels:
    """The labels of a multiclass run, chunk by chunk: each class code to its index 0..k-1 in
    ``classes`` (ascending codes), float64 as every label array. A code outside ``classes``
    is refused with its row.

    >>> ClassLabels(np.array([1.0, 2.0, 5.0]))(np.array([5, 1, 2]), 3, 0).tolist()
    [2.0, 0.0, 1.0]
    """

    def __init__(self, classes: np.ndarray, source: str = "labels"):
        self.classes = np.asarray(classes, dtype=np.float64)
        self.source = source

    def __call__(self, y: Any, n_rows: int, offset: int) -> np.ndarray:
        y = one_label_per_row(y, n_rows, offset)
        if y.dtype == bool or not np.issubdtype(y.dtype, np.number):
            raise ValueError(f"{self.source}: multiclass labels must be whole numbers (class "
                             f"codes), got dtype {y.dtype}")
        codes = y.astype(np.float64)
        index = np.searchsorted(self.classes, codes)
        inside = index < self.classes.size
        known = np.zeros(n_rows, dtype=bool)
        known[inside] = self.classes[index[inside]] == codes[inside]
        if not known.all():
            first = int(np.flatnonzero(~known)[0])
            raise ValueError(f"{self.source}: label {_fmt(float(codes[first]))} at row "
                             f"{offset + first} is not one of the {self.classes.size} classes "
                             f"{describe_labels(self.classes)}")
        return index.astype(np.float64)

    def one_class_note(self) -> None:
        """(A multiclass run's classes are declared: nothing to warn about.)"""
        return None
