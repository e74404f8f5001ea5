"""A corpus of bad configurations and run options (issue 31), as a careless or hostile user
gives them: each is refused before anything runs, with exit status 2 and a message naming
the option, the value and what would work. Command-line cases run the real ``olbench`` in a
subprocess or, most of them, its entry point in this process (tests/olbench_command.py); the
Python API's cases call ``run_experiment``. A results folder that cannot be
written: tests/test_bad_results_folder.py."""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pytest
from olbench_command import QUIET, olbench, olbench_here

from olbench.api import overrides_for, run_experiment
from olbench.harness.task_checks import task_problems
from olbench.harness.tasks import single_cell
from olbench.harness.validate import seed_list


def _svmlight(path: Path, rows: int, features: int, labels, seed: int = 0) -> Path:
    """A file of ``rows`` svmlight rows over ``features`` features, labels drawn from
    ``labels``; written here, so that no test needs the shared data."""
    rng = np.random.default_rng(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{rng.choice(labels)} " + " ".join(
        f"{j}:{rng.random():.3f}" for j in range(1, features + 1)) + "\n" for _ in range(rows)))
    return path


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """A data folder of cards without a checksum (so their row counts are what is checked):
    australian (690 x 14, {-1,+1}) whole, housing (506 x 13, regression) whole."""
    root = tmp_path_factory.mktemp("data")
    _svmlight(root / "libsvm" / "australian", 690, 14, ["+1", "-1"])
    _svmlight(root / "libsvm" / "housing", 506, 13, ["21.5", "30.1", "12.0"])
    return root


# --------------------------------------------------------------------------- exit 2 cases
#: name -> (arguments, what stderr says); each is refused before anything runs, exit 2
CLI_CASES = {
    "experiment + learner= is ignored": (
        ["experiment=novikoff", "learner=pa"],
        "learner=pa: experiment novikoff runs its own grid, which this would not change; "
        "choose its learners with grid.learners=[pa]"),
    "experiment + stream.<param> is ignored": (
        ["experiment=novikoff", "stream.gamma=0.2"],
        "stream.gamma=0.2: experiment novikoff runs its own grid, which this would not change; "
        "choose its streams with grid.streams=[{key: separable, params: {gamma: 0.2}}]"),
    "experiment with blocks + learner=": (
        ["experiment=textbook_sugiyama", "learner=arow"],
        "choose its learners with grid.blocks.<i>.learners=[arow]"),
    "run.name climbs out of run.output_dir": (
        ["learner=pa", "run.name=../escaped"],
        "run.name='../escaped': must be one folder name, without '/' or '..'"),
    "a single cell's name climbs out of run.output_dir": (
        ["learner=pa", "name=../../escaped"],
        "name='../../escaped': must be one folder name, without '/' or '..'"),
    "a data folder that is a file": (
        ["stream=dataset", "stream.name=a1a", "run.data_dir={tmp}/../data_file"],
        "/data_file' exists and is not a folder"),
    "a budget that cannot fit, known from the configuration": (
        ["learner=budget_perceptron", "learner.budget=1000000000", "stream.n=300",
         "run.memory_limit=8GiB"],
        "learner budget_perceptron on stream separable: budget_perceptron keeps budget support "
        "vectors (11 numbers each): 179 GiB for budget=1,000,000,000 and 10 features, but "
        "memory_limit is 8 GiB"),
    "a covariance beyond run.memory_limit, known from the configuration": (
        ["learner=arow", "stream.d=100", "run.memory_limit=1KB"],
        "learner arow on stream separable: arow keeps a d x d covariance matrix: "),
    "an initial vector of another length than the stream's rows": (
        ["learner=pa", "stream.d=5", "learner.init=[1,2,3]"],
        "learner pa: init has 3 numbers but the stream has d = 5 features (stream separable)"),
    "an experts learner on gradients in [-G, G]": (
        ["learner=hedge", "stream=linear_losses", "stream.n=200"],
        "learner hedge learns from losses in [0, 1] but stream linear_losses has entries in "
        "[-1, 1]; use stream=experts, or a learner of such losses: eg, egpm"),
    "the weighted majority on the alternating stream": (
        ["learner=weighted_majority", "stream=alternating", "stream.G=2"],
        "learner weighted_majority learns from losses in [0, 1] but stream alternating has "
        "entries in [-2, 2]"),
    "an initial vector of another length than a dataset's rows (its card says 14)": (
        ["learner=pa", "stream=dataset", "stream.name=australian", "learner.init=[1,2,3]"],
        "learner pa: init has 3 numbers but the stream has d = 14 features (stream dataset)"),
    "a results name the command line reads as a number": (
        ["learner=pa", "name=123"],
        "name=123: must be text, but the command line read 123 as a number: quote it"),
    "a results name longer than a folder name may be": (
        ["learner=pa", "run.name=" + "x" * 300],
        "is 300 bytes long; a folder name may have at most 255"),
    "absolute run.name": (
        ["learner=pa", "run.name={tmp}/escaped"], "/escaped': must be one folder name"),
    "experiment name= is a path": (
        ["experiment=novikoff", "name=../x"], "name='../x': must be one folder name"),
    "run.scheduler without the dask backend": (
        ["learner=pa", "run.scheduler=tcp://127.0.0.1:8786"],
        "run.scheduler='tcp://127.0.0.1:8786': only run.backend=dask uses a scheduler "
        "(run.backend='loky')"),
    "a typo in a block's params": (
        ["experiment=textbook_sugiyama", "grid.blocks.0.learners.0.params.Cc=1"],
        "grid.blocks.0.learners.0.params.Cc=1: experiment textbook_sugiyama: learner pa has "
        "no parameter 'Cc' (did you mean C?)"),
    "a block index out of range": (
        ["experiment=textbook_sugiyama", "grid.blocks.9.learners=[pa]"],
        "grid.blocks has 5 entries (indices 0 to 4), so grid.blocks.9 does not exist"),
    "run.checkpoints beyond the stream's n": (
        ["learner=pa", "stream.n=100", "run.checkpoints=[50,5000]"],
        "run.checkpoints=[50, 5000]: round 5000 is beyond the 100 rounds of stream separable"),
    "init=randn for an OCO learner": (
        ["learner=ons", "learner.init=randn", "stream=linear_losses", "comparator=best_point"],
        "learner ons: ONS: init='randn' does not apply; an online-convex-optimisation "
        "learner plays w_1 = P_K(0)"),
    "a classification learner on a regression dataset": (
        ["learner=pa", "stream=dataset", "stream.name=housing"],
        "learner pa does classification but dataset housing is a regression stream"),
    "positive_label not among the dataset's labels": (
        ["stream=dataset", "stream.name=australian", "stream.positive_label=7"],
        "positive_label=7 is not a label of dataset 'australian': its labels are {-1,+1}"),
    "two experiments without -m": (
        ["experiment=novikoff,regret"],
        "experiment=novikoff,regret: several values run only as a multirun: add -m"),
    "a learner-name typo": (
        ["learner=percepton"], "learner=percepton: no learner 'percepton' (did you mean "
                               "perceptron?)"),
    "an experiment-name typo": (
        ["experiment=novikof"], "no experiment 'novikof' (did you mean novikoff?)"),
    "a dataset name in another case": (
        ["stream=dataset", "stream.name=A1A"], "unknown dataset 'A1A'; did you mean a1a?"),
}


@pytest.mark.parametrize("case", CLI_CASES)
def test_refused_before_anything_runs_with_exit_2(case, tmp_path, data_dir):
    arguments, message = CLI_CASES[case]
    arguments = [a.replace("{tmp}", str(tmp_path)) for a in arguments]
    (tmp_path.parent / "data_file").write_text("not a folder")
    out = olbench_here(*arguments, *QUIET, f"run.output_dir={tmp_path / 'out'}",
                       cwd=tmp_path, env={"OLBENCH_DATA": str(data_dir)})
    assert out.returncode == 2, out.stderr[-3000:]
    assert message in out.stderr, out.stderr[-3000:]
    assert "Traceback" not in out.stderr and "full_key" not in out.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "escaped").exists()


def test_a_single_cells_name_names_its_folder(tmp_path):
    """``name=`` was ignored for a single cell (its results went to single/<hash>)."""
    out = olbench_here("learner=pa", "stream.n=50", "name=mine", *QUIET,
                       f"run.output_dir={tmp_path / 'out'}", cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    folders = {p.name for p in (tmp_path / "out").iterdir() if p.is_dir()}
    assert "mine" in folders and "single" not in folders
    assert len(list((tmp_path / "out" / "mine").glob("*/results.parquet"))) == 1


def test_every_problem_is_said_at_once(tmp_path):
    out = olbench("learner=pa", "stream.n=100", "run.checkpoints=[5000]", "learner.C=-1",
                  "run.name=../x", "run.scheduler=tcp://a:1", "run.seeds=[0,0]", *QUIET,
                  f"run.output_dir={tmp_path}", cwd=tmp_path)
    assert out.returncode == 2, out.stderr[-3000:]
    assert "olbench: invalid configuration (4 problems):" in out.stderr
    for line in ("run.seeds=[0, 0]: lists a seed twice", "run.name='../x': ",
                 "run.scheduler='tcp://a:1': ", "learner pa: PA: invalid C=-1"):
        assert f"\n  {line}" in out.stderr, line
    # the checkpoints of a learner that cannot be built are not checked against its stream
    assert not any(tmp_path.iterdir())


def test_the_command_lines_problems_come_with_the_configurations(tmp_path):
    """A name Hydra could not compose is said together with the problems of the rest."""
    out = olbench_here("learner=percepton", "learner.C=2", "experiment=novikoff,regret",
                       "run.n_jobs=0", "run.name=../x", f"run.output_dir={tmp_path}", cwd=tmp_path)
    assert out.returncode == 2, out.stderr[-3000:]
    assert "olbench: invalid configuration (4 problems):" in out.stderr
    for line in ("learner=percepton: no learner 'percepton' (did you mean perceptron?)",
                 "experiment=novikoff,regret: several values run only as a multirun",
                 "run.n_jobs=0: must be a non-zero integer", "run.name='../x': "):
        assert f"\n  {line}" in out.stderr, line
    assert not any(tmp_path.iterdir())


def test_a_truncated_dataset_is_refused_naming_both_row_counts(tmp_path):
    _svmlight(tmp_path / "data" / "libsvm" / "australian", 3, 14, ["+1", "-1"])
    out = olbench_here("stream=dataset", "stream.name=australian", *QUIET,
                       f"run.output_dir={tmp_path / 'out'}", cwd=tmp_path,
                       env={"OLBENCH_DATA": str(tmp_path / "data")})
    assert out.returncode == 2, out.stderr[-3000:]
    assert re.search(r"australian: 3 data rows, but the catalogue's dataset 'australian' "
                     r"\(train part\) has 690 \(its sha256 is unknown", out.stderr)


def test_an_unreachable_dask_scheduler_is_one_line_after_the_timeout(tmp_path):
    start = time.perf_counter()
    out = olbench("learner=pa", "stream.n=50", "run.backend=dask",
                  "run.scheduler=tcp://127.0.0.1:1", "run.scheduler_timeout=1", *QUIET,
                  f"run.output_dir={tmp_path}", cwd=tmp_path)
    assert out.returncode == 2, out.stderr[-3000:]
    assert out.stderr.strip().splitlines()[-1].startswith(
        "olbench: no Dask scheduler at run.scheduler=tcp://127.0.0.1:1 within 1 s")
    assert "Traceback" not in out.stderr
    assert time.perf_counter() - start < 25   # Dask's own 30 s are not waited
    assert not (tmp_path / "single").exists()   # no folder for a run that never started


# --------------------------------------------------------------------------- the Python API
API_CASES = {
    "seeds=5": (dict(learner="pa", seeds=5), TypeError,
                "seeds=5: must be a list of seeds (integers), e.g. [5] for seed 5 or range(5)"),
    "seeds='01'": (dict(learner="pa", seeds="01"), TypeError,
                   "seeds='01': must be a list of seeds (integers)"),
    "a float seed": (dict(learner="pa", seeds=[0, 1.5]), TypeError,
                     "seeds: must be integers; 1.5 is a float"),
    "overrides='s'": (dict(overrides="s"), TypeError,
                      "overrides='s': must be a list of override strings"),
    "output_dir=3": (dict(output_dir=3), TypeError, "output_dir=3: must be a folder path"),
    "n_jobs='2'": (dict(n_jobs="2"), TypeError, "n_jobs='2': must be an integer"),
    "experiment + learner=": (dict(experiment="novikoff", learner="pa"), ValueError,
                              "choose its learners with grid.learners=[pa]"),
    "a learner-name typo": (dict(learner="percepton"), ValueError,
                            "did you mean perceptron?"),
}


@pytest.mark.parametrize("case", API_CASES)
def test_run_experiment_checks_its_arguments_at_the_door(case, tmp_path):
    kwargs, kind, message = API_CASES[case]
    kwargs = {"output_dir": str(tmp_path / "out"), **kwargs}
    with pytest.raises(kind, match=re.escape(message)):
        run_experiment(quiet=True, **kwargs)
    assert not (tmp_path / "out").exists()


def test_an_experiment_of_ones_own_folder_is_a_choice_and_its_typo_is_suggested(tmp_path):
    from olbench.harness.overrides import prepared

    (tmp_path / "experiment").mkdir()
    (tmp_path / "experiment" / "mine.yaml").write_text("# @package _global_\nname: mine\n")
    for extra in (["--config-dir", str(tmp_path)], [f"hydra.searchpath=[{tmp_path.as_uri()}]"]):
        assert prepared(["experiment=mine", *extra])[1] == []
        (problem,) = prepared(["experiment=mien", *extra])[1]
        assert problem.startswith("experiment=mien: no experiment 'mien' (did you mean mine?)")


# --------------------------------------------------------------------------- many seeds
def test_many_seeds_are_given_as_a_range_and_checked_once(monkeypatch):
    assert overrides_for(learner="pa", seeds=range(20000))[-1] == "run.seeds=range(0,20000,1)"
    assert seed_list("range(0,20000,1)") == list(range(20000))
    import olbench.harness.run_one as run_one  # where specs become objects

    built = []
    real = run_one.instantiate
    monkeypatch.setattr(run_one, "instantiate", lambda spec, **kw: built.append(
        spec["_target_"]) or real(spec, **kw))
    stream = {"_target_": "olbench.streams.synthetic.Separable", "n": 50, "seed": 0}
    learner = {"_target_": "olbench.learners.perceptron.Perceptron"}
    cell = single_cell(stream, learner, None, seeds=range(2000))
    built.clear()
    assert task_problems(cell) == []
    assert sorted(built) == sorted([stream["_target_"], learner["_target_"]])  # not 2 x 2000
