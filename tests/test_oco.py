"""Online convex optimisation: exact projections (checked by their optimality conditions),
the closed-form comparators (checked against enumeration and a generic solver), and the
classic regret behaviours (FTL's linear regret on the alternating sequence)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.optimize

from olbench import make_learner, run
from olbench.comparators import make_comparator
from olbench.metrics import metrics_table
from olbench.rules.sets import project_numpy
from olbench.streams import make_stream


def _support(direction, domain, radius):
    """max_{u in K} <direction, u>: the linear maximum over K, in closed form per set."""
    if domain == "ball":
        return radius * np.linalg.norm(direction)
    if domain == "box":
        return radius * np.abs(direction).sum()
    if domain == "l1":
        return radius * np.abs(direction).max()
    return direction.max()                       # at a vertex of the simplex


@pytest.mark.parametrize("domain", ["ball", "simplex", "box", "l1"])
def test_projection_satisfies_the_optimality_condition(domain):
    """w = P_K(v) iff w in K and <v - w, u - w> <= 0 for every u in K, i.e. the linear
    maximum of v - w over K is attained at w (variational inequality; checked exactly)."""
    rng = np.random.default_rng(0)
    for d in range(1, 8):
        for _ in range(30):
            v = rng.normal(scale=rng.choice([0.1, 1.0, 5.0]), size=d)
            w = project_numpy(v, domain, 1.5)
            if domain == "ball":
                assert np.linalg.norm(w) <= 1.5 * (1 + 1e-12)
            elif domain == "box":
                assert np.abs(w).max() <= 1.5
            elif domain == "l1":
                assert np.abs(w).sum() <= 1.5 * (1 + 1e-12)
            else:
                assert w.min() >= 0 and abs(w.sum() - 1) < 1e-12
            assert _support(v - w, domain, 1.5) - (v - w) @ w <= 1e-12 * (1 + np.abs(v).sum())


def test_simplex_projection_of_points_already_inside_and_ties():
    inside = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(project_numpy(inside, "simplex"), inside, atol=1e-15)
    np.testing.assert_array_equal(project_numpy(np.zeros(4), "simplex"), np.full(4, 0.25))
    np.testing.assert_array_equal(project_numpy(np.array([5.0, 0.0]), "simplex"), [1.0, 0.0])


@pytest.mark.parametrize("domain", ["ball", "simplex", "box", "l1"])
def test_best_point_linear_is_the_linear_minimum(domain):
    """Linear losses: the prefix minimum equals <S, u> at the closed-form u, and no vertex
    (simplex, box) or random point of K does better."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    ks = np.array([1, 7, 40])
    fit = make_comparator("best_point", domain=domain, radius=2.0).fit(X, np.zeros(40),
                                                                       checkpoints=ks, cache=None)
    for T, best in zip(ks, fit.prefix_loss):
        S = X[:T].sum(0)
        if domain == "simplex":
            assert best == pytest.approx(min(S), abs=1e-12)
        elif domain in ("box", "l1"):         # a linear function is minimal at a vertex
            corners = ([np.array(c) for c in itertools.product([-2.0, 2.0], repeat=3)]
                       if domain == "box" else [s * 2.0 * e for e in np.eye(3) for s in (-1, 1)])
            assert best == pytest.approx(min(S @ c for c in corners), abs=1e-12)
        else:
            points = rng.normal(size=(2000, 3))
            points *= 2.0 / np.linalg.norm(points, axis=1)[:, None]
            assert best <= (points @ S).min() + 1e-12
            assert best == pytest.approx(-2.0 * np.linalg.norm(S), abs=1e-12)
    np.testing.assert_allclose(fit.losses, X @ fit.u, atol=1e-12)


@pytest.mark.parametrize("domain", ["ball", "simplex", "box", "l1"])
def test_best_point_quadratic_matches_a_generic_solver(domain):
    rng = np.random.default_rng(2)
    Z = rng.normal(scale=1.5, size=(30, 3))
    fit = make_comparator("best_point", loss="quadratic", domain=domain, radius=0.8).fit(
        Z, np.zeros(30), checkpoints=[30], cache=None)
    constraints = {"ball": [{"type": "ineq", "fun": lambda u: 0.64 - u @ u}],
                   "simplex": [{"type": "eq", "fun": lambda u: u.sum() - 1}],
                   "box": [], "l1": [{"type": "ineq", "fun": lambda u: 0.8 - np.abs(u).sum()}]
                   }[domain]
    bounds = {"ball": None, "simplex": [(0, None)] * 3, "box": [(-0.8, 0.8)] * 3,
              "l1": None}[domain]
    total = lambda u: 0.5 * ((u - Z) ** 2).sum()       # noqa: E731
    solved = scipy.optimize.minimize(total, np.full(3, 1 / 3), method="SLSQP",
                                     constraints=constraints, bounds=bounds,
                                     options={"ftol": 1e-14, "maxiter": 500})
    assert fit.prefix_loss[-1] == pytest.approx(total(fit.u), rel=1e-12)
    assert fit.prefix_loss[-1] <= solved.fun + 1e-9
    assert fit.prefix_loss[-1] == pytest.approx(solved.fun, rel=1e-7)


def _regret(learner, stream, ks):
    X, y = stream.materialize()
    trace = run(learner, X, y)
    spec = {"loss": getattr(learner, "loss", "linear"),
            "domain": getattr(learner, "domain", "simplex"),
            "radius": getattr(learner, "radius", 1.0)}
    comparator = make_comparator("best_point", **spec)
    fits = {comparator.name: comparator.fit(X, y, stream.meta, checkpoints=ks, cache=None)}
    return metrics_table(trace, learner=learner, meta=stream.meta, fits=fits, checkpoints=ks)


def test_ftl_suffers_linear_regret_on_the_alternating_sequence():
    """FTL loses 0 on round 1 and 1 on every later round (it always plays the wrong end);
    the best point of [-1, 1] loses -1/2 (S_T is +-1/2): regret(T) = T - 1/2 exactly."""
    ks = np.array([10, 100, 1000])
    table = _regret(make_learner("ftl", domain="box"), make_stream("alternating", n=1000), ks)
    np.testing.assert_allclose(table.groupby("t")["regret"].first().to_numpy(), ks - 0.5)
    ftrl = _regret(make_learner("ftrl", domain="box", schedule="sqrt"),
                   make_stream("alternating", n=1000), ks)
    final = ftrl.groupby("t").first()
    assert (final["bound_holds"] == True).all()       # noqa: E712
    assert final["regret"].iloc[-1] < 0.1 * 999.5     # sublinear: far below FTL's


def test_hedge_regret_against_the_best_expert_stays_below_sqrt_T_ln_N():
    stream = make_stream("experts", n=2000, N=20, mode="adversarial", seed=3)
    table = _regret(make_learner("hedge"), stream, np.array([50, 500, 2000]))
    assert table["bound_name"].eq("hedge_anytime").all() and table["bound_holds"].all()
    assert (table["regret"] <= np.sqrt(table["t"] / 2 * np.log(20)) * 2 + 1).all()


def test_oco_learners_refuse_classification_losses_and_vice_versa():
    X = np.eye(3)
    with pytest.raises(ValueError, match="use loss='suffered'"):
        run(make_learner("hedge"), X, np.zeros(3), loss="hinge")
    with pytest.raises(ValueError, match="is a loss of task oco but Perceptron"):
        run(make_learner("perceptron"), X, np.ones(3), loss="suffered")


def test_entropic_ftrl_needs_the_simplex():
    with pytest.raises(ValueError, match="domain='ball' with regularizer='entropic'"):
        run(make_learner("ftrl", regularizer="entropic"), np.eye(2), np.zeros(2))


def test_ons_projection_in_the_A_norm_meets_its_kkt_conditions():
    """argmin_{||w|| <= r} (w - y)' M (w - y): on the sphere, M (y - w) = lam w with lam >= 0
    (the only KKT point), and no random point of the ball is closer in the M norm."""
    from olbench.rules.ons import project_in_norm

    rng = np.random.default_rng(4)
    for d in (1, 2, 5):
        for _ in range(20):
            B = rng.normal(size=(d, d))
            M = B @ B.T + 0.1 * np.eye(d)
            y = rng.normal(scale=3.0, size=d)
            w = np.empty(d)
            project_in_norm(M, y, 1.0, w)
            if np.linalg.norm(y) <= 1.0:
                np.testing.assert_array_equal(w, y)
                continue
            assert np.linalg.norm(w) == pytest.approx(1.0, abs=1e-12)
            residual = M @ (y - w)
            lam = residual @ w
            assert lam >= 0
            np.testing.assert_allclose(residual, lam * w, atol=1e-9 * (1 + abs(lam)))
            points = rng.normal(size=(500, d))
            points /= np.maximum(1.0, np.linalg.norm(points, axis=1))[:, None]
            gaps = np.einsum("ij,jk,ik->i", points - y, M, points - y)
            assert (w - y) @ M @ (w - y) <= gaps.min() + 1e-9


def test_grid_blocks_expand_each_block_with_its_own_loss():
    """OCO and classification learners cannot share a stream: an experiment lists blocks,
    each a grid of its own (with the experiment's seeds), and a block may set its loss."""
    from olbench.harness.task_checks import validate
    from olbench.harness.tasks import GridError, expand

    grid = {"seeds": [0, 1], "blocks": [
        {"streams": ["alternating"], "learners": ["ftl", "ftrl"], "comparators": ["best_point"]},
        {"loss": "logistic", "streams": ["separable"], "learners": ["perceptron"]}]}
    tasks = expand(grid, seeds=[0, 1])
    assert len(tasks) == 2 * 2 + 2
    # the other block's runs measure their learners' own loss (OCO: the loss suffered)
    assert [t.loss for t in tasks].count("logistic") == 2 and [t.loss for t in tasks].count(
        "suffered") == 4
    validate(tasks)                                 # every stream-learner pair matches
    with pytest.raises(GridError, match="inside the blocks"):
        expand({**grid, "learners": ["pa"]}, seeds=[0])
    with pytest.raises(GridError, match="learner hedge does online convex optimisation .* "
                       "but stream separable is a classification stream"):
        validate(expand({"streams": ["separable"], "learners": ["hedge"]}, seeds=[0]))


def test_oco_learners_refuse_a_random_start():
    with pytest.raises(ValueError, match="init='randn' does not apply"):
        run(make_learner("hedge", init="randn"), np.eye(3), np.zeros(3))
