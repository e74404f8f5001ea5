"""A given initial vector (``init`` = numbers, a .npy or a text file), checked with named
errors and named by a short hash; and in a grid, a random start (``init=randn``) drawn
from each run's seed, while every other learner's spec (and run id) stays as it was."""

from __future__ import annotations

import hashlib

import naive
import numpy as np
import pytest

import olbench
from olbench import make_learner, run
from olbench import schema as col
from olbench.analysis.report import summary_table
from olbench.analysis.views import display_name
from olbench.bounds import bound_table
from olbench.component import InvalidParameterError
from olbench.harness.tasks import expand

W0 = [0.5, -1.0, 2.0]


def _sources(tmp_path):
    """The same w0 as a list, an array, a .npy file and a text file (commas, a comment)."""
    np.save(tmp_path / "w0.npy", np.array(W0)[:, None])          # a column, as randn(n,1)
    (tmp_path / "w0.txt").write_text("# w0 of a listing\n0.5, -1.0\n2.0\n")
    return [W0, np.array(W0), str(tmp_path / "w0.npy"), str(tmp_path / "w0.txt")]


@pytest.mark.parametrize("key", ["perceptron", "pa", "arow", "ogd"])
def test_a_given_vector_is_w0_from_every_source(key, tmp_path):
    X = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
    names = set()
    for init in _sources(tmp_path):
        learner = make_learner(key, init=init)
        trace = run(learner, X, np.array([1.0, -1.0]))
        assert trace.margins[0] == 0.5 * 1.0 - 1.0 * 2.0 + 2.0 * 3.0      # w0 . x_1 = 4.5
        assert learner.clone().reset(3).coef_.tolist() == W0
        names.add(learner.name)
        assert learner.clone().name == learner.name
    name, = names                                # one name, whatever the source
    assert "init=w0:" in name and len(name) < len(type(learner).__name__) + 70
    assert make_learner(key, init=[0.5, -1.0, 2.5]).name != name


def test_a_given_vector_reruns_a_listing_from_its_own_w0():
    """Sugiyama's PA-II regression (Fig. 31.5 form) from a given theta0 equals olbench's
    PA-II regression with C = 1/(2 lambda), epsilon = 0 and init = theta0."""
    rng = np.random.default_rng(8)
    X, y = rng.standard_normal((60, 4)), rng.standard_normal(60)
    theta0 = rng.standard_normal(4)
    learner = make_learner("pa_regression", variant="pa2", C=0.5, epsilon=0.0,
                           init=theta0.tolist())
    np.testing.assert_allclose(run(learner, X, y).state["w"],
                               naive.textbook.sugiyama_pa_regression(X, y, lam=1.0, theta0=theta0),
                               rtol=1e-12, atol=1e-12)


def test_a_given_vector_is_checked_with_named_errors(tmp_path):
    X, y = np.ones((2, 2)), np.ones(2)
    with pytest.raises(ValueError, match=r"^init has 3 numbers but the stream has d = 2 "):
        run(make_learner("pa", init=W0), X, y)
    np.save(tmp_path / "w0.npy", np.array(W0))
    with pytest.raises(ValueError, match=r"init file '.*w0\.npy' has 3 numbers but the stream "
                                         r"has d = 2"):
        run(make_learner("pa", init=str(tmp_path / "w0.npy")), X, y)
    with pytest.raises(ValueError, match=r"init: entry 1 is nan; the initial weights must be "):
        run(make_learner("pa", init=[0.0, float("nan")]), X, y)
    with pytest.raises(ValueError, match=r"init: entry 0 is -inf"):
        run(make_learner("pa", init=np.array([-np.inf, 0.0])), X, y)
    (tmp_path / "bad.txt").write_text("0.5\n0.1 abc\n")
    with pytest.raises(ValueError, match=r"bad\.txt:2: 'abc' is not a number"):
        run(make_learner("pa", init=str(tmp_path / "bad.txt")), X, y)
    (tmp_path / "inf.txt").write_text("1.0 inf\n")
    with pytest.raises(ValueError, match=r"init file '.*inf\.txt': entry 1 is inf"):
        run(make_learner("pa", init=str(tmp_path / "inf.txt")), X, y)
    np.save(tmp_path / "square.npy", np.eye(2))
    with pytest.raises(ValueError, match=r"square\.npy' holds an array of float64 and shape "
                                         r"\(2, 2\); it must hold d numbers"):
        run(make_learner("pa", init=str(tmp_path / "square.npy")), X, y)
    (tmp_path / "broken.npy").write_bytes(b"not numpy")
    with pytest.raises(ValueError, match=r"broken\.npy': not a readable \.npy file"):
        run(make_learner("pa", init=str(tmp_path / "broken.npy")), X, y)
    with pytest.raises(FileNotFoundError, match=r"init file 'no/such/w0\.npy' not found .*"
                                                r"init is 'zeros', 'randn', a list of d"):
        run(make_learner("pa", init="no/such/w0.npy"), X, y)
    with pytest.raises(InvalidParameterError, match=r"invalid init=\['a', 'b'\]; init must "
                                                    r"be 'zeros', 'randn', a list of d numbers"):
        run(make_learner("pa", init=["a", "b"]), X, y)
    with pytest.raises(InvalidParameterError, match=r"invalid init=0\.5"):
        run(make_learner("pa", init=0.5), X, y)


def test_learners_without_d_weights_refuse_a_given_vector():
    X, y = np.eye(2), np.ones(2)
    with pytest.raises(InvalidParameterError, match=r"invalid init='w0:[0-9a-f]{10}'; a kernel "
                                                    r"learner starts from f = 0"):
        run(make_learner("kernel_perceptron", init=[1.0, 2.0]), X, y)
    with pytest.raises(ValueError, match=r"init='w0:[0-9a-f]{10}' does not apply"):
        run(make_learner("eg", init=[0.5, 0.5]), X, y)


@pytest.mark.parametrize("as_given", [list, np.array])
def test_bounds_skip_a_run_from_a_given_vector(as_given):
    """Every theorem is stated for w_1 = 0: from a given w0 (a list from a config, an array
    from Python) the checks are skipped with the reason, naming w0 by its hash."""
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0])
    learner = make_learner("perceptron", init=as_given([-1.0, 2.0]))
    trace = run(learner, X, y)
    table = bound_table(learner, trace, checkpoints=[3], R=float(np.sqrt(2.0)), fits={})
    assert len(table) and table[col.BOUND_HOLDS].isna().all()
    digest = hashlib.sha256(np.array([-1.0, 2.0], dtype="<f8").tobytes()).hexdigest()
    assert set(table[col.SKIP_REASON]) == {"the theorem assumes w_1 = 0; this run started at "
                                           f"init=w0:{digest[:10]}"}


def _study(tmp_path, init, name):
    return olbench.run_experiment(learner="perceptron", stream="separable", seeds=[0],
                                  overrides=["stream.n=50", "stream.d=3", f"learner.init={init}"],
                                  output_dir=tmp_path / name, n_jobs=1, figures=False,
                                  quiet=True)


def _final_weights(results) -> dict[str, tuple]:
    """Each run's final weights, as the run wrote them beside the table."""
    from olbench.harness.side import read_side

    weights = read_side(results.folder)["final_weights"]
    return {run: tuple(rows["w"]) for run, rows in weights.groupby(col.RUN_ID)}


def test_a_given_vector_from_command_line_overrides(tmp_path):
    """``learner.init=[...]`` and ``learner.init=path/w0.npy`` as on the command line: the
    run starts there (its final w differs from the zeros start), named by the hash."""
    np.save(tmp_path / "w0.npy", np.array(W0))
    listed = _study(tmp_path, "[0.5,-1.0,2.0]", "listed")
    from_file = _study(tmp_path, str(tmp_path / "w0.npy"), "file")
    zeros = _study(tmp_path, "zeros", "zeros")
    expected = make_learner("perceptron", init=W0).name
    for table in (listed.table, from_file.table):
        assert set(table[col.STATUS]) == {col.OK}
        assert set(table[col.LEARNER]) == {expected}
    (listed_w,), (file_w,), (zeros_w,) = (list(_final_weights(r).values())
                                          for r in (listed, from_file, zeros))
    assert listed_w == file_w and listed_w != zeros_w


def test_list_shows_what_init_accepts():
    from olbench.harness.listing import listing

    line = next(r for r in listing("learner=pa").splitlines() if r.split()[0] == "init")
    assert line.split(None, 2)[1:] == ["zeros", "'zeros', 'randn', a list of d numbers, or a "
                                                ".npy or text file of them"]


# ------------------------------------------------------------------ seeds in a grid
def test_a_random_start_is_drawn_from_each_run_seed():
    """init=randn: each seed of a grid gets its own init_seed (so a spread over seeds includes
    the starting weights), whatever init_seed the grid gave; learners with zeros or a given
    vector keep their spec (hence their run ids and stored runs) exactly."""
    given = {"key": "pa", "params": {"init": W0}}
    grid = {"streams": ["separable"],
            "learners": [{"key": "perceptron", "params": {"init": "randn", "init_seed": 7}},
                         "pa", given]}
    tasks = expand(grid, seeds=[0, 1, 2])
    randn = [t.learner for t in tasks if t.learner.get("init") == "randn"]
    seeds = [spec["init_seed"] for spec in randn]
    assert len(set(seeds)) == 3 and 7 not in seeds
    again = [t.learner["init_seed"] for t in expand(grid, seeds=[0, 1, 2])
             if t.learner.get("init") == "randn"]
    assert again == seeds                                       # derived, not drawn
    fixed = [t for t in tasks if t.learner.get("init") != "randn"]
    reference = expand({**grid, "learners": ["pa", given]}, seeds=[0, 1, 2])
    assert [t.learner for t in fixed] == [t.learner for t in reference]
    assert len({t.learner["_target_"] + repr(t.learner.get("init")) for t in fixed}) == 2
    for task in fixed:
        assert "init_seed" not in task.learner


def test_a_grid_over_seeds_starts_each_randn_run_elsewhere(tmp_path):
    results = olbench.run_experiment(learner="perceptron", stream="separable", seeds=[0, 1, 2],
                                     overrides=["stream.n=30", "stream.d=3",
                                                "learner.init=randn"],
                                     output_dir=tmp_path, n_jobs=1, figures=False, quiet=True)
    table = results.table
    final = table.drop_duplicates(col.RUN_ID)
    assert final[col.LEARNER].nunique() == 3                    # init_seed in each name
    assert len(set(_final_weights(results).values())) == 3
    # but the seeds are replicates of one setting: one summary row over three runs
    summary = summary_table(table)
    assert len(summary) == 1 and int(summary["runs"].iloc[0]) == 3
    assert {display_name(n) for n in final[col.LEARNER]} == {"Perceptron (init=randn)"}


def test_the_budget_perceptron_draws_from_each_run_seed():
    grid = {"streams": ["separable"], "learners": [{"key": "budget_perceptron",
                                                    "params": {"seed": 5}}]}
    seeds = [t.learner["seed"] for t in expand(grid, seeds=[0, 1, 2])]
    assert len(set(seeds)) == 3 and 5 not in seeds


def test_a_run_from_a_file_is_a_new_run_when_the_file_changes(tmp_path):
    """Stored runs are reused by run id: one from ``init=path`` must not be reused once the
    file holds another vector."""
    path = tmp_path / "w0.txt"
    grid = {"streams": ["separable"],
            "learners": [{"key": "perceptron", "params": {"init": str(path)}}]}
    path.write_text("1 2 3\n")
    first, = expand(grid, seeds=[0])
    first_id = first.run_id
    path.write_text("1 2 4\n")
    second, = expand(grid, seeds=[0])
    assert first.learner == second.learner and first_id != second.run_id
    path.write_text("1 2 3\n")
    assert first.run_id == first_id
