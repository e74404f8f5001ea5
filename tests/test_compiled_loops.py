"""How the compiled loops are built (olbench/rules/loop.py, olbench/_jit.py): every rule and
helper is inlined into its loop by LLVM, and a rule that allocates is refused a loop without
numba's runtime. (That such loops keep no reference counts: tests/test_reductions.py.)"""

from __future__ import annotations

import re

import numba
import numpy as np
import pytest
import scipy.sparse as sp

import olbench
from olbench.rules import arow, ogd, ons, perceptron, rows
from olbench.rules.loop import make_rule

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="inspects compiled code")


def _calls_left(loop, signature) -> list[str]:
    """The olbench functions the loop still calls, in its optimised LLVM IR (compiled
    afresh: numba does not inspect code loaded from its cache)."""
    options = {k: v for k, v in loop.targetoptions.items() if k != "nopython"}
    fresh = numba.njit(**{**options, "cache": False})(loop.py_func)
    fresh.compile(signature)
    called = re.findall(r"call [^@\n]*@\"?(_ZN7olbench[\w.]*)", fresh.inspect_llvm(signature))
    # the loop itself is called by its Python wrapper, which is in the same module
    return [name for name in called if "5rules4loop" not in name]


@pytest.mark.parametrize("key, params, rule", [
    ("perceptron", {}, perceptron.RULE),
    ("ogd", {"loss": "hinge"}, ogd.RULES["hinge"]),
    ("arow", {}, arow.CLASSIFICATION[False]),
], ids=["perceptron", "ogd", "arow-full"])
def test_every_rule_and_helper_is_inlined_into_its_loops(key, params, rule):
    """A call left in a loop costs 10-20 ns a round at d = 20. olbench._jit.inline marks
    rules and helpers for LLVM to inline; without that mark, LLVM's own heuristics leave the
    blocked sums and axpy as calls in these three loops (seen here: the test fails)."""
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((40, 5)), np.where(rng.random(40) < 0.5, -1.0, 1.0)
    for rows_ in (X, sp.csr_matrix(X)):
        olbench.run(olbench.make_learner(key, **params), rows_, y)
    for loop in (rule.run_dense, rule.run_csr):
        assert len(loop.signatures) >= 1
        for signature in loop.signatures:
            assert _calls_left(loop, signature) == [], (rule.name, loop.py_func.__name__)


def test_a_rule_that_allocates_is_refused_a_loop_without_the_runtime():
    with pytest.raises(ValueError, match=r"make_rule\('ons_without_runtime'\): update keeps "
                                         r"numba's runtime .*give allocates=True"):
        make_rule("ons_without_runtime", rows.linear_predict, ons.update)
    assert make_rule("ons_with_runtime", rows.linear_predict, ons.update, allocates=True)
