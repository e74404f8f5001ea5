"""The general options Sugiyama's ch. 31 listings need: the empirical kernel map at chosen
centres, several passes over a stream, and a seeded random initial state; and the listings
of Fig. 31.5 and 31.9 reproduced end to end through them (against tests/naive/textbook.py)."""

from __future__ import annotations

import naive
import numpy as np
import pytest

from olbench import make_learner, run
from olbench.harness.tasks import expand
from olbench.learners.base import initial_weights
from olbench.streams import KernelMap, Noisy, Passes, Separable, Sinc

TOL = dict(rtol=1e-10, atol=1e-12)


def _sinc(**kw):
    return Sinc(**{"n": 50, "design": "grid", "features": "raw", "bias": False, **kw})


# ------------------------------------------------------------------ kernel map
def test_kernel_map_with_hh_2h2_is_the_gaussian_kernel_of_width_h():
    """hh = 2 h^2: the listings' exp(-(x - c)^2 / hh) is Sinc's rbf exp(-(x - c)^2 / (2 h^2))."""
    h = 0.3
    rbf, _ = Sinc(n=40, features="rbf", n_centers=7, h=h, bias=False, seed=4).materialize()
    centers = np.linspace(-3.0, 3.0, 7)[:, None].tolist()
    mapped = KernelMap(stream=Sinc(n=40, features="raw", bias=False, seed=4),
                       hh=2 * h ** 2, centers=centers)
    np.testing.assert_allclose(mapped.materialize()[0], rbf, rtol=1e-13)


def test_kernel_map_at_the_inputs_meta_and_sampled_centres():
    s = KernelMap(stream=_sinc(), hh=0.18, bias=True)
    X, y = s.materialize()
    x = s.meta.extra["x"]
    assert X.shape == (50, 51) and np.all(X[:, -1] == 1.0)
    np.testing.assert_array_equal(np.diag(X[:, :50]), np.ones(50))       # own centre: k = 1
    np.testing.assert_allclose(X[3, 10], np.exp(-(x[3] - x[10]) ** 2 / 0.18), rtol=1e-14)
    assert s.meta.radius == pytest.approx(np.linalg.norm(X, axis=1).max(), rel=1e-14)
    assert 1.0 < s.meta.radius <= np.sqrt(51)
    np.testing.assert_array_equal(s.meta.extra["centers"][:, 0], x)
    np.testing.assert_array_equal(s.meta.clean_y, _sinc().meta.clean_y)
    a = KernelMap(stream=_sinc(), centers="sample", n_centers=5, centers_seed=1)
    b = KernelMap(stream=_sinc(), centers="sample", n_centers=5, centers_seed=2)
    ca = a.meta.extra["centers"][:, 0]
    assert len(set(ca)) == 5 and set(ca) <= set(x) and a.meta.d == 5
    np.testing.assert_array_equal(
        ca, KernelMap(stream=_sinc(), centers="sample", n_centers=5, centers_seed=1)
        .meta.extra["centers"][:, 0])
    assert not np.array_equal(ca, b.meta.extra["centers"][:, 0])


@pytest.mark.parametrize("params,message", [
    ({"centers": "grid"}, "centers='grid'; use 'inputs', 'sample'"),
    ({"centers": "sample"}, "n_centers=None is for centers='sample'"),
    ({"n_centers": 3}, "n_centers=3 is for centers='sample'"),
    ({"hh": 0.0}, r"invalid hh=0.0; hh must be a number in \(0, inf\)"),
])
def test_kernel_map_refuses_bad_centres(params, message):
    with pytest.raises(ValueError, match=message):
        KernelMap(stream=_sinc(), **params)


def test_kernel_map_refuses_centres_of_another_dimension_or_too_many():
    with pytest.raises(ValueError, match=r"dimension 1 \(the stream's\), got shape \(1, 2\)"):
        KernelMap(stream=_sinc(), centers=[[0.0, 1.0]]).meta
    with pytest.raises(ValueError, match="n_centers=60 but the stream has only 50 rows"):
        KernelMap(stream=_sinc(), centers="sample", n_centers=60).meta


# ------------------------------------------------------------------ passes
def test_passes_in_file_order_repeat_the_stream():
    inner = Separable(n=30, d=3, seed=2)
    X, y = inner.materialize()
    s = Passes(stream=inner, passes=3)
    Xp, yp = s.materialize()
    np.testing.assert_array_equal(Xp, np.vstack([X] * 3))
    np.testing.assert_array_equal(yp, np.tile(y, 3))
    assert (s.meta.n, s.meta.d, s.meta.radius, s.meta.margin) == \
        (90, 3, inner.meta.radius, inner.meta.margin)
    assert s.meta.extra["pass_length"] == 30 and s.meta.extra["passes"] == 3


def test_permuted_passes_are_reproducible_permutations_and_differ():
    inner = Noisy(n=40, d=3, flip_rate=0.2, seed=1)
    X, y = inner.materialize()
    s = Passes(stream=inner, passes=4, order="permuted", seed=7)
    rows = s.meta.extra["rows"].reshape(4, 40)
    for p in range(4):
        assert sorted(rows[p]) == list(range(40))
    assert len({tuple(r) for r in rows}) == 4
    Xp, yp = s.materialize()
    np.testing.assert_array_equal(Xp, X[rows.ravel()])
    np.testing.assert_array_equal(s.meta.flipped, inner.meta.flipped[rows.ravel()])
    np.testing.assert_array_equal(s.meta.clean_y, inner.meta.clean_y[rows.ravel()])
    again = Passes(stream=inner, passes=4, order="permuted", seed=7)
    assert again.meta.fingerprint == s.meta.fingerprint
    other = Passes(stream=inner, passes=4, order="permuted", seed=8)
    assert other.meta.fingerprint != s.meta.fingerprint
    # the first pass of a 1-pass and of a 4-pass stream are the same (per-pass children)
    np.testing.assert_array_equal(
        Passes(stream=inner, passes=1, order="permuted", seed=7).meta.extra["rows"], rows[0])


def test_a_run_over_passes_counts_every_round():
    inner = Separable(n=25, d=2, seed=3)
    trace = run(make_learner("perceptron"), Passes(stream=inner, passes=4))
    assert trace.n == 100
    X, y = inner.materialize()
    again = run(make_learner("perceptron"), np.vstack([X] * 4), np.tile(y, 4))
    np.testing.assert_array_equal(trace.margins, again.margins)


def test_grid_seeds_reach_a_wrapped_stream():
    grid = {"streams": [{"key": "passes", "params": {"order": "permuted"}}],
            "learners": ["perceptron"]}
    a, b = expand(grid, seeds=[0, 1])
    assert a.stream["seed"] != b.stream["seed"]
    assert a.stream["stream"]["seed"] != b.stream["stream"]["seed"]
    assert a.stream["stream"]["seed"] != a.stream["seed"]


# ------------------------------------------------------------------ initial state
def test_init_default_changes_no_name_and_randn_is_seeded():
    assert make_learner("pa").name == "PA[C=1.0,variant=pa1]"
    assert make_learner("pa", init="zeros", init_seed=0).name == "PA[C=1.0,variant=pa1]"
    learner = make_learner("arow", init="randn", init_seed=5)
    assert learner.name == "AROW[r=1.0,a=1.0,diagonal=False,init=randn,init_seed=5]"
    learner.reset(4)
    np.testing.assert_array_equal(learner.state_.w,
                                  np.random.default_rng(5).standard_normal(4))
    np.testing.assert_array_equal(learner.covariance_, np.eye(4))     # Sigma_0 untouched
    assert learner.clone().name == learner.name
    assert not np.array_equal(initial_weights("randn", 5, 4), initial_weights("randn", 6, 4))
    with pytest.raises(FileNotFoundError, match="init file 'normal' not found .*; init is "
                                                "'zeros', 'randn', a list of d numbers"):
        make_learner("perceptron", init="normal").reset(2)


def test_init_randn_starts_the_run_there():
    X = np.array([[1.0, 0.0]])
    trace = run(make_learner("perceptron", init="randn", init_seed=3), X, np.array([1.0]))
    assert trace.margins[0] == initial_weights("randn", 3, 2)[0]


# ------------------------------------------------------------------ the listings
def _kernel_matrix(x, hh=0.18):
    return np.exp(-(x[:, None] - x[None, :]) ** 2 / hh)


def test_listing_31_9_arow_regression_100_passes():
    """Fig. 31.9: m = randn(n,1), S = I, lambda = 1, 100 passes in order over the kernel
    features at the 50 grid inputs; olbench: rls(r=1, a=1, init=randn) on
    passes(kernel_map(sinc))."""
    inner = _sinc(seed=2)
    stream = Passes(stream=KernelMap(stream=inner, hh=2 * 0.3 ** 2), passes=100)
    learner = make_learner("rls", r=1.0, a=1.0, init="randn", init_seed=4)
    w = run(learner, stream).state["w"]
    x, y = inner.meta.extra["x"], inner.materialize()[1]
    expected = naive.textbook.sugiyama_arow_regression(_kernel_matrix(x), y, lam=1.0, passes=100,
                                              mu0=initial_weights("randn", 4, 50))
    np.testing.assert_allclose(w, expected, **TOL)


def test_listing_31_5_pa_regression_one_permuted_pass():
    """Fig. 31.5: t = randn(n,1), lambda = 1, one pass in a random order; olbench: PA-II
    regression with C = 1/(2 lambda), epsilon = 0, on passes(kernel_map(sinc), permuted)."""
    inner = _sinc(seed=5)
    stream = Passes(stream=KernelMap(stream=inner, hh=0.18), passes=1, order="permuted", seed=3)
    learner = make_learner("pa_regression", variant="pa2", C=0.5, epsilon=0.0, init="randn",
                           init_seed=1)
    w = run(learner, stream).state["w"]
    rows = stream.meta.extra["rows"]
    K, y = _kernel_matrix(inner.meta.extra["x"]), inner.materialize()[1]
    expected = naive.textbook.sugiyama_pa_regression(K[rows], y[rows], lam=1.0,
                                            theta0=initial_weights("randn", 1, 50))
    np.testing.assert_allclose(w, expected, **TOL)


def test_init_is_set_like_any_parameter_from_overrides(tmp_path):
    """``learner.init=randn`` (not in the learner's config) is accepted as other parameters
    are, and names the learner in the table (with the init_seed the grid derived from the
    run seed, not the one given); its bound checks are skipped (w_1 != 0)."""
    import olbench
    from olbench import schema as col

    res = olbench.run_experiment(learner="perceptron", stream="separable", seeds=[0],
                                 overrides=["stream.n=100", "learner.init=randn",
                                            "learner.init_seed=2"],
                                 output_dir=tmp_path, n_jobs=1, figures=False, quiet=True)
    name, = set(res.table[col.LEARNER])
    assert name.startswith("Perceptron[eta=1.0,libol=False,init=randn,init_seed=")
    assert name != "Perceptron[eta=1.0,libol=False,init=randn,init_seed=2]"
    checks = res.table[res.table[col.BOUND_NAME].notna()]
    assert len(checks) and checks[col.BOUND_HOLDS].isna().all()
