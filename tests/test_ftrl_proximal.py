"""FTRL-Proximal (olbench/learners/ftrl_proximal.py) beyond what every learner is held to
(its naive twin, the registry-wide contract): the L1 band's exact zeros, a given w0 encoded in
z, per-coordinate work only where the row has entries, and its parameters refused when bad."""

from __future__ import annotations

import naive
import numpy as np
import pytest
import scipy.sparse as sp
from conftest import make_data

from olbench import make_learner, run


def test_l1_sets_weights_to_exactly_zero_and_more_of_them_as_it_grows():
    X, y = make_data("classification", 40, n=400)
    zeros = []
    for l1 in (0.0, 0.5, 2.0, 1e9):
        trace = run(make_learner("ftrl_proximal", loss="hinge", eta=0.5, l1=l1), X, y)
        _, _, twin = naive.TWINS["ftrl_proximal"](X, y, loss="hinge", eta=0.5, l1=l1)
        assert np.array_equal(trace.state["w"] == 0.0, twin["w"] == 0.0)   # the same zeros
        zeros.append(int(np.sum(trace.state["w"] == 0.0)))
    assert zeros == sorted(zeros) and zeros[0] < zeros[-1] == X.shape[1]


def test_a_given_w0_holds_until_a_coordinate_is_first_updated():
    w0 = [0.4, -1.5, 0.0, 2.0]
    X = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]])
    y = np.array([-1.0, 1.0])
    for l1 in (0.0, 0.7):
        learner = make_learner("ftrl_proximal", loss="hinge", eta=0.3, l1=l1, l2=0.5, init=w0)
        trace = run(learner, X, y)
        assert trace.margins[0] == pytest.approx(0.4, abs=1e-15)
        w = trace.state["w"]
        np.testing.assert_allclose(w[[1, 3]], [-1.5, 2.0], rtol=0, atol=0)   # never touched
        z, n = trace.state["A"]
        untouched = [1, 3]
        closed = -(z[untouched] - np.sign(z[untouched]) * l1) / (1.0 / 0.3 + 0.5)
        np.testing.assert_allclose(closed, [-1.5, 2.0], rtol=1e-15)    # z encodes w0
        assert n[untouched].tolist() == [0.0, 0.0] and w[0] != 0.4     # row 1 moved w_0


def test_a_w0_that_no_z_can_hold_is_refused():
    learner = make_learner("ftrl_proximal", delta=0.0, l2=0.0, init=[1.0, 0.0])
    with pytest.raises(ValueError, match="a given w0 needs delta > 0 or l2 > 0"):
        run(learner, np.eye(2), np.array([1.0, -1.0]))
    zeros = run(make_learner("ftrl_proximal", delta=0.0, l2=0.0), np.eye(2), np.array([1.0, -1.0]))
    assert np.isfinite(zeros.state["w"]).all()      # from w0 = 0 the first step is finite


def test_a_sparse_row_touches_only_its_columns():
    """The CSR loop visits the stored entries only: the accumulators of columns no row
    has stay exactly 0, and dense and CSR runs agree bit for bit."""
    X, y = make_data("classification", 41, n=300)
    X[:, 3] = 0.0
    dense = run(make_learner("ftrl_proximal", l1=0.1), X, y)
    csr = run(make_learner("ftrl_proximal", l1=0.1), sp.csr_matrix(X), y)
    assert np.array_equal(dense.state["A"], csr.state["A"])
    assert np.array_equal(dense.margins, csr.margins)
    assert csr.state["A"][:, 3].tolist() == [0.0, 0.0] and csr.state["w"][3] == 0.0


@pytest.mark.parametrize("bad", [{"l1": -0.1}, {"l2": float("nan")}, {"eta": 0.0},
                                 {"delta": -1.0}, {"loss": "squared_hinge"}])
def test_bad_parameters_are_refused_by_name(bad):
    (name, value), = bad.items()
    with pytest.raises(ValueError, match=rf"invalid {name}="):
        make_learner("ftrl_proximal", **bad).validate()
