"""One-vs-rest: any binary learner run once per class on a multiclass stream."""

from __future__ import annotations

import numpy as np

from olbench.component import Component, InvalidParameterError, IsInstance, _fmt, parse_name
from olbench.learners.base import Learner
from olbench.learners.multiclass import MulticlassLearner
from olbench.learners.state import State
from olbench.resources import Footprint
from olbench.rules.loop import Rule, make_rule

#: the one-vs-rest loops of each binary rule, compiled once per process
_RULES: dict[str, Rule] = {}


def one_vs_rest_rule(binary: Rule) -> Rule:
    """The one-vs-rest loops of a binary rule (:mod:`olbench.rules.loop`)."""
    if binary.name not in _RULES:
        _RULES[binary.name] = make_rule(f"one_vs_rest.{binary.name}", binary.predict,
                                        binary.update, one_vs_rest=True)
    return _RULES[binary.name]


def wrappable(key: str) -> str | None:
    """Why the binary learner ``key`` cannot be run one-vs-rest (None: it can): it must do
    binary classification with a state of fixed shape (no growing support set, no lazy
    weights caught up between rounds), which k copies of stack into one."""
    cls = Learner.registry.get(key)
    if cls.task_for(cls.param_defaults()) != "classification":
        return f"{key} does not do binary classification"
    for hook in ("_reserve", "_catch_up", "_finalize"):
        if getattr(cls, hook) is not getattr(Learner, hook):
            return (f"{key} keeps a state that is not of fixed shape or is caught up between "
                    f"rounds ({hook})")
    return None


class OneVsRest(MulticlassLearner, key="one_vs_rest"):
    """One-vs-rest: k copies of a binary learner (``binary``, with ``binary_params``), the
    copy of class r learning from the label +1 where y_t = r and -1 elsewhere, all on every
    round; the class predicted is the lowest index among the top margins, and the multiclass
    margin s_y - max_{r != y} s_r is taken on the copies' margins. The k copies run inside
    one compiled loop on a stacked state (k rows of w, of A, of s: copy r equals the binary
    learner run alone on its +-1 labels, tests/test_one_vs_rest.py).

    >>> import numpy as np
    >>> from olbench import run
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.1]]); y = np.array([1, 2, 1])
    >>> run(OneVsRest(binary="perceptron"), X, y).predictions.tolist()
    [1.0, 1.0, 1.0]
    """

    summary = "one-vs-rest: k copies of any binary learner, one per class, argmax of their margins"
    source = "Rifkin & Klautau, JMLR 2004"
    constraints = {"binary": IsInstance(str), "binary_params": IsInstance(dict, none_ok=True)}
    display_params = ("binary",)

    def __init__(self, *, binary: str = "perceptron", binary_params: dict | None = None):
        self.binary = binary
        # (none and {} are one setting: the binary learner's defaults, named None)
        self.binary_params = dict(binary_params) if isinstance(binary_params, dict) \
            and binary_params else binary_params or None

    @property
    def inner(self) -> Learner:
        """The binary learner each class runs a copy of (its parameters checked first)."""
        Component.validate(self)
        return Learner.registry.make(self.binary, **(self.binary_params or {}))

    @classmethod
    def display_title(cls, params):
        binary, given = params.get("binary", "perceptron"), params.get("binary_params")
        if isinstance(given, str):     # read back from a name: "(C=0.5,variant=pa2)"
            given = parse_name(f"binary[{given.strip('()')}]")[1]
        try:
            shown = Learner.registry.make(binary, **(given or {}))
            return f"one-vs-rest {shown.display_name}"
        except (KeyError, ValueError, TypeError):
            return f"one-vs-rest {binary}"

    @classmethod
    def display_shown(cls, params):
        return []

    @classmethod
    def param_label(cls, name, value):
        # the binary learner's parameters as one value of the name, sorted:
        # OneVsRest[binary=pa,binary_params=(C=0.5,variant=pa2)]
        if name == "binary_params" and isinstance(value, dict):
            return "(" + ",".join(f"{k}={_fmt(v)}" for k, v in sorted(value.items())) + ")"
        return super().param_label(name, value)

    def validate(self):
        super().validate()
        inner = self.inner                  # an unknown key or parameter is named here
        inner.validate()
        why = wrappable(self.binary)
        if why:
            keys = [k for k in Learner.registry.keys() if wrappable(k) is None]
            raise InvalidParameterError(f"OneVsRest: binary={self.binary!r}: {why}; binary "
                                        f"learners it runs: {', '.join(keys)}")

    @property
    def tie(self) -> str:
        return "novikoff"

    def rule(self):
        return one_vs_rest_rule(self.inner.rule())

    def rule_params(self):
        return self.inner.rule_params()

    def init_state(self, d):
        one = self.inner.init_state(d)
        k = self.n_classes_
        return State(*(np.ascontiguousarray(np.broadcast_to(a, (k, *a.shape)))
                       for a in one))

    def export_state(self):
        state = self.state_
        return {"w": state.w.copy(), "A": state.A.copy(), "s": state.s.copy()}

    def footprint(self, n, d, nnz=None):
        one, k = self.inner.footprint(n, d, nnz), self._known_k()
        return Footprint(k * one.nbytes + 8.0 * (n + k), f"{k} copies of {self.binary}'s "
                         f"state ({one.keeps})", f"{k} classes and {one.driver}", one.advice)

