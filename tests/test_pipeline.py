"""The one path of a run (olbench.pipeline): each component of a run built once, the
selection stage asked once, and the notebook API standing on the pipeline, not on the
command line."""

from __future__ import annotations

import collections
import functools
import subprocess
import sys

import pytest

import olbench
from olbench.comparators import BestFixed, MaxMargin
from olbench.learners.perceptron import Perceptron
from olbench.streams import Noisy, Separable

COUNTED = (Perceptron, Separable, Noisy, BestFixed, MaxMargin)


@pytest.fixture
def built(monkeypatch):
    """How many instances of each class of :data:`COUNTED` are made while the test runs
    (their own ``__init__`` called for an instance of exactly that class; an unpickled copy
    is not made)."""
    counts = collections.Counter()
    for cls in COUNTED:
        own = cls.__dict__["__init__"]

        @functools.wraps(own)   # the signature stays the class's: its parameter names
        def counting(self, *args, _own=own, _cls=cls, **params):
            counts[_cls.__name__] += int(type(self) is _cls)
            _own(self, *args, **params)

        monkeypatch.setattr(cls, "__init__", counting)
    return counts


def _quietly(tmp_path, extra=(), **arguments):
    """A run in this process (``run.backend=sequential``: every construction is counted
    here), without figures (drawn from the table after the runs)."""
    return olbench.run_experiment(**arguments, output_dir=tmp_path, figures=False, n_jobs=1,
                                  quiet=True, overrides=["run.backend=sequential", *extra])


def test_a_single_cell_builds_its_learner_stream_and_comparator_once_per_run(tmp_path, built):
    res = _quietly(tmp_path, learner="perceptron", stream="separable", seeds=[0, 1, 2],
                   **{"stream.n": 200, "stream.d": 3})
    assert res.status == 0 and res.table["run_id"].nunique() == 3
    # the checks before the runs built those of seed 0 and handed them to its run
    assert dict(built) == {"Perceptron": 3, "Separable": 3, "BestFixed": 3}


def test_a_grid_builds_each_learner_once_per_run_and_each_shared_fit_once(tmp_path, built):
    """Two streams x two learners x two seeds: 8 runs. A learner is built by its run only; a
    stream and its comparators also once per stream instance whose fit its two runs share
    (olbench.harness.prefit: 4 fit jobs), never more."""
    small = {"n": 300, "d": 3, "gamma": 0.1}
    grid = (f"grid.streams=[{{key: separable, params: {small}}},"
            f" {{key: noisy, params: {small}}}]").replace("'", "")
    res = _quietly(tmp_path, experiment="showcase", seeds=[0, 1],
                   extra=[grid, "grid.learners=[perceptron, pa]"])
    runs = res.table["run_id"].nunique()
    assert res.status == 0 and runs == 8
    fit_jobs = 2 * 2    # stream instances (2 streams x 2 seeds), each with 2 runs
    assert dict(built) == {"Perceptron": 4, "Separable": 4 + 2, "Noisy": 4 + 2,
                           "BestFixed": runs + fit_jobs, "MaxMargin": runs + fit_jobs}


def test_the_selection_stage_is_asked_once(tmp_path, monkeypatch):
    from olbench.harness import selection

    calls = []
    original = selection.select_grid

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(selection, "select_grid", counted)
    learners = "grid.learners=[{key: pa, name: PA-I, params: {variant: pa1}, select: {C: C}}]"
    res = _quietly(tmp_path, experiment="libol_table", seeds=[0], extra=[
        "grid.streams=[{key: noisy, params: {n: 200, d: 3}}]", learners,
        "~sections.libol_published",
        "run.cache_dir=null"])
    assert res.status == 0 and len(calls) == 1
    chosen = (res.folder / "selection.csv").read_text()
    assert "PA-I" in chosen and "## Parameter selection" in res.report.read_text()


def test_the_notebook_api_does_not_stand_on_the_command_line(tmp_path):
    code = ("import sys, olbench; res = olbench.run_experiment(learner='pa', "
            "stream='separable', seeds=[0], quiet=True, figures=False, n_jobs=1, "
            f"output_dir={str(tmp_path)!r}, **{{'stream.n': 50}}); "
            "print(res.status, 'olbench.cli' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-2:] == ["0", "False"]


def test_specs_become_objects_in_one_module_of_the_harness():
    """Hydra's ``instantiate`` (a spec made an object) is called by olbench.harness.run_one
    alone, of the harness and the front door; the rest reads specs and classes."""
    import ast
    from pathlib import Path

    package = Path(olbench.__file__).parent
    files = [*sorted((package / "harness").glob("*.py")),
             *(package / f"{name}.py" for name in ("pipeline", "cli", "api"))]
    callers = []
    for path in files:
        tree = ast.parse(path.read_text())
        names = {alias.asname or alias.name for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module == "hydra.utils"
                 for alias in node.names}
        if "instantiate" in names:
            callers.append(path.name)
    assert callers == ["run_one.py"]


def test_what_a_task_reads_of_a_learners_class_is_what_the_learner_says():
    """A task reads a learner's task, default loss and feasible set from its class
    (nothing built): for every configured learner (OGD with each of its losses) they are
    what the built learner says."""
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    from olbench.harness.tasks import CONF_DIR, component_class, params_of

    specs = [OmegaConf.to_container(OmegaConf.load(p))
             for p in sorted((CONF_DIR / "learner").glob("*.yaml"))]
    ogd = next(s for s in specs if s["_target_"].endswith(".OGD"))
    specs += [{**ogd, "loss": loss} for loss in ("logistic", "squared", "linear", "quadratic")]
    assert len(specs) > 30
    for spec in specs:
        cls, params = component_class(spec["_target_"]), params_of(spec)
        learner = instantiate(spec, _convert_="all")
        given = {**cls.param_defaults(), **params}
        assert (cls.task_for(params), cls.default_loss_for(params)) == (
            learner.task, learner.default_loss), spec["_target_"]
        assert cls.feasible_set(given) == (getattr(learner, "loss", "linear"),
                                           getattr(learner, "domain", "ball"),
                                           getattr(learner, "radius", 1.0)), spec["_target_"]
