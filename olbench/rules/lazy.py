"""What the lazily updated sparse learners share (truncated gradient, FOBOS, RDA, AdaGrad,
Pegasos: :mod:`olbench.rules`, "Lazy sparse updates").

A regularised step moves every coordinate on every round, which written naively costs O(d)
a round. These learners keep, per coordinate, what its value is a closed-form function of
(an anchor: its value when a row last moved it, with the running totals of the rounds then;
or a sum of gradients), and the running totals of all rounds in ``s``. ``w`` holds the
values as last read: the predict rule writes the current value of the row's coordinates into
``w`` before w.x (:func:`lazy_rules`), so a round costs O(non-zeros), and
:meth:`olbench.learners.families.LazyLearner._catch_up` writes them all at a checkpoint and
after a run. The
trajectory is a function of the anchors alone (an update reads ``w`` only where the same
round's predict has just written it): reading every value (at a checkpoint, after a run)
changes nothing that follows, so a run cut into chunks or single steps is bit-identical to
the whole run.
"""

import math
import types

from olbench._jit import inline, jit_without_runtime
from olbench.rules.ogd import loss_gradient
from olbench.rules.rows import dot, entry, n_entries


@inline
def next_round(params, y, margin, s):
    """Count the round (``s[0]`` = t, the rounds seen) and return dl/dp at p = margin for
    the loss ``params.loss`` (:func:`olbench.rules.ogd.loss_gradient`)."""
    s[0] += 1.0
    return loss_gradient(params.loss, y, margin)


@inline
def shrink(value, amount):
    """sgn(v) max(0, |v| - amount): the L1 proximal step (soft threshold) by ``amount``."""
    magnitude = abs(value) - amount
    if magnitude <= 0.0:
        return 0.0
    return math.copysign(magnitude, value)


# `current` is not defined in this module: lazy_predict_for binds it per rule (as
# olbench.rules.loop binds predict and update), which, unlike a closure, numba caches on disk
def _lazy_predict(params, idx, val, w, A, s):
    for k in range(n_entries(idx, val)):
        j, _ = entry(idx, val, k)
        w[j] = current(params, j, A, s)  # noqa: F821  (bound per rule)
    return dot(w, idx, val)


def _catch_up(params, w, A, s):
    for j in range(w.shape[0]):
        w[j] = current(params, j, A, s)  # noqa: F821


def lazy_rules(name: str, current):
    """The predict rule and the catch-up of a lazy learner whose coordinate j is
    ``current(params, j, A, s)`` now: ``predict`` writes the row's coordinates into ``w``,
    then returns w.x (the blocked sum of every linear learner); ``catch_up(params, w, A, s)``
    (compiled, called from Python) writes every coordinate."""
    from olbench.rules.loop import _SOURCE_HASH

    def bind(template, decorator):
        bound = types.FunctionType(template.__code__, {**globals(), "current": current},
                                   template.__name__)
        bound.__qualname__ = f"{name}.{_SOURCE_HASH}.{template.__name__}"
        bound.__module__ = __name__
        return decorator(bound)

    return bind(_lazy_predict, inline), bind(_catch_up, jit_without_runtime)
