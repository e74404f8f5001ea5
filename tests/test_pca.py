"""Online PCA (task "pca"): Brand's incremental SVD against the batch SVD, the best subspace
in hindsight against the definition, follow the leader's linear regret on its adversary,
regret from the command line, and bad input named. (Each learner against its plain-numpy
twin: tests/test_learners_exact.py with tests/naive/pca.py.)"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from olbench import make_learner, run
from olbench.comparators import make_comparator
from olbench.metrics import metrics_table
from olbench.streams import make_stream


def _rows(seed=0, n=60, d=8):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)) * np.linspace(3.0, 0.5, d)   # distinct singular values


def _projector(rows):
    return rows.T @ rows


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("t", [3, 8, 25, 60])
def test_brand_without_threshold_or_ceiling_is_the_batch_svd(seed, t):
    """Threshold 0, no rank ceiling: after t rows the singular values are those of the t x d
    matrix of the rows, and the top-k subspace is its top-k right singular subspace."""
    X = _rows(seed)[:t]
    learner = make_learner("brand_svd", k=2)
    trace = run(learner, X)
    batch = np.linalg.svd(X, compute_uv=False)
    ours = learner.singular_values()
    assert ours.size == min(t, X.shape[1])
    np.testing.assert_allclose(ours, batch[:ours.size], rtol=1e-10)
    _, _, Vt = np.linalg.svd(X)
    np.testing.assert_allclose(_projector(learner.basis()), _projector(Vt[:2]), atol=1e-10)
    assert trace.state["w"].shape == (X.shape[1], X.shape[1])
    basis = trace.state["w"][:ours.size]
    np.testing.assert_allclose(basis @ basis.T, np.eye(ours.size), atol=1e-12)


def test_brand_with_a_ceiling_keeps_the_largest_directions_and_a_threshold_skips_small_rows():
    X = _rows(1, n=200)
    capped = make_learner("brand_svd", k=2, max_rank=3)
    run(capped, X)
    assert capped.singular_values().size == 3
    # truncation keeps a rank-3 approximation: its values lie below the batch ones
    assert (capped.singular_values() <= np.linalg.svd(X, compute_uv=False)[:3] + 1e-9).all()
    small = np.vstack([X[:5], 1e-3 * X[5:10]])
    skipping = make_learner("brand_svd", k=2, threshold=0.1)
    run(skipping, small)
    assert skipping.singular_values().size == 5        # the small rows only rotated it


def test_the_best_subspace_is_the_trailing_eigenvalues_and_no_projection_beats_it():
    X = _rows(2, n=300, d=6)
    fit = make_comparator("best_subspace", k=2).fit(X, np.zeros(300), cache=None)
    singular = np.linalg.svd(X, compute_uv=False)
    assert fit.cum_loss == pytest.approx((singular[2:] ** 2).sum(), rel=1e-12)
    assert fit.lower_bound <= fit.objective and fit.gap <= 1e-10 * fit.objective
    residual = X - X @ fit.u.T @ fit.u
    np.testing.assert_allclose(fit.losses, (residual ** 2).sum(axis=1), rtol=1e-9, atol=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(200):                       # random rank-2 projections lose more
        Q, _ = np.linalg.qr(rng.standard_normal((6, 2)))
        assert ((X - X @ Q @ Q.T) ** 2).sum() >= fit.cum_loss
    sparse = make_comparator("best_subspace", k=2).fit(sp.csr_matrix(X), np.zeros(300),
                                                       cache=None)
    assert sparse.cum_loss == pytest.approx(fit.cum_loss, rel=1e-12)


def test_the_prefix_comparator_refits_every_checkpoint():
    X = _rows(3, n=100, d=5)
    checkpoints = [5, 20, 100]
    fit = make_comparator("prefix_best_subspace", k=1).fit(X, np.zeros(100),
                                                           checkpoints=checkpoints, cache=None)
    for T, value in zip(checkpoints, fit.prefix_loss):
        assert value == pytest.approx((np.linalg.svd(X[:T], compute_uv=False)[1:] ** 2).sum(),
                                      rel=1e-10)


def test_follow_the_leader_loses_every_round_on_its_adversary():
    """Warmuth & Kuzmin's observation: FTL's regret can be linear. On the alternating
    sequence it loses 1 on every round after the first; the best direction, e_2, loses the
    e_1 rows: 1/2 for the first, then 1 each (199.5 of 400 rounds)."""
    stream = make_stream("pca_ftl_adversary", n=400)
    trace = run(make_learner("pca_ftl", k=1), stream)
    X, y = stream.materialize()
    fit = make_comparator("best_subspace", k=1).fit(X, y, stream.meta, cache=None)
    assert trace.margins[0] == 0.0 and (trace.margins[1:] == 1.0).all()
    assert fit.cum_loss == pytest.approx(199.5)
    table = metrics_table(trace, meta=stream.meta, fits={"best": fit}, checkpoints=[100, 400])
    regret = table.set_index("t")["regret"]
    assert regret[400] == pytest.approx(399.0 - 199.5)
    assert regret[400] / 400 >= regret[100] / 100 * 0.95          # linear, not sublinear
    # Brand's exact SVD tracks the same top direction (no regret guarantee, as the lecture
    # says): from round 2 on it plays what FTL plays (round 1: no basis yet, the row's norm)
    brand = run(make_learner("brand_svd", k=1), stream).margins
    assert brand[0] == pytest.approx(0.5) and (brand[1:] == trace.margins[1:]).all()


def test_learners_approach_the_best_subspace_on_a_low_rank_stream():
    stream = make_stream("low_rank", n=3000, d=10, spectrum=[3.0, 2.0], noise=0.1, seed=4)
    X, y = stream.materialize()
    best = make_comparator("best_subspace", k=2).fit(X, y, stream.meta, cache=None).cum_loss
    for key, params in [("brand_svd", {}), ("oja", {"eta": 1.0}), ("pca_ftl", {})]:
        regret = run(make_learner(key, k=2, **params), stream).margins.sum() - best
        assert 0.0 <= regret <= 0.25 * best, key


@pytest.mark.parametrize("key", ["pca_ftl", "oja", "brand_svd", "pca_gd", "pca_meg"])
def test_bad_ranks_thresholds_and_rows_are_refused_by_name(key):
    X = _rows(0, n=10, d=4)
    with pytest.raises(ValueError, match="k=4 must be below the data's dimension d=4"):
        run(make_learner(key, k=4), X)
    with pytest.raises(ValueError, match="k"):
        make_learner(key, k=0).validate()
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="row 3"):
        run(make_learner(key, k=1), bad)
    zero = X.copy()
    zero[4] = 0.0                          # a zero row loses 0 and moves nothing
    trace = run(make_learner(key, k=1), zero)
    assert trace.margins[4] == 0.0


def test_brands_own_parameters_are_checked():
    with pytest.raises(ValueError, match="threshold"):
        make_learner("brand_svd", threshold=-1.0).validate()
    with pytest.raises(ValueError, match="max_rank=1 is below k=2"):
        make_learner("brand_svd", k=2, max_rank=1).validate()
    with pytest.raises(ValueError, match="k=None is the rank of the run's learner"):
        make_comparator("best_subspace").fit(_rows(), np.zeros(60), cache=None)


def test_a_pca_cell_runs_from_the_command_line_with_regret(tmp_path):
    from olbench_command import QUIET, olbench
    from test_cli import _only_folder

    import olbench as ob

    out = olbench("learner=brand_svd", "learner.k=2", "stream=low_rank", "stream.n=300",
                  *QUIET, "run.seeds=[0]", f"run.output_dir={tmp_path}")
    assert out.returncode == 0, out.stderr[-2000:]
    table = ob.load_results(_only_folder(tmp_path / "single")).table
    final = table[table["t"].eq(300)].iloc[0]
    assert final["comparator"].startswith("BestSubspace[k=2")
    stream = make_stream("low_rank", n=300, seed=int(final["stream_seed"]))
    X, y = stream.materialize()
    trace = run(make_learner("brand_svd", k=2), stream)
    best = make_comparator("best_subspace", k=2).fit(X, y, stream.meta, cache=None).cum_loss
    assert final["regret"] == pytest.approx(trace.margins.sum() - best, rel=1e-9)


@pytest.mark.usefixtures("no_network")
def test_a_catalogue_dataset_is_read_for_online_pca_with_its_labels_dropped(toy):
    """stream=dataset task=pca: the rows as the file has them, every label 0, the task pca;
    a binarisation beside it is refused, and a binary learner is refused on it by name."""
    from toy_dataset import TEST, TRAIN, put

    card, dirs = toy
    put(dirs["mine"], "toy.svm", TRAIN), put(dirs["mine"], "toy.svm.t", TEST)
    labelled = make_stream("dataset", name="toy", data_dir=str(dirs["mine"]))
    stream = make_stream("dataset", name="toy", task="pca", data_dir=str(dirs["mine"]))
    X, y = stream.materialize()
    np.testing.assert_array_equal(X.toarray(), labelled.materialize()[0].toarray())
    assert stream.meta.task == "pca" and (y == 0).all() and stream.meta.classes is None
    both = make_stream("dataset", name="toy", task="pca", split="train+test",
                       data_dir=str(dirs["mine"]))
    assert both.meta.task == "pca" and both.meta.n == 6 and (both.materialize()[1] == 0).all()
    assert run(make_learner("oja", k=2), stream).margins.shape == (4,)
    with pytest.raises(ValueError, match="task=pca drops the labels"):
        make_stream("dataset", name="toy", task="pca", positive_label=1,
                    data_dir=str(dirs["mine"]))
    with pytest.raises(ValueError, match="perceptron does classification but dataset toy is "
                                         "an online PCA stream"):
        run(make_learner("perceptron"), stream)


def test_a_drifting_subspace_switches_or_turns_as_declared():
    switch = make_stream("drifting_subspace", n=300, d=6, spectrum=[2.0, 1.0], noise=0.0,
                         switch_at=[100, 200], seed=1)
    X, _ = switch.materialize()
    bases = switch.meta.extra["bases"]
    assert switch.meta.extra["switch_times"] == [101, 201] and len(bases) == 3
    for (a, b), B in zip([(0, 100), (100, 200), (200, 300)], bases):
        np.testing.assert_allclose(X[a:b] - X[a:b] @ B.T @ B, 0.0, atol=1e-12)
    turn = make_stream("drifting_subspace", n=200, d=6, spectrum=[2.0, 1.0], noise=0.0,
                       mode="rotate", angle=np.pi / 2, seed=2)
    first, last = turn.meta.extra["bases"]
    np.testing.assert_allclose(first @ last.T, 0.0, atol=1e-12)   # turned to orthogonal
    X, _ = turn.materialize()
    np.testing.assert_allclose(X[-1] - X[-1] @ last.T @ last, 0.0, atol=1e-12)
    # a learner that keeps adapting (Oja, constant step) ends closer to the last basis than
    # the best fixed subspace of the whole stream does
    oja = make_learner("oja", k=2, eta=0.05, schedule="constant")
    run(oja, switch)
    fixed = make_comparator("best_subspace", k=2).fit(*switch.materialize(), switch.meta,
                                                      cache=None).u
    gap = lambda U: np.linalg.norm(U.T @ U - bases[-1].T @ bases[-1])   # noqa: E731
    assert gap(oja.basis()) < gap(fixed)
    with pytest.raises(ValueError, match="2k <= d"):
        make_stream("drifting_subspace", d=3, spectrum=[2.0, 1.0], mode="rotate")
    with pytest.raises(ValueError, match="increasing rounds"):
        make_stream("drifting_subspace", n=50, switch_at=[60])


def _declared_bound(key, T, L, R, d, k, eta):
    from olbench.bounds import pca_gd_regret, pca_meg_regret

    return pca_gd_regret(T, R, d, k, eta) if key == "pca_gd" else \
        pca_meg_regret(L, R, d, k, eta)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("key,eta", [("pca_gd", 0.02), ("pca_gd", 0.3), ("pca_meg", 0.05),
                                     ("pca_meg", 1.0), ("pca_meg", 8.0)])
def test_the_mixture_learners_stay_within_their_regret_bounds(key, eta, seed):
    """GD on the capped spectrahedron within Zinkevich's m(d-m)/(2 eta d) + eta T R^4 / 2,
    capped MEG within (eta R^2 L + m R^2 ln(d/m)) / (1 - exp(-eta R^2)) - L (m = d - k), at
    every checkpoint, on a fixed, a switching and the adversarial stream; W stays in
    {0 <= W <= I, tr W = m}."""
    from olbench.bounds import bound_table

    for stream in (make_stream("low_rank", n=600, d=6, spectrum=[0.8, 0.4], noise=0.05,
                               seed=seed),
                   make_stream("drifting_subspace", n=600, d=6, spectrum=[0.8, 0.4],
                               noise=0.05, seed=seed),
                   make_stream("pca_ftl_adversary", n=600)):
        X, y = stream.materialize()
        d = X.shape[1]
        k = 1 if d == 2 else 2
        learner = make_learner(key, k=k, eta=eta)
        trace = run(learner, X)
        fit = make_comparator("best_subspace", k=k).fit(X, y, stream.meta, cache=None)
        R = float(np.linalg.norm(X, axis=1).max())
        table = bound_table(learner, trace, checkpoints=[10, 100, 600], R=R, fits={"b": fit})
        assert table["bound_holds"].all()
        best = np.cumsum(fit.losses)[[9, 99, 599]]
        regret = np.cumsum(trace.margins)[[9, 99, 599]] - best
        np.testing.assert_allclose(table["observed"], regret, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(table["bound"], [
            _declared_bound(key, T, L, R, d, k, eta) for T, L in zip((10, 100, 600), best)],
            rtol=1e-12)
        values = np.linalg.eigvalsh(trace.state["w"])
        assert values.min() >= -1e-12 and values.max() <= 1 + 1e-12
        assert values.sum() == pytest.approx(d - k, abs=1e-9)


def test_meg_keeps_the_logarithm_where_the_density_underflows():
    """On a long low-rank stream the density's trailing eigenvalues fall far below float64's
    smallest positive number (log D below -745): the rule, in the log domain, runs on, its W
    exact in the set, its regret within the bound and far below the first rows' loss rate."""
    from olbench.bounds import bound_table

    stream = make_stream("low_rank", n=4000, d=8, spectrum=[3.0, 2.0], noise=0.05, seed=1)
    X, y = stream.materialize()
    learner = make_learner("pca_meg", k=2, eta=2.0)
    trace = run(learner, X)
    log_values = np.linalg.eigvalsh(trace.state["A"])
    assert log_values.min() < -745.0 and np.isfinite(trace.margins).all()
    # capped at log(1/m), up to the round-off of rebuilding log D from eigenvalues near -1e4
    assert log_values.max() <= -np.log(6) + 1e-15 * abs(log_values.min())
    fit = make_comparator("best_subspace", k=2).fit(X, y, stream.meta, cache=None)
    table = bound_table(learner, trace, checkpoints=[4000],
                        R=float(np.linalg.norm(X, axis=1).max()), fits={"b": fit})
    assert table["bound_holds"].all()
    assert trace.margins[-1000:].mean() < 0.05 * trace.margins[:50].mean()


def test_meg_on_diagonal_rows_is_capped_hedge_on_the_coordinates():
    """Rows along the axes keep D diagonal: MEG is then the capped Hedge of W&K Sec. 3 over
    the d coordinates (losses x_i^2), whose weights are written here from its definition."""
    rng = np.random.default_rng(3)
    d, k, eta = 5, 2, 0.7
    X = np.zeros((40, d))
    X[np.arange(40), rng.integers(0, d, 40)] = rng.uniform(0.2, 1.5, 40)
    m = d - k
    weights, expected = np.full(d, 1.0 / d), []
    for x in X:
        expected.append(m * weights @ x ** 2)
        weights = weights * np.exp(-eta * x ** 2)
        weights /= weights.sum()
        for _ in range(d):                          # cap at 1/m, rescale the rest, repeat
            over = weights >= 1.0 / m
            weights[~over] *= (1.0 - over.sum() / m) / weights[~over].sum()
            weights[over] = 1.0 / m
            if (weights <= 1.0 / m + 1e-15).all():
                break
    trace = run(make_learner("pca_meg", k=k, eta=eta), X)
    np.testing.assert_allclose(trace.margins, expected, rtol=1e-12, atol=1e-14)


def test_arithmetic_that_leaves_float64_stops_the_run_naming_it():
    """A step or a row past float64 makes the matrix inf: LAPACK would raise on it; the rules
    turn it into NaN and the run stops at the next loss, saying why."""
    rows = np.random.default_rng(0).standard_normal((20, 4))
    for key in ("pca_gd", "pca_meg"):
        with pytest.raises(ValueError, match=r"eta=5.7e\+307"):
            run(make_learner(key, eta=5.7e307), rows)
    huge = np.array([[1e200, 1.0, 0.0], [1e200, 0.0, 1.0], [1.0, 1.0, 1.0]])
    for key in ("pca_ftl", "brand_svd"):
        with pytest.raises(ValueError, match="NaN or infinite at row"):
            run(make_learner(key), huge)
