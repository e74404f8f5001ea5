"""Every compiled learner equals its plain-numpy twin (tests/naive/) to 1e-12, on dense and
sparse input, for several seeds and hyper-parameters; the textbook and peer-library forms
of the same rules agree too."""

from __future__ import annotations

import warnings

import naive
import numpy as np
import pytest
import scipy.sparse as sp
from conftest import learner_data, make_data
from naive import textbook

from olbench import make_learner, predict, run
from olbench.learners import Learner
from olbench.learners.kernel import KernelLearner

TOL = dict(rtol=1e-12, atol=1e-12)

CASES = [(key, params) for key, settings in naive.SETTINGS.items() for params in settings]


def test_every_registered_learner_has_a_twin_and_settings():
    keys = set(Learner.registry.keys())
    assert keys <= set(naive.TWINS), f"learners without a naive twin: {keys - set(naive.TWINS)}"
    assert keys <= set(naive.SETTINGS), f"without settings: {keys - set(naive.SETTINGS)}"


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("key,params", CASES, ids=[f"{k}-{p}" for k, p in CASES])
def test_compiled_equals_naive(key, params, seed, as_format):
    learner = make_learner(key, **params)
    X, y = learner_data(learner, seed, density=0.6 if seed == 2 else 1.0, zero_rows=seed == 1)
    if learner.task == "regression" and key != "ogd":
        y = y * 2.0
    margins, updated, state = naive.TWINS[key](X, y, **params)
    predicted = state.pop("predicted", None)       # a multiclass twin's: the class indices
    trace = run(learner, as_format(X), y)
    np.testing.assert_allclose(trace.margins, margins, **TOL)
    np.testing.assert_array_equal(trace.updated, updated)
    if predicted is not None:
        np.testing.assert_array_equal(trace.predicted, predicted)
    for name, value in state.items():
        np.testing.assert_allclose(trace.state[name], value, **TOL)
    assert trace.updated.sum() >= 5  # the comparison exercised the update rule


def test_pa_margin_after_update_is_exactly_one():
    """Crammer et al. 2006, Sec. 3: PA's new w satisfies y w.x = 1 after every update."""
    X, y = make_data("classification", 7, n=300)
    learner = make_learner("pa", variant="pa")
    hits = 0
    for x, label in zip(X, y):
        had_loss = label * learner.predict_one(x) < 1.0 if learner.is_initialised else True
        learner.learn_one(x, label)
        if had_loss:
            hits += 1
            assert label * learner.predict_one(x) == pytest.approx(1.0, abs=1e-12)
    assert hits > 50


@pytest.mark.parametrize("lam", [0.1, 1.0, 3.0])
def test_sugiyama_lambda_forms_are_pa1_and_pa2(lam):
    X, y = make_data("classification", 3)
    np.testing.assert_allclose(
        run(make_learner("pa", variant="pa2", C=1 / (2 * lam)), X, y).state["w"],
        textbook.sugiyama_pa_classification(X, y, lam=lam), **TOL)
    np.testing.assert_allclose(
        run(make_learner("pa", variant="pa1", C=1 / lam), X, y).state["w"],
        textbook.sugiyama_pa_classification(X, y, lam=lam, hinge=True), **TOL)
    Xr, yr = make_data("regression", 4)
    np.testing.assert_allclose(
        run(make_learner("pa_regression", variant="pa2", C=1 / (2 * lam), epsilon=0.0),
            Xr, yr).state["w"],
        textbook.sugiyama_pa_regression(Xr, yr, lam=lam), **TOL)
    np.testing.assert_allclose(
        run(make_learner("pa_regression", variant="pa1", C=1 / lam, epsilon=0.0),
            Xr, yr).state["w"],
        textbook.sugiyama_pa_regression(Xr, yr, lam=lam, l1=True), **TOL)


@pytest.mark.parametrize("lam", [0.1, 1.0, 3.0])
def test_sugiyama_arow_lambda_is_r(lam, as_format):
    """The book's AROW (Fig. 31.7, 31.9 listings) with lambda is olbench's AROW / RLS with
    r = lambda (and a = 1: S starts at I), also from a random start (``init="randn"``)."""
    from olbench.learners.base import initial_weights

    X, y = make_data("classification", 5)
    np.testing.assert_allclose(run(make_learner("arow", r=lam), as_format(X), y).state["w"],
                               textbook.sugiyama_arow_classification(X, y, lam=lam), **TOL)
    Xr, yr = make_data("regression", 6)
    mu0 = initial_weights("randn", 9, Xr.shape[1])
    for key in ("rls", "arow_regression"):
        learner = make_learner(key, r=lam, a=1.0, init="randn", init_seed=9)
        np.testing.assert_allclose(run(learner, as_format(Xr), yr).state["w"],
                                   textbook.sugiyama_arow_regression(Xr, yr, lam=lam, mu0=mu0),
                                   **TOL)
    pa = make_learner("pa_regression", variant="pa2", C=1 / (2 * lam), epsilon=0.0,
                      init="randn", init_seed=9)
    np.testing.assert_allclose(run(pa, as_format(Xr), yr).state["w"],
                               textbook.sugiyama_pa_regression(Xr, yr, lam=lam, theta0=mu0), **TOL)


def test_rls_mean_is_the_ridge_solution():
    """After t rounds, RLS's mean is argmin sum (y - w.x)^2 / r + ||w||^2 / a."""
    X, y = make_data("regression", 5, n=80)
    r, a = 0.7, 2.0
    w = run(make_learner("rls", r=r, a=a), X, y).state["w"]
    ridge = np.linalg.solve(X.T @ X / r + np.eye(X.shape[1]) / a, X.T @ y / r)
    np.testing.assert_allclose(w, ridge, rtol=1e-10, atol=1e-12)


# ----------------------------------------------------------------------- peer libraries
def _sklearn(estimator, X, y):
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y).coef_.ravel()


@pytest.mark.parametrize("seed", [0, 1])
def test_sklearn_perceptron_equals_ours(seed, as_format):
    from sklearn.linear_model import Perceptron

    X, y = make_data("classification", seed, n=400)
    ours = run(make_learner("perceptron"), as_format(X), y).state["w"]
    theirs = _sklearn(Perceptron(fit_intercept=False, shuffle=False, eta0=1, max_iter=1,
                                 tol=None), as_format(X), y)
    np.testing.assert_allclose(ours, theirs, **TOL)


@pytest.mark.parametrize("variant,C", [("pa1", 0.1), ("pa1", 1.0), ("pa2", 0.3), ("pa2", 5.0)])
def test_sklearn_passive_aggressive_equals_ours(variant, C, as_format):
    from sklearn.linear_model import SGDClassifier, SGDRegressor

    X, y = make_data("classification", 11, n=400)
    common = dict(penalty=None, learning_rate=variant, eta0=C, fit_intercept=False,
                  shuffle=False, max_iter=1, tol=None)
    theirs = _sklearn(SGDClassifier(loss="hinge", **common), as_format(X), y)
    ours = run(make_learner("pa", variant=variant, C=C), as_format(X), y).state["w"]
    np.testing.assert_allclose(ours, theirs, **TOL)

    Xr, yr = make_data("regression", 12, n=400)
    theirs = _sklearn(SGDRegressor(loss="epsilon_insensitive", epsilon=0.2, **common),
                      as_format(Xr), yr)
    ours = run(make_learner("pa_regression", variant=variant, C=C, epsilon=0.2),
               as_format(Xr), yr).state["w"]
    np.testing.assert_allclose(ours, theirs, **TOL)


def _river_weights(model, X, y, d):
    for x, label in zip(X, y):
        model.learn_one({j: float(v) for j, v in enumerate(x)}, label)
    return np.array([model.weights.get(j, 0.0) for j in range(d)])


@pytest.mark.parametrize("mode", [1, 2])
def test_river_pa_classifier_equals_ours(mode):
    from river import linear_model

    X, y = make_data("classification", 21, n=300)
    theirs = _river_weights(linear_model.PAClassifier(C=0.5, mode=mode, learn_intercept=False),
                            X, y > 0, X.shape[1])
    ours = run(make_learner("pa", variant=f"pa{mode}", C=0.5), X, y).state["w"]
    np.testing.assert_allclose(ours, theirs, **TOL)


def test_river_perceptron_equals_ours():
    from river import linear_model, optim

    X, y = make_data("classification", 23, n=300)
    model = linear_model.Perceptron()
    # no intercept: river's linear-model base skips the intercept step when its rate is 0
    model.intercept_lr = optim.schedulers.Constant(0.0)
    theirs = _river_weights(model, X, y > 0, X.shape[1])
    assert model.intercept == 0.0
    np.testing.assert_allclose(run(make_learner("perceptron"), X, y).state["w"], theirs, **TOL)


@pytest.mark.xfail(strict=True, reason="river's PARegressor is not Crammer et al.'s rule: its "
                   "EpsilonInsensitiveHinge maps the target y to 2y - 1 before taking |p - y| "
                   "(river 0.26). When river fixes this, this test passes and fails as XPASS: "
                   "then make it a plain equality test.")
@pytest.mark.parametrize("mode", [1, 2])
def test_river_pa_regressor_equals_ours(mode):
    from river import linear_model

    Xr, yr = make_data("regression", 22, n=300)
    theirs = _river_weights(linear_model.PARegressor(C=0.5, mode=mode, eps=0.1,
                                                     learn_intercept=False), Xr, yr, Xr.shape[1])
    ours = run(make_learner("pa_regression", variant=f"pa{mode}", C=0.5, epsilon=0.1),
               Xr, yr).state["w"]
    np.testing.assert_allclose(ours, theirs, **TOL)


def _olpy_weights(model, X, y):
    """olpy's ``partial_fit`` runs the rows in stream order (its ``fit`` shuffles them)."""
    return model.partial_fit(X, y.astype(int), classes=[-1, 1]).weights


# olpy (a Python port of LIBOL) against our LIBOL-mode options, update for update
OLPY_CASES = [("NHerd", {"C": 0.5, "a": 2.0}, "nherd", {"C": 0.5, "a": 2.0}),
              ("NAROW", {"a": 0.7}, "narow", {"b": 0.7, "libol": True}),
              ("IELLIP", {"a": 1.5, "b": 0.8, "c": 0.3}, "iellip",
               {"a": 1.5, "decay": 0.8, "c": 0.3})]


@pytest.mark.parametrize("theirs,their_params,key,params", OLPY_CASES,
                         ids=[case[2] for case in OLPY_CASES])
def test_olpy_equals_ours(theirs, their_params, key, params):
    from olpy import classifiers

    X, y = make_data("classification", 31, n=300)
    ours = run(make_learner(key, **params), X, y).state["w"]
    model = getattr(classifiers, theirs)(**their_params)
    np.testing.assert_allclose(ours, _olpy_weights(model, X, y), rtol=1e-10, atol=1e-12)


@pytest.mark.xfail(strict=True, reason="olpy's CW (and SCW, which inherits its update) computes "
                   "v = x' diag(Sigma) x but downdates the full Sigma: neither Crammer et al. "
                   "2008 nor LIBOL's CW.m (olpy 1.0.0.dev3). If olpy fixes it, this XPASSes: "
                   "then make it a plain equality test.")
def test_olpy_cw_equals_ours():
    from olpy import classifiers

    X, y = make_data("classification", 32, n=300)
    ours = run(make_learner("cw", confidence=0.7), X, y).state["w"]
    theirs = _olpy_weights(classifiers.CW(eta=0.7), X, y)
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_sparse_duplicates_are_summed_not_double_counted():
    """A CSR row with a duplicated column means the sum of the entries (scipy's convention)."""
    X = sp.csr_matrix((np.array([1.0, 2.0, 0.5]), np.array([0, 0, 1]), np.array([0, 2, 3])),
                      shape=(2, 2))
    assert not X.has_canonical_format
    trace = run(make_learner("pa", variant="pa"), X, np.array([1.0, -1.0]))
    dense = run(make_learner("pa", variant="pa"), X.toarray(), np.array([1.0, -1.0]))
    np.testing.assert_allclose(trace.state["w"], dense.state["w"], **TOL)
    assert not X.has_canonical_format  # the caller's matrix is untouched


# ----------------------------------------------------------------------- ROMMA, ALMA, SOP
def test_romma_step_is_the_shortest_vector_of_its_two_constraints():
    """Li & Long's definition, solved as a QP, against the closed form of kernels.romma (the
    paper's, libol=False); LIBOL's aROMMA misses the case y p >= ||w||^2 ||x||^2."""
    from scipy.optimize import minimize

    rng = np.random.default_rng(4)
    slack_cases = 0
    for trial in range(60):
        w, x, label = rng.normal(size=3), rng.normal(size=3), rng.choice([-1.0, 1.0])
        w *= 0.2 if trial % 2 else 1.0          # short w: the new constraint alone is often tight
        if label * (w @ x) >= 1.0:
            continue
        cons = [{"type": "ineq", "fun": lambda v, w=w: v @ w - w @ w},
                {"type": "ineq", "fun": lambda v, x=x, label=label: label * (v @ x) - 1.0}]
        qp = minimize(lambda v: v @ v, w, jac=lambda v: 2 * v, constraints=cons,
                      method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
        ours, _ = naive.first_order._romma_step(w, x, label, libol=False)
        learner = make_learner("aromma").reset(3)
        learner.state_.w[:] = w
        learner.learn_one(x, label)
        np.testing.assert_allclose(learner.coef_, ours, **TOL)
        np.testing.assert_allclose(ours, qp.x, atol=1e-6)
        if label * (w @ x) >= (w @ w) * (x @ x):
            slack_cases += 1
            libol, _ = naive.first_order._romma_step(w, x, label, libol=True)
            assert libol @ libol > ours @ ours + 1e-9        # not the shortest vector
    assert slack_cases >= 3


@pytest.mark.parametrize("params", [{}, {"alpha": 0.6, "B": 2.0, "C": 0.8},
                                    {"alpha": 0.7, "C": 0.5, "p": 6}])
def test_river_alma_equals_ours_libol_variant(params):
    """river's ALMAClassifier (no intercept) is LIBOL's rule: raw x, strict test, same k,
    and LIBOL's p (margin x sqrt(p-1), step / sqrt(p-1)); its C (the paper's) is our eta."""
    from river import linear_model

    X, y = make_data("classification", 31, n=300)
    full = {"alpha": 0.9, "B": 1 / 0.9, "C": 2 ** 0.5, "p": 2, **params}
    model = linear_model.ALMAClassifier(**full)
    full["eta"] = full.pop("C")
    for x, label in zip(X, y > 0):
        model.learn_one({j: float(v) for j, v in enumerate(x)}, label)
    theirs = np.array([model.w.get(j, 0.0) for j in range(X.shape[1])])   # no intercept
    trace = run(make_learner("alma", libol=True, **full), X, y)
    np.testing.assert_allclose(trace.state["w"], theirs, **TOL)
    assert trace.state["s"][0] == model.k == 1 + trace.n_updates


FTRL_SETTINGS = dict(alpha=0.5, beta=1.0, l1=0.3, l2=0.1)


def _river_ftrl(X, y):
    """river's LogisticRegression on its FTRLProximal optimiser, no intercept, no l2 of its
    own: the final weights."""
    from river import linear_model, optim

    model = linear_model.LogisticRegression(optimizer=optim.FTRLProximal(**FTRL_SETTINGS),
                                            intercept_lr=0.0, l2=0.0)
    for x, label in zip(X, y):
        model.learn_one({j: float(v) for j, v in enumerate(x)}, bool(label > 0))
    return np.array([model.weights.get(j, 0.0) for j in range(X.shape[1])])


@pytest.mark.xfail(strict=True, reason=(
    "river's FTRLProximal (river 0.26) is not McMahan et al.'s Algorithm 1: its step sets w_i "
    "from (z_i, n_i) before updating them, so each prediction uses weights one update behind "
    "the paper's, and it leaves w_i as it was where |z_i| <= l1 instead of 0 "
    "(test_river_ftrl_proximal_is_the_lagged_rule shows river is exactly that rule). When "
    "river follows the paper, this XPASSes: then make it a plain equality test."))
def test_river_ftrl_proximal_equals_ours():
    X, y = make_data("classification", 34, n=200)
    ours = run(make_learner("ftrl_proximal", loss="logistic", eta=FTRL_SETTINGS["alpha"],
                            delta=FTRL_SETTINGS["beta"], l1=FTRL_SETTINGS["l1"],
                            l2=FTRL_SETTINGS["l2"]), X, y)
    np.testing.assert_allclose(ours.state["w"], _river_ftrl(X, y), **TOL)


def test_river_ftrl_proximal_is_the_lagged_rule():
    """The cause the xfail above states, shown: river equals Algorithm 1 with the weights
    computed before the update (and kept inside the L1 band), to 1e-12."""
    X, y = make_data("classification", 34, n=200)
    a, b, l1, l2 = (FTRL_SETTINGS[k] for k in ("alpha", "beta", "l1", "l2"))
    z, n, w = (np.zeros(X.shape[1]) for _ in range(3))
    for x, label in zip(X, y):
        g = (1.0 / (1.0 + np.exp(-(w @ x))) - float(label > 0)) * x
        w = np.where(np.abs(z) > l1, -(z - np.sign(z) * l1) / ((b + np.sqrt(n)) / a + l2), w)
        z, n = z + g - (np.sqrt(n + g * g) - np.sqrt(n)) / a * w, n + g * g
    np.testing.assert_allclose(_river_ftrl(X, y), w, **TOL)


def test_alma_p_is_libols_and_the_papers_p_norm_form_is_refused():
    with pytest.raises(ValueError, match=r"ALMA: p=4 is implemented only as LIBOL's ALMA.m has "
                                         r"it \(libol=True"):
        make_learner("alma", p=4).validate()
    X, y = make_data("classification", 33, n=200)
    p2, p6 = (run(make_learner("alma", libol=True, p=p), X, y) for p in (2, 6))
    assert p2.n_updates != p6.n_updates       # p changes the rule


def test_alma_paper_and_libol_agree_on_unit_rows():
    """The two variants differ by the normalisation x / ||x|| and <= vs <: on unit-norm rows
    (and no exact ties) they are the same learner; on raw rows they are not."""
    X, y = make_data("classification", 32, n=300)
    unit = X / np.linalg.norm(X, axis=1, keepdims=True)
    paper, libol = make_learner("alma"), make_learner("alma", libol=True)
    np.testing.assert_allclose(run(paper, unit, y).margins, run(libol, unit, y).margins, **TOL)
    assert not np.allclose(run(paper, 3 * X, y).state["w"], run(libol, 3 * X, y).state["w"])


def test_sop_predictions_are_those_of_the_explicit_inverse():
    """w_t = (a I + S S' + x x')^-1 v has the sign of (a I + S S')^-1 v . x (Sherman-Morrison):
    the margins recorded are the paper's; LIBOL's two codes differ from them by a factor."""
    X, y = make_data("classification", 33, n=200)
    trace = run(make_learner("sop", ridge=0.5), X, y)
    sigma, w = trace.state["A"], trace.state["w"]
    x = X[-1]
    direct = np.linalg.solve(np.linalg.inv(sigma) + np.outer(x, x), np.linalg.inv(sigma) @ w)
    assert direct @ x == pytest.approx((w @ x) / (1 + x @ sigma @ x), rel=1e-10)


KERNEL_KEYS = [key for key, cls in Learner.registry.items() if issubclass(cls, KernelLearner)]


@pytest.mark.parametrize("key", KERNEL_KEYS)
def test_packed_sparse_support_vectors_equal_the_naive_twins(key):
    """Sparse rows of 3 non-zeros among 40 features are kept packed (8 numbers a support
    vector, not 41): the run is still the twin's to 1e-12, and a packed state reads dense
    rows (a prediction, a run continued with dense rows) as it reads sparse ones."""
    params = naive.SETTINGS[key][0]
    learner = make_learner(key, **params)
    rng = np.random.default_rng(8)
    cols = np.concatenate([np.sort(rng.choice(40, 3, replace=False)) for _ in range(90)])
    X = sp.csr_matrix((rng.standard_normal(270), (np.repeat(np.arange(90), 3), cols)),
                      shape=(90, 40))
    u = rng.standard_normal(40)
    y = np.where(X @ u >= 0, 1.0, -1.0) if learner.task == "classification" else 2 * X @ u
    margins, updated, state = naive.TWINS[key](X[:60].toarray(), y[:60], **params)
    trace = run(learner, X[:60], y[:60])
    assert learner.state_.s[2] == 3                                     # packed, m = 3
    np.testing.assert_allclose(trace.margins, margins, **TOL)
    np.testing.assert_array_equal(trace.updated, updated)
    np.testing.assert_allclose(trace.state["w"], state["w"], **TOL)
    np.testing.assert_allclose(trace.state["A"].toarray(), state["A"], **TOL)
    twin = make_learner(key, **params)
    run(twin, X[:60], y[:60])
    np.testing.assert_allclose(run(learner, X[60:].toarray(), y[60:], reset=False).margins,
                               run(twin, X[60:], y[60:], reset=False).margins, **TOL)
    np.testing.assert_allclose(predict(learner, X.toarray()), predict(twin, X), **TOL)
    assert trace.updated.sum() >= 5
