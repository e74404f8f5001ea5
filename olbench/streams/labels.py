"""Label conventions of data files, mapped once to {-1, +1} at the stream boundary.

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

from typing import Any, Iterable

import numpy as np

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


def describe_labels(labels: Iterable[Any]) -> str:
    keys = sorted({label_key(v) for v in labels}, key=lambda v: (isinstance(v, str), v))
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
        if self.positive is None:
            for coding in KNOWN_CODINGS:
                if seen and seen <= set(coding):
                    self.positive = coding[1]
                    return self.positive
            raise ValueError(
                f"{self.source}: labels seen {describe_labels(seen)} are not a known binary "
                f"coding ({{-1,+1}}, {{0,1}}, {{1,2}}, {{2,4}}); pass positive_label=<one of "
                f"them> (one-vs-rest), and negative_label for one-vs-one")
        for name, value in (("positive_label", self.positive), ("negative_label", self.negative)):
            if value is not None and value not in seen:
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
