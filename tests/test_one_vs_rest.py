"""One-vs-rest (olbench.learners.one_vs_rest): each class's copy is the binary learner run
alone on that class's +-1 labels, exactly; the multiclass record is taken on their margins."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olbench import make_learner, run
from olbench.learners import Learner
from olbench.learners.one_vs_rest import wrappable

WRAPPABLE = [key for key in Learner.registry.keys() if wrappable(key) is None]
#: every binary rule through the one-vs-rest loops would compile a loop per rule for one
#: template: first-order rules, second-order full and diagonal ones, and scratch kept in the
#: state between predict and update (SOP, NAROW) take it, dense and sparse
CHECKED = ["perceptron", "pa", "alma", "sop", "narow", "arow", "scw"]
CASES = [(key, "dense") for key in CHECKED] + [(key, "csr") for key in CHECKED[:4]]


def _stream(seed=0, n=250, d=6, k=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X[rng.random((n, d)) < 0.3] = 0.0
    y = 1.0 + np.argmax(X @ rng.standard_normal((k, d)).T + 0.5 * rng.standard_normal((n, k)),
                        axis=1)
    return X, y


@pytest.mark.parametrize("key,fmt", CASES)
def test_each_copy_is_the_binary_learner_run_alone(key, fmt):
    X, y = _stream(sum(map(ord, key)) % 97)      # (a seed per learner, the same every run)
    rows = sp.csr_matrix(X) if fmt == "csr" else X
    params = {"diagonal": True} if key == "arow" and fmt == "csr" else {}
    trace = run(make_learner("one_vs_rest", binary=key, binary_params=params), rows, y)
    classes = np.unique(y)
    alone = [run(make_learner(key, **params), rows, np.where(y == c, 1.0, -1.0))
             for c in classes]
    scores = np.column_stack([a.margins for a in alone])
    np.testing.assert_array_equal(trace.state["w"], np.array([a.state["w"] for a in alone]))
    np.testing.assert_array_equal(trace.predicted, np.argmax(scores, axis=1))
    index = np.searchsorted(classes, y)
    rival = np.where(np.arange(len(classes)) == index[:, None], -np.inf, scores).max(1)
    np.testing.assert_array_equal(trace.margins, scores[np.arange(len(y)), index] - rival)
    np.testing.assert_array_equal(trace.updated, np.any([a.updated for a in alone], axis=0))


def test_most_binary_learners_can_be_wrapped_and_the_others_are_refused_by_name():
    assert set(CHECKED) | {"ogd", "cw", "romma"} <= set(WRAPPABLE)
    for key, why in [("kernel_perceptron", "not of fixed shape"), ("rda", "caught up"),
                     ("hedge", "does not do binary classification"),
                     ("rls", "does not do binary classification")]:
        with pytest.raises(ValueError, match=rf"binary='{key}': {key} .*{why}.*; binary "
                                             r"learners it runs: .*perceptron"):
            run(make_learner("one_vs_rest", binary=key), *_stream())
    with pytest.raises(KeyError, match=r"unknown learner 'nope'"):
        run(make_learner("one_vs_rest", binary="nope"), *_stream())
    with pytest.raises(ValueError, match=r"PA: invalid C=-1.0"):
        run(make_learner("one_vs_rest", binary="pa", binary_params={"C": -1.0}), *_stream())


def test_names_say_which_binary_learner():
    learner = make_learner("one_vs_rest", binary="pa", binary_params={"C": 0.5,
                                                                      "variant": "pa2"})
    assert learner.display_name == "one-vs-rest PA-II (C=0.5)"
    assert learner.name == "OneVsRest[binary=pa,binary_params=(C=0.5,variant=pa2)]"
    assert Learner.registry.get("one_vs_rest").display(
        {"binary": "pa", "binary_params": "(C=0.5,variant=pa2)"}) == learner.display_name
    assert make_learner("one_vs_rest", binary_params={}).name == \
        make_learner("one_vs_rest").name == "OneVsRest[binary=perceptron,binary_params=None]"
