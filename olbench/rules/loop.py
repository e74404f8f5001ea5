"""The compiled online protocol, generated once per learner rule.

:func:`make_rule` takes a learner's two rules,

* ``predict(params, idx, val, w, A, s) -> float``: the output p_t for row x_t (no label in
  sight: the signature makes peeking impossible);
* ``update(params, idx, val, y, margin, w, A, s) -> bool``: the update after y_t is revealed,
  returning True when the rule fired (an "update" in the LIBOL sense);

(a multiclass rule's, ``make_rule(..., multiclass=True)``: ``predict`` returns the class it
predicts, and ``update(params, idx, val, y, predicted, margin, w, A, s)`` gets that class
and the multiclass margin: :mod:`olbench.rules.multiclass`; ``one_vs_rest=True`` runs a
binary rule's pair once per class on the stacked state, :mod:`olbench.learners.one_vs_rest`)

and returns a :class:`Rule` whose loops run predict -> record -> reveal -> update over a
chunk of dense or CSR rows. The loops are the only code that orders those steps, and
``learn_one``/``predict_one`` call the same loops on a single row.

How this is built, and why: the loop bodies below are templates whose free names
``predict``/``update`` are bound per rule by giving the template's code object its own
globals. LLVM then inlines the rule into the loop (the rules are ``olbench._jit.inline``:
as fast as a loop written by hand for that rule), and, unlike a closure, the compiled loop
is cached on disk across processes. The loop's qualified name carries a hash of the rules'
source, so editing any rule invalidates the cached loops (numba alone would keep a stale
copy of an inlined callee).
"""

from __future__ import annotations

import hashlib
import math  # noqa: F401  (used by the templates)
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np  # noqa: F401  (used by the templates)

from olbench._jit import jit, jit_without_runtime
from olbench.rules.multiclass import (  # noqa: F401  (used by the templates)
    class_margin,
    ovr_record,
    score,
)

# The rules' sources and the compile options (olbench/_jit.py: a loop compiled under other
# options, e.g. without the SLP vectoriser, must not be loaded from the cache as current).
_SOURCE_HASH = hashlib.sha256(b"".join(
    p.read_bytes() for p in [*sorted(Path(__file__).parent.glob("*.py")),
                             Path(__file__).parent.parent / "_jit.py"]
)).hexdigest()[:12]


# ----------------------------------------------------------------------------- templates
# `predict` and `update` are not defined in this module: each generated loop gets them as
# globals (see _bind). Do not call the templates directly.
# The run loops return -1, or the first row whose output is NaN or infinite: it stops there,
# before that row's update. A non-finite feature always makes w.x non-finite, so this is how
# NaN/inf inputs are caught without a separate pass over the data (olbench.protocol).
def _run_dense(params, w, A, s, X, y, margins, updated):
    for t in range(X.shape[0]):
        x = X[t]
        margins[t] = predict(params, None, x, w, A, s)  # noqa: F821  (bound per rule)
        if not math.isfinite(margins[t]):
            return t
        updated[t] = update(params, None, x, y[t], margins[t], w, A, s)  # noqa: F821
    return -1


def _run_csr(params, w, A, s, indptr, indices, data, y, margins, updated):
    for t in range(y.shape[0]):
        start, stop = indptr[t], indptr[t + 1]
        idx, val = indices[start:stop], data[start:stop]
        margins[t] = predict(params, idx, val, w, A, s)  # noqa: F821
        if not math.isfinite(margins[t]):
            return t
        updated[t] = update(params, idx, val, y[t], margins[t], w, A, s)  # noqa: F821
    return -1


def _predict_dense(params, w, A, s, X, margins):
    for t in range(X.shape[0]):
        margins[t] = predict(params, None, X[t], w, A, s)  # noqa: F821


def _predict_csr(params, w, A, s, indptr, indices, data, margins):
    for t in range(margins.shape[0]):
        start, stop = indptr[t], indptr[t + 1]
        margins[t] = predict(params, indices[start:stop], data[start:stop], w, A, s)  # noqa: F821


# The multiclass loops (olbench.rules.multiclass): ``predict`` writes the k scores into the
# state's scratch and returns the class it predicts; the loop records that class and the
# multiclass margin against y_t (a class index, 0..k-1), then calls ``update`` with both.
def _run_multiclass_dense(params, w, A, s, X, y, margins, predicted, updated):
    for t in range(X.shape[0]):
        x = X[t]
        label = int(y[t])
        guess = predict(params, None, x, w, A, s)  # noqa: F821
        predicted[t] = guess
        margins[t] = class_margin(w, s, label)
        if not math.isfinite(margins[t]):
            return t
        updated[t] = update(params, None, x, label, guess, margins[t], w, A, s)  # noqa: F821
    return -1


def _run_multiclass_csr(params, w, A, s, indptr, indices, data, y, margins, predicted, updated):
    for t in range(y.shape[0]):
        start, stop = indptr[t], indptr[t + 1]
        idx, val = indices[start:stop], data[start:stop]
        label = int(y[t])
        guess = predict(params, idx, val, w, A, s)  # noqa: F821
        predicted[t] = guess
        margins[t] = class_margin(w, s, label)
        if not math.isfinite(margins[t]):
            return t
        updated[t] = update(params, idx, val, label, guess, margins[t], w, A, s)  # noqa: F821
    return -1


def _predict_multiclass_dense(params, w, A, s, X, out):
    k = w.shape[0]
    for t in range(X.shape[0]):
        predict(params, None, X[t], w, A, s)  # noqa: F821
        for r in range(k):
            out[t, r] = score(w, s, r)


def _predict_multiclass_csr(params, w, A, s, indptr, indices, data, out):
    k = w.shape[0]
    for t in range(out.shape[0]):
        start, stop = indptr[t], indptr[t + 1]
        predict(params, indices[start:stop], data[start:stop], w, A, s)  # noqa: F821
        for r in range(k):
            out[t, r] = score(w, s, r)


# The one-vs-rest loops: k binary rules of one kind, one per class, each on its own slice of
# the stacked state (w[j], A[j], s[j]); class j's learner sees the label +1 where y_t = j and
# -1 elsewhere. The scores are its margins; the multiclass record is as above.
def _run_ovr_dense(params, w, A, s, X, y, margins, predicted, updated):
    k = w.shape[0]
    scores = np.empty(k)
    for t in range(X.shape[0]):
        x = X[t]
        for j in range(k):
            scores[j] = predict(params, None, x, w[j], A[j], s[j])  # noqa: F821
        label = int(y[t])
        predicted[t], margins[t] = ovr_record(scores, label)
        if not math.isfinite(margins[t]):
            return t
        fired = False
        for j in range(k):
            sign = 1.0 if j == label else -1.0
            fired |= update(params, None, x, sign, scores[j], w[j], A[j], s[j])  # noqa: F821
        updated[t] = fired
    return -1


def _run_ovr_csr(params, w, A, s, indptr, indices, data, y, margins, predicted, updated):
    k = w.shape[0]
    scores = np.empty(k)
    for t in range(y.shape[0]):
        start, stop = indptr[t], indptr[t + 1]
        idx, val = indices[start:stop], data[start:stop]
        for j in range(k):
            scores[j] = predict(params, idx, val, w[j], A[j], s[j])  # noqa: F821
        label = int(y[t])
        predicted[t], margins[t] = ovr_record(scores, label)
        if not math.isfinite(margins[t]):
            return t
        fired = False
        for j in range(k):
            sign = 1.0 if j == label else -1.0
            fired |= update(params, idx, val, sign, scores[j], w[j], A[j], s[j])  # noqa: F821
        updated[t] = fired
    return -1


def _predict_ovr_dense(params, w, A, s, X, out):
    for t in range(X.shape[0]):
        for j in range(w.shape[0]):
            out[t, j] = predict(params, None, X[t], w[j], A[j], s[j])  # noqa: F821


def _predict_ovr_csr(params, w, A, s, indptr, indices, data, out):
    for t in range(out.shape[0]):
        start, stop = indptr[t], indptr[t + 1]
        for j in range(w.shape[0]):
            out[t, j] = predict(params, indices[start:stop], data[start:stop],  # noqa: F821
                                w[j], A[j], s[j])


def _bind(template: Callable, name: str, rules: dict[str, Any], allocates: bool):
    bound = types.FunctionType(template.__code__, {**globals(), **rules}, template.__name__)
    # numba names the on-disk cache after __qualname__: one per rule and per source of the rules.
    bound.__qualname__ = f"{name}.{_SOURCE_HASH}.{template.__name__}"
    bound.__module__ = __name__
    if allocates:
        return jit(bound)
    # Without numba's runtime (NRT) the loop keeps no reference counts: its arrays are the
    # caller's, alive for the whole call, and a rule that allocates nothing needs none. With
    # it, numba counts references to each row view and to the arrays an inlined rule
    # receives, with atomic operations it cannot always elide (LLVM merges the decrements of
    # a branchy rule before numba's pruning pass sees them): measured 18 -> 13 ns a round
    # for the Perceptron and 35 -> 14 for OGD at d = 20 (benchmarks/README).
    return jit_without_runtime(bound)


def _keeps_runtime(function: Callable) -> bool:
    """Whether a compiled rule function was built with numba's runtime (False for a plain
    Python function: without JIT there is none)."""
    options = getattr(function, "targetoptions", None)
    return options is not None and options.get("_nrt", True) is not False


@dataclass(frozen=True)
class Rule:
    """Compiled loops for one learner rule. All arrays are updated in place."""

    name: str
    predict: Callable
    update: Callable
    run_dense: Callable
    run_csr: Callable
    predict_dense: Callable
    predict_csr: Callable
    #: a multiclass rule's loops (:mod:`olbench.rules.multiclass`) also record the class
    #: predicted, and its predict loops write the k scores of each row
    multiclass: bool = False


def make_rule(name: str, predict: Callable, update: Callable, *,
                allocates: bool = False, multiclass: bool = False,
                one_vs_rest: bool = False) -> Rule:
    """Build the loops of a rule; ``name`` must be unique per (predict, update) pair.
    ``allocates=True`` for a rule that creates arrays (``np.empty`` ...) or sorts (numba's
    sort allocates its stack) while it runs: its loops keep numba's runtime, which the others
    do without (see _bind). Its allocating functions are ``@inline_allocating``
    (olbench._jit): a plain ``@inline`` function that allocates fails to compile (a
    TypingError at its first run), and an ``@inline_allocating`` rule without
    ``allocates=True`` is refused here; neither computes wrongly."""
    if not allocates:
        keeping = [f.__name__ for f in (predict, update) if _keeps_runtime(f)]
        if keeping:
            raise ValueError(f"make_rule({name!r}): {', '.join(keeping)} keeps numba's runtime "
                             "(@inline_allocating): give allocates=True")
    rules = {"predict": predict, "update": update}
    if one_vs_rest:    # a binary rule's predict and update, k of them a row (allocates)
        templates = (_run_ovr_dense, _run_ovr_csr, _predict_ovr_dense, _predict_ovr_csr)
    elif multiclass:
        templates = (_run_multiclass_dense, _run_multiclass_csr, _predict_multiclass_dense,
                     _predict_multiclass_csr)
    else:
        templates = (_run_dense, _run_csr, _predict_dense, _predict_csr)
    return Rule(name, predict, update,
                *(_bind(t, name, rules, allocates or one_vs_rest) for t in templates),
                multiclass=multiclass or one_vs_rest)
