"""The result of a comparator's fit (:meth:`~olbench.comparators.base.Comparator.fit`): the
fixed predictor ``u`` or the reason it was skipped, its margins and per-round losses, the
prefix minima of a prefix comparator, the cumulative values at the checkpoints of a fit made
chunk by chunk, the solver's certificate, and what regret subtracts (:meth:`ComparatorFit.
cum_loss_at`). The contract it is part of is in :mod:`olbench.comparators.base`.

Fits are pickled into the comparators' disk cache, whose entries name this class as
``olbench.comparators.base.ComparatorFit``: that module imports it, so they still load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from olbench.losses import get_loss, mistakes


@dataclass
class ComparatorFit:
    """The result of :meth:`Comparator.fit` (see the module docstring)."""

    comparator: str
    loss: str | None
    epsilon: float = 0.1
    u: np.ndarray | None = None
    margins: np.ndarray | None = None
    losses: np.ndarray | None = None
    checkpoints: np.ndarray | None = None
    prefix_loss: np.ndarray | None = None
    objective: float | None = None
    lower_bound: float | None = None
    skip_reason: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    #: the comparator's key and hyper-parameters (set by :meth:`Comparator.fit`)
    params: dict[str, Any] = field(default_factory=dict)
    #: a fit over a stream read chunk by chunk (:meth:`Comparator.fit_stream`) keeps no
    #: per-round margins or losses, only u's cumulative loss and its cumulative mistakes under
    #: each tie rule (by rule name) at ``checkpoints``
    checkpoint_loss: np.ndarray | None = None
    checkpoint_mistakes: dict[str, np.ndarray] | None = None
    #: a multiclass fit's class predicted on each round (an index; ``margins`` are then the
    #: multiclass margins of its W: olbench.losses)
    predicted: np.ndarray | None = None

    @property
    def ok(self) -> bool:
        return self.skip_reason is None

    @property
    def gap(self) -> float | None:
        """Certified sub-optimality of the objective (None when no certificate exists)."""
        if self.objective is None or self.lower_bound is None:
            return None
        return self.objective - self.lower_bound

    @property
    def streamed(self) -> bool:
        """Fitted chunk by chunk: cumulative values at the checkpoints, no per-round arrays."""
        return self.checkpoint_loss is not None

    @property
    def cum_loss(self) -> float:
        """Total loss of ``u`` over the whole stream (a streamed fit: at its last
        checkpoint, the final round of the runs it was fitted for)."""
        self._require()
        return float(self.checkpoint_loss[-1] if self.streamed else self.losses.sum())

    def loss_of(self, loss: str, y: np.ndarray, *, epsilon: float | None = None) -> np.ndarray:
        """Per-round loss of the fixed ``u`` under any loss, evaluated after the fact."""
        self._require()
        if self.margins is None:
            raise ValueError(f"{self.comparator} was fitted chunk by chunk over an out-of-core "
                             f"stream and kept no per-round margins: only its own loss "
                             f"({self.loss}) is known, at the checkpoints")
        return get_loss(loss, epsilon=self.epsilon if epsilon is None else epsilon)(self.margins, y)

    def mistakes_at(self, t, tie: str, y: np.ndarray | None = None) -> np.ndarray | None:
        """u's cumulative mistakes at rounds ``t`` under the tie rule ``tie`` (``y``: the
        labels, for a fit with per-round margins); None for a fit without a fixed u's
        margins (a prefix fit) or a streamed fit of a regression loss."""
        self._require()
        t = np.atleast_1d(np.asarray(t, dtype=np.int64))
        if self.streamed:
            if not self.checkpoint_mistakes:
                return None
            return self.checkpoint_mistakes[tie][self._checkpoint_index(t)]
        if self.prefix_loss is not None or self.margins is None or y is None:
            return None
        # (fits cached before ``predicted`` existed have no such attribute)
        return np.cumsum(mistakes(self.margins, y, tie, getattr(self, "predicted", None)))[t - 1]

    def cum_loss_at(self, t) -> np.ndarray:
        """Comparator's cumulative loss at rounds ``t`` (1-based ints): what regret subtracts.

        For a prefix comparator these are the prefix minima and ``t`` must be checkpoints of the
        fit; otherwise the running sums of the fixed ``u``'s losses.
        """
        self._require()
        t = np.atleast_1d(np.asarray(t, dtype=np.int64))
        if self.prefix_loss is not None:
            return self.prefix_loss[self._checkpoint_index(t)]
        if self.streamed:
            return self.checkpoint_loss[self._checkpoint_index(t)]
        return np.cumsum(self.losses)[t - 1]

    def _checkpoint_index(self, t: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(self.checkpoints, t)
        bad = (idx >= len(self.checkpoints)) | (self.checkpoints[np.minimum(
            idx, len(self.checkpoints) - 1)] != t)
        if bad.any():
            kind = "prefix" if self.prefix_loss is not None else "streamed"
            raise ValueError(f"{self.comparator}: rounds {t[bad].tolist()} are not checkpoints "
                             f"of this {kind} fit; refit with checkpoints including them")
        return idx

    def _require(self) -> None:
        if not self.ok:
            raise ValueError(f"{self.comparator} was skipped: {self.skip_reason}")
