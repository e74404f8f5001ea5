"""A corpus of bad input, as a hostile user would give it: every case must be refused with a
message naming the parameter, the file and line, or the value -- never accepted with a wrong
number, never a bare traceback. An explicit table of cases (Python API, stream parameters,
file readers, configuration) plus property-based cases generated with hypothesis. Learner
hyper-parameters that break a rule's arithmetic: tests/test_bad_params_corpus.py."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from olbench_command import olbench_here
from omegaconf import OmegaConf

from olbench import make_learner, run
from olbench.checkpoints import log_checkpoints
from olbench.component import Interval
from olbench.harness.validate import config_problems
from olbench.streams import make_stream

X = np.array([[1.0, 0.5], [-1.0, 0.2], [0.8, 1.0], [0.1, -0.3]])
Y = np.array([1.0, -1.0, 1.0, -1.0])
INF, NAN = math.inf, math.nan

# --------------------------------------------------------------------------- the Python API
API_CASES = {
    "more labels than rows": (lambda: run(make_learner("pa"), X, np.r_[Y, 1.0]),
                              r"labels have shape \(5,\) but the features have 4 rows"),
    "fewer labels than rows, chunked": (lambda: run(make_learner("pa"), X, Y[:3], chunk_size=2),
                                        r"labels have shape \(3,\) but the features have 4"),
    "two labels in learn_one": (lambda: make_learner("pa").learn_one([1.0, 2.0], [1, -1]),
                                r"learn_one takes one label .* got 2 labels: \[1, -1\]"),
    "complex features": (lambda: run(make_learner("pa"), X + 1j, Y),
                         "features must be real numbers, got dtype complex128"),
    "complex row in learn_one": (lambda: make_learner("pa").learn_one(np.array([1 + 1j, 2]), 1),
                                 "features must be real numbers, got dtype complex128"),
    "complex sparse features": (lambda: run(make_learner("pa"), sp.csr_matrix(X + 1j), Y),
                                "features must be real numbers"),
    "zero features (d = 0)": (lambda: run(make_learner("perceptron"), np.empty((4, 0)), Y),
                              r"features have 0 columns \(d = 0\)"),
    "zero sparse features": (lambda: run(make_learner("pa"), sp.csr_matrix((4, 0)), Y),
                             r"features have 0 columns \(d = 0\)"),
    "chunk_size=-1": (lambda: run(make_learner("pa"), X, Y, chunk_size=-1),
                      r"chunk_size must be a positive integer or None, got -1"),
    "chunk_size=2.5": (lambda: run(make_learner("pa"), X, Y, chunk_size=2.5),
                       r"chunk_size must be a positive integer or None, got 2.5"),
    "chunk_size=0": (lambda: run(make_learner("pa"), X, Y, chunk_size=0),
                     r"chunk_size must be a positive integer or None, got 0"),
    "chunk_size=True": (lambda: run(make_learner("pa"), X, Y, chunk_size=True),
                        r"chunk_size must be a positive integer or None, got True"),
    "checkpoint -5": (lambda: run(make_learner("pa"), X, Y, checkpoints=[-5]),
                      r"checkpoints must be round counts T >= 1 \(integers\), got \[-5\]"),
    "checkpoint past the end": (lambda: run(make_learner("pa"), X, Y, checkpoints=[100]),
                                r"checkpoint 100 is past the last round \(4\)"),
    "log_checkpoints num=-5": (lambda: log_checkpoints(100, -5),
                               r"checkpoints must be an integer >= 1 .* got -5"),
    "a dict as a row": (lambda: make_learner("pa").learn_one({"a": 1.0}, 1),
                        r"single example must be a 1-D sequence .* got a dict: \{'a': 1.0\}"),
    "a string as a row": (lambda: make_learner("pa").learn_one("abc", 1),
                          r"got a str: 'abc'"),
    "a ragged row list": (lambda: run(make_learner("pa"), [[1.0, 2.0], [3.0]], [1, -1]),
                          "features must be a rectangular 2-D array"),
    "positional hyper-parameter": (lambda: make_learner("pa", 1.0),
                                   r"learner 'pa': hyper-parameters are passed by name, e\.g\. "
                                   r"pa\(C=1\.0\).*its parameters: C, variant"),
    "unknown hyper-parameter": (lambda: make_learner("pa", D=1.0),
                                r"learner 'pa' has no parameter D; its parameters: C, variant"),
    "C=inf": (lambda: run(make_learner("pa", C=INF), X, Y),
              r"PA: invalid C=inf; C must be a number in \(0, inf\)"),
    "eta=nan": (lambda: run(make_learner("perceptron", eta=NAN), X, Y),
                r"invalid eta=nan; eta must be a number in \(0, inf\)"),
    "r=inf": (lambda: run(make_learner("arow", r=INF), X, Y), r"invalid r=inf"),
    "a classification loss on a regression run": (
        lambda: run(make_learner("pa_regression"), X, 2.5 * Y, loss="hinge"),
        r"loss='hinge' is a classification loss \(of y_t p_t\) but PARegressor\[.*\] is a "
        r"regression learner"),
    "NaN label in learn_one": (lambda: make_learner("pa").learn_one([1.0, 2.0], NAN),
                               r"found labels not allowed: \[nan\]"),
}


@pytest.mark.parametrize("case", API_CASES)
def test_api_refuses_bad_input_naming_it(case):
    call, message = API_CASES[case]
    with pytest.raises((ValueError, TypeError), match=message):
        call()


# --------------------------------------------------------------------------- stream parameters
STREAM_CASES = [
    ("separable", {"R": INF}, r"Separable: invalid R=inf; R must be a number in \(0, inf\)"),
    ("separable", {"R": NAN}, "invalid R=nan"),
    ("separable", {"gamma": INF}, r"invalid gamma=inf; gamma must be a number in \[0, inf\)"),
    ("separable", {"n": 0}, r"invalid n=0; n must be an integer in \[1, inf\)"),
    ("separable", {"d": 2.5}, "invalid d=2.5"),
    ("separable", {"seed": -1}, "invalid seed=-1"),
    ("noisy", {"sigma": INF}, "Noisy: invalid sigma=inf"),
    ("noisy", {"flip_rate": 0.5}, r"invalid flip_rate=0.5; flip_rate must be a number in \[0, "),
    ("outliers", {"shift": INF}, r"Outliers: invalid shift=inf; shift must be a number in "
                                 r"\(-inf, inf\)"),
    ("drift", {"angle": -INF}, "Drift: invalid angle=-inf"),
    ("linear_regression", {"noise": INF}, "LinearRegression: invalid noise=inf"),
    ("sinc", {"high": INF}, "Sinc: invalid high=inf"),
    ("drift", {"n": 100, "mode": "switch", "switch_at": [2.5]},
     r"Drift: switch_at=\[2.5\] must be increasing rounds strictly between 0 and n=100"),
    ("separable", {"m": 3}, r"stream 'separable' has no parameter m; its parameters: R, bias"),
]


@pytest.mark.parametrize("key, params, message", STREAM_CASES,
                         ids=[f"{k}-{p}" for k, p, _ in STREAM_CASES])
def test_stream_parameters_are_checked_when_made(key, params, message):
    with pytest.raises((ValueError, TypeError), match=message):
        make_stream(key, **params)


# --------------------------------------------------------------------------- file readers
# (file name, bytes, stream key, parameters, message after "<path>")
FILE_CASES = [
    ("big31.svm", b"+1 1:1 2147483648:1\n-1 1:2\n", "libsvm", {},
     r":1: feature index too large .*line '\+1 1:1 2147483648:1'"),
    ("big63.svm", b"+1 1:1\n-1 1:1 9223372036854775808:1\n", "libsvm", {},
     r":2: feature index too large"),
    ("nan_label.svm", b"+1 1:1\nnan 1:2\n", "libsvm", {}, r":2: label is not a finite number"),
    ("inf_label.svm", b"+1 1:1\n-1 1:2\ninf 1:2\n", "libsvm", {},
     r":3: label is not a finite number"),
    ("half_label.svm", b"+1 1:1\n1.5 1:2\n", "libsvm", {},
     r":2: label 1.5 is not a class code \(for real-valued targets pass task=regression\)"),
    ("nan_target.svm", b"1.5 1:1\nnan 1:2\n", "libsvm", {"task": "regression"},
     r":2: target is not a finite number"),
    ("inf_feature.svm", b"+1 1:1\n-1 1:inf\n", "libsvm", {},
     r":2: feature value is not a finite number"),
    ("dup_header.csv", b"a,a,y\n1,2,1\n", "csv", {"label_column": "y"},
     r":1: the header names column\(s\) \['a'\] more than once"),
    ("inf.csv", b"a,b,y\n1,2,1\n1,inf,-1\n", "csv", {"label_column": "y"},
     r":3: column 'b': not a finite number: 'inf'"),
    ("huge.csv", b"a,b,y\n1,1e400,1\n", "csv", {"label_column": "y"},
     r":2: column 'b': not a finite number: '1e400'"),
    ("latin1_header.csv", "é,b,y\n1,2,1\n".encode("latin-1"), "csv", {"label_column": "y"},
     r":1: not UTF-8 text"),
    ("latin1_data.csv", "a,b,y\n1,2,1\n3,é,-1\n".encode("latin-1"), "csv",
     {"label_column": "y"}, r":3: not UTF-8 text"),
    ("nan_label.csv", b"a,b,y\n1,2,1\n3,4,nan\n", "csv", {"label_column": "y"},
     r":3: label is not a finite number"),
    ("half_label.csv", b"a,b,y\n1,2,1\n3,4,0.5\n", "csv", {"label_column": "y"},
     r":3: label 0.5 is not a class code"),
    ("ragged.csv", b"a,b,y\n1,2,1\n3,4\n", "csv", {"label_column": "y"},
     r":3: expected 3 fields \(a, b, y\), found 2"),
    ("multi.csv", b"a,y\n1,3\n2,1\n3,2\n", "csv", {"label_column": "y"},
     r": labels seen \{1, 2, 3\} are not a known binary coding"),
    ("numeric.csv", b"a,y\n1,3\n2,1\n3,2\n", "csv", {"label_column": "y", "positive_label": "x"},
     r": positive_label='x' is not among the labels seen \{1, 2, 3\}"),
    ("mixed.csv", b"a,y\n1,1\n2,M\n3,B\n", "csv", {"label_column": "y", "positive_label": "Q"},
     r": positive_label='Q' is not among the labels seen \{1, 'B', 'M'\}"),
]


@pytest.mark.parametrize("name, data, key, params, message", FILE_CASES,
                         ids=[c[0] for c in FILE_CASES])
def test_file_readers_name_the_file_and_line(tmp_path, name, data, key, params, message):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ValueError, match=re.escape(str(path)) + message):
        make_stream(key, path=str(path), **params).meta


CSV_PARAMETER_CASES = [
    ({"features": ["a", "y"]}, r"invalid features=\['a', 'y'\]; .* includes the label column 'y'"),
    ({"features": ["a", "a"]}, r"invalid features=\['a', 'a'\]; .* names \['a'\] twice"),
    ({"features": []}, r"invalid features=\[\]; the list of feature columns is empty"),
    ({"delimiter": ""}, r"invalid delimiter=''; delimiter must be one character"),
]


@pytest.mark.parametrize("params, message", CSV_PARAMETER_CASES)
def test_csv_parameters_that_would_learn_from_the_label(tmp_path, params, message):
    path = tmp_path / "ok.csv"
    path.write_text("a,b,y\n1,2,1\n3,4,-1\n")
    with pytest.raises(ValueError, match=message):
        make_stream("csv", path=str(path), label_column="y", **params)


def test_a_file_of_one_class_is_read_without_blaming_an_absent_positive_label(tmp_path):
    path = tmp_path / "negatives.svm"
    path.write_text("-1 1:1\n-1 1:2\n")
    stream = make_stream("libsvm", path=str(path))
    assert stream.materialize()[1].tolist() == [-1.0, -1.0]


@pytest.mark.parametrize("value, kind", [("hello", r"a string \(char array\)"),
                                         (np.array([[1, 2], [3]], dtype=object), "a cell array")])
def test_mat_variables_that_are_not_matrices_are_named(tmp_path, value, kind):
    path = tmp_path / "bad.mat"
    scipy.io.savemat(path, {"data": value})
    with pytest.raises(ValueError, match=rf"{re.escape(str(path))}: variable 'data' is {kind}, "
                                         r"not a real numeric matrix"):
        make_stream("mat", path=str(path)).meta


def test_sparse_mat_matrix_reads_as_its_dense_twin(tmp_path):
    data = np.array([[1.0, 3.0, 0.0, 4.0], [-1.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 2.0]])
    scipy.io.savemat(tmp_path / "dense.mat", {"data": data})
    scipy.io.savemat(tmp_path / "sparse.mat", {"data": sp.csc_matrix(data)})
    Xd, yd = make_stream("mat", path=str(tmp_path / "dense.mat"), bias=True).materialize()
    Xs, ys = make_stream("mat", path=str(tmp_path / "sparse.mat"), bias=True).materialize()
    assert sp.issparse(Xs)
    np.testing.assert_array_equal(Xs.toarray(), Xd)
    np.testing.assert_array_equal(ys, yd)
    assert ys.tolist() == [1.0, -1.0, 1.0]


# --------------------------------------------------------------------------- configuration
def _cfg(**run):
    base = {"n_jobs": -1, "backend": "loky", "batch_size": "auto", "seeds": [0],
            "checkpoints": 25, "output_dir": "results", "cache_dir": None, "force": False}
    return OmegaConf.create({"loss": None, "grid": None, "run": {**base, **run}})


CONFIG_CASES = [
    ({"n_jobs": 0}, "run.n_jobs=0: must be a non-zero integer"),
    ({"n_jobs": "abc"}, "run.n_jobs='abc': must be a non-zero integer"),
    ({"backend": "foo"}, "run.backend='foo': must be one of dask, loky, sequential, threading"),
    ({"backend": "multiprocessing"}, "run.backend='multiprocessing': must be one of dask, loky"),
    ({"batch_size": 0}, "run.batch_size=0: must be 'auto' or an integer >= 1"),
    ({"seeds": []}, "run.seeds=[]: is empty"),
    ({"seeds": [-1]}, "run.seeds=[-1]: seeds must be integers in [0, 2^63 - 1]; -1 is not"),
    ({"seeds": [0, 0]}, "run.seeds=[0, 0]: lists a seed twice"),
    ({"checkpoints": -5}, "run.checkpoints=-5: must be an integer >= 1"),
    ({"checkpoints": [100, 0]}, "run.checkpoints=[100, 0]: 0 is not a round"),
    ({"checkpoints": "many"}, "run.checkpoints='many': must be an integer >= 1"),
    ({"checkpoint_spacing": "cubic"},
     "run.checkpoint_spacing='cubic': must be one of log, linear"),
    ({"force": "yes"}, "run.force='yes': must be true or false"),
]


@pytest.mark.parametrize("run_options, line", CONFIG_CASES,
                         ids=[str(c[0]) for c in CONFIG_CASES])
def test_config_problems_name_the_option_and_value(run_options, line):
    (problem,) = config_problems(_cfg(**run_options))
    assert problem.startswith(line)


def test_config_folders_that_cannot_be_written(tmp_path):
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    problems = config_problems(_cfg(output_dir=str(a_file), cache_dir=str(a_file / "sub")))
    assert problems == [f"run.output_dir='{a_file}': '{a_file}' exists and is not a folder",
                        f"run.cache_dir='{a_file / 'sub'}': '{a_file}' is a file, so "
                        f"'{a_file / 'sub'}' cannot be created"]


def test_grid_seeds_and_loss_are_checked_too():
    cfg = _cfg()
    cfg.grid = {"seeds": ["a"]}
    cfg.loss = "hinj"
    assert config_problems(cfg) == [
        "grid.seeds=['a']: seeds must be integers in [0, 2^63 - 1]; 'a' is not",
        "loss='hinj': unknown loss 'hinj'; known losses: absolute, compression, "
        "epsilon_insensitive, hinge, logistic, multiclass_hinge, multiclass_squared_hinge, "
        "multiclass_zero_one, squared, squared_hinge, suffered, zero_one"]


def test_run_seeds_that_an_experiment_would_ignore_are_refused():
    cfg = _cfg(seeds=[3, 4])
    cfg.grid = {"seeds": [0, 1]}
    assert config_problems(cfg, ["experiment=novikoff", "run.seeds=[3,4]"]) == [
        "run.seeds=[3, 4]: this experiment declares its own grid.seeds=[0, 1], which is what "
        "would run; override grid.seeds instead"]
    assert config_problems(cfg, ["run.seeds=[3,4]"], single_cell=True) == []


def test_unknown_options_are_not_ignored():
    cfg = _cfg(n_job=3)
    cfg.colour = "red"
    problems = config_problems(cfg)
    assert problems[0].startswith("colour='red': unknown option; options: comparator, grid, ")
    assert problems[1].startswith("run.n_job=3: unknown option; run options: backend, ")
    assert "n_jobs" in problems[1] and len(problems) == 2


# --------------------------------------------------------------------------- properties
FAST = settings(max_examples=30, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(n=st.integers(1, 12), d=st.integers(1, 4), data=st.data(),
       bad=st.sampled_from([NAN, INF, -INF]))
def test_any_non_finite_feature_is_refused_naming_its_row(n, d, data, bad):
    rng = np.random.default_rng(n * 10 + d)
    X = rng.standard_normal((n, d))
    row = data.draw(st.integers(0, n - 1))
    X[row, data.draw(st.integers(0, d - 1))] = bad
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    with pytest.raises(ValueError, match=rf"a feature is NaN or infinite in row {row}\b"):
        run(make_learner("pa"), X, y)


@FAST
@given(n=st.integers(1, 10), extra=st.integers(-9, 9).filter(bool))
def test_any_label_count_but_one_per_row_is_refused(n, extra):
    if n + extra < 1:
        extra = 1
    with pytest.raises(ValueError, match=rf"labels have shape \({n + extra},\) but the features "
                                         rf"have {n} rows"):
        run(make_learner("perceptron"), np.ones((n, 2)), np.ones(n + extra))


@FAST
@given(value=st.one_of(st.sampled_from([NAN, INF, -INF]),
                       st.floats(allow_nan=False, allow_infinity=False)),
       low=st.floats(-10, 10), width=st.floats(0.1, 10))
def test_interval_accepts_exactly_the_finite_numbers_inside(value, low, width):
    interval = Interval(low, math.inf) if width > 5 else Interval(low, low + width)
    inside = math.isfinite(value) and interval.low <= value <= interval.high
    assert interval.check(value) == inside


@FAST
@given(lines=st.lists(st.tuples(st.sampled_from(["+1", "-1"]), st.integers(1, 5),
                                st.floats(-1e3, 1e3, allow_nan=False)), min_size=1, max_size=8),
       bad=st.sampled_from(["x", "nan", "1:2:3", "0.5:1"]), data=st.data())
def test_a_bad_token_in_any_svmlight_line_is_located(tmp_path_factory, lines, bad, data):
    text = [f"{y} {i}:{v!r}" for y, i, v in lines]
    where = data.draw(st.integers(0, len(text) - 1))
    text[where] = f"{text[where]} 6:{bad}" if bad in ("x", "nan") else f"{lines[where][0]} {bad}"
    path = tmp_path_factory.mktemp("svm") / "f.svm"
    path.write_text("\n".join(text) + "\n")
    with pytest.raises(ValueError, match=rf"{re.escape(str(path))}:{where + 1}: "):
        make_stream("libsvm", path=str(path)).meta


@FAST
@given(rows=st.lists(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6),
                               st.sampled_from(["1", "-1"])), min_size=1, max_size=8),
       bad=st.sampled_from(["inf", "-inf", "1e400", "abc", "", "nan"]), data=st.data())
def test_a_bad_cell_in_any_csv_row_is_located(tmp_path_factory, rows, bad, data):
    lines = [f"{a!r},{b!r},{y}" for a, b, y in rows]
    where = data.draw(st.integers(0, len(lines) - 1))
    a, _, y = rows[where]
    lines[where] = f"{a!r},{bad},{y}"
    path = tmp_path_factory.mktemp("csv") / "f.csv"
    path.write_text("a,b,y\n" + "\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=rf"{re.escape(str(path))}:{where + 2}: column 'b': "):
        make_stream("csv", path=str(path), label_column="y").meta


# --------------------------------------------------------------------------- the command
def test_cli_lists_every_config_problem_and_runs_nothing(tmp_path):
    out = olbench_here("learner=pa", "run.n_jobs=0", "run.backend=foo", "run.batch_size=0",
                       "run.seeds=[]", "run.checkpoints=-5", f"run.output_dir={tmp_path}",
                       cwd=tmp_path)
    assert out.returncode == 2, out.stderr[-2000:]
    assert "olbench: invalid configuration (5 problems):" in out.stderr
    for line in ("run.n_jobs=0: ", "run.backend='foo': ", "run.batch_size=0: ",
                 "run.seeds=[]: is empty", "run.checkpoints=-5: "):
        assert f"\n  {line}" in out.stderr, line
    assert "Traceback" not in out.stderr and not any(tmp_path.iterdir())


def test_cli_reports_a_grid_whose_runs_all_fail(tmp_path):
    missing = tmp_path / "missing.svm"
    out = olbench_here("stream=libsvm", f"stream.path={missing}", "run.seeds=[0,1,2]",
                       "run.n_jobs=1", "run.figures=false", "run.progress=false",
                       f"run.output_dir={tmp_path}", cwd=tmp_path)
    assert out.returncode == 1, out.stderr[-2000:]
    assert "Traceback" not in out.stderr and "nan on nan" not in out.stderr
    assert "every run FAILED" in out.stderr
    assert (f"3 of 3 runs FAILED (1 distinct error):\n  3 x error: FileNotFoundError: data file "
            f"not found: '{missing}'\n      first: run ") in out.stderr
    assert "(perceptron on libsvm, seed " in out.stderr
    (report,) = tmp_path.glob("single/*/report.md")
    text = report.read_text()
    assert "## Failed runs" in text and "3 of 3 runs failed, 1 distinct error(s)" in text
    assert f"data file not found: '{missing}' | 3 |" in text
