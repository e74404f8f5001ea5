"""A learner's arithmetic that left float64 on finite data: an error naming the parameter.

The compiled loops stop at the first output that is NaN or infinite (:mod:`olbench.rules.loop`),
and :func:`olbench.run` checks the features of that chunk first: a NaN or infinite feature is
named with its row. When the features are finite, what overflowed (or underflowed to 0, or
divided by 0) is the rule's own arithmetic on them: a hyper-parameter too extreme for float64
at the data's scale (a polynomial kernel of degree 1000 on rows of norm 2; AROW's prior
``a=1.7e308``), or data too large for the rule at sane parameters. The loop cannot tell
which, so the message names the parameters furthest from their defaults -- the extreme value
a user typed is almost always the cause -- with the data's scale and the learner's own
``numeric_hint`` (what must stay finite), instead of a bare "overflow".

Ranges that fail whatever the data (a Gaussian width h whose 2 h^2 is 0 or inf) are refused
before the run by the parameter's declared constraint; this module covers what only the
data decide.

>>> from olbench import make_learner
>>> from olbench.learners.base import Learner
>>> print(breakdown_error(make_learner("perceptron", eta=1e300), "the output is infinite at row 3"))
... # doctest: +NORMALIZE_WHITESPACE
Perceptron[eta=1e+300,libol=False]: the output is infinite at row 3, although the data are
finite: the rule's arithmetic left float64 (an overflow, an underflow to 0, or a division by
0). Likely cause: eta=1e+300 (default 1.0); bring it nearer its default, or rescale the data.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.component import Interval
from olbench.rules.checks import all_finite

#: parameters that pick a replicate, not a scale: never the cause of an overflow
_REPLICATES = frozenset({"seed", "init_seed"})
#: a parameter is named as a likely cause when it is at least this many decades from its
#: default (a factor 10): nearer, it is a setting the rule was written for
_FAR = 1.0


class NumericBreakdownError(ValueError):
    """A rule's arithmetic left float64 on finite data; the message names the likely cause."""


def _decades(value: float, default: float) -> float:
    """How many powers of 10 separate |value| from |default| (0 and a number: the number's)."""
    a, b = abs(float(value)), abs(float(default))
    if a == b:
        return 0.0
    if a == 0.0 or b == 0.0:
        return math.log10(1.0 + max(a, b))
    return abs(math.log10(a) - math.log10(b))


def extreme_params(learner) -> list[tuple[str, Any, Any]]:
    """(name, value, default) of the learner's numeric hyper-parameters at least a factor 10
    from their defaults, furthest first.

    >>> from olbench import make_learner
    >>> extreme_params(make_learner("kernel_pa", kernel_type="polynomial", degree=1000,
    ...                             offset=20.0))
    [('degree', 1000, 2), ('offset', 20.0, 1.0)]
    """
    defaults = learner.param_defaults()
    found = []
    for name, constraint in learner.constraints.items():
        value = getattr(learner, name, None)
        if name in _REPLICATES or not isinstance(constraint, Interval) \
                or isinstance(value, bool) or not isinstance(value, numbers.Real):
            continue
        default = defaults.get(name)
        if isinstance(default, bool) or not isinstance(default, numbers.Real):
            default = 1.0      # e.g. ALMA's B=None, which means a number near 1
        distance = _decades(value, default)
        if distance >= _FAR:
            found.append((distance, name, value, defaults.get(name)))
    return [(name, value, default) for _, name, value, default in sorted(found, reverse=True)]


def _largest_feature(X: Any) -> float | None:
    values = X.data if sp.issparse(X) else np.asarray(X)
    return float(np.max(np.abs(values))) if values.size else None


def breakdown_error(learner, what: str, X: Any = None) -> NumericBreakdownError:
    """The error for a run of ``learner`` whose arithmetic failed (``what`` happened), the
    rows of ``X`` (if given) being finite."""
    text = (f"{learner.name}: {what}, although the data are finite: the rule's arithmetic left "
            f"float64 (an overflow, an underflow to 0, or a division by 0).")
    hint = getattr(learner, "numeric_hint", "")
    if hint:
        text += f" {hint[0].upper()}{hint[1:]}."
    largest = None if X is None else _largest_feature(X)
    scale = "" if largest is None else f" (the largest |x| of these rows is {largest:.3g})"
    causes = extreme_params(learner)
    if causes:
        named = ", then ".join(f"{name}={value!r} (default {default!r})"
                               for name, value, default in causes[:3])
        text += (f" Likely cause: {named}; bring it nearer its default, or rescale the "
                 f"data{scale}.")
    else:
        text += (f" Every parameter is within a factor 10 of its default, so the data took "
                 f"it there: their scale{scale}, or the stream's length; rescale the data, or "
                 f"see the learner's parameters for a safer setting.")
    return NumericBreakdownError(text)


def check_final_state(learner) -> None:
    """Refuse the state a run leaves if it holds NaN or inf: a rule that broke down on the last
    rounds leaves no later output for the loop to stop at (and a sparse row shows a NaN weight
    only when it touches that coordinate)."""
    if not all(all_finite(np.asarray(slot)) for slot in learner.state_):
        raise breakdown_error(learner, "the state after the last row holds NaN or infinite "
                                       "values")
