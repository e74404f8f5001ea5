"""The bound atlas as a study (issue 30): the streams a witness is made of (chosen rows of a
generator's stream; a witness file as a stream), a grid block run once (its own seeds), the
study config written from the witnesses, and its report section on a real run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from olbench import make_learner
from olbench.analysis.study_sections import SectionInputs
from olbench.atlas import load
from olbench.harness.studies import study_module
from olbench.harness.tasks import GridError, expand
from olbench.streams import Rows, WitnessStream, make_stream

ROOT = Path(__file__).resolve().parents[1]
WITNESSES = ROOT / "experiments" / "bound_atlas" / "witnesses"
atlas = study_module("experiments/bound_atlas/atlas.py")


def test_chosen_rows_are_measured_on_the_rows_shown():
    inner = make_stream("separable", n=50, d=4, gamma=0.05, seed=3)
    X, y = inner.materialize()
    rows = [7, 7, 3, 0]
    s = Rows(stream=inner, rows=rows)
    Xs, ys = s.materialize()
    np.testing.assert_array_equal(Xs, X[rows])
    np.testing.assert_array_equal(ys, y[rows])
    assert s.meta.radius == pytest.approx(np.linalg.norm(X[rows], axis=1).max(), rel=1e-15)
    u = inner.meta.u / np.linalg.norm(inner.meta.u)
    assert s.meta.margin == pytest.approx((ys * (Xs @ u)).min(), rel=1e-12)
    assert s.meta.margin >= inner.meta.margin
    assert s.meta.extra["rows"].tolist() == rows


def test_chosen_rows_of_a_multiclass_stream_keep_its_classes_and_a_valid_margin():
    inner = make_stream("multiclass_separable", n=40, d=3, k=3)
    s = Rows(stream=inner, rows=[5, 1])
    assert s.meta.classes.tolist() == inner.meta.classes.tolist()
    assert s.meta.margin == inner.meta.margin     # a lower bound for any subset of the rows


@pytest.mark.parametrize("rows,message", [([], "non-empty list of row indices"),
                                          ([0.5], "row indices"),
                                          ([3, 50], "row index 50 is outside the 50 rows")])
def test_bad_rows_are_refused_by_name(rows, message):
    with pytest.raises(ValueError, match=message):
        Rows(stream=make_stream("separable", n=50, d=2), rows=rows).materialize()


def test_a_witness_file_is_a_stream_of_the_rows_it_was_found_on():
    path = WITNESSES / "arow_mistakes__arow__T100.json"
    witness = load(path)
    s = WitnessStream(file=str(path.relative_to(ROOT)))
    assert s.task == "classification" and s.meta.n == 100
    assert s.meta.fingerprint == witness.fingerprint
    assert s.meta.extra["witness"]["theorem"] == "arow_mistakes"
    assert s.display_name == "witness arow_mistakes__arow__T100"


def test_a_witness_whose_rows_changed_is_refused_naming_its_file(tmp_path):
    data = json.loads((WITNESSES / "novikoff__perceptron__T30.json").read_text())
    data["fingerprint"] = "0123456789abcdef"
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"changed.json: the stream .* no longer has the rows"):
        WitnessStream(file=str(changed)).materialize()


def test_a_witness_file_replaced_since_the_config_was_written_is_refused():
    path = "experiments/bound_atlas/witnesses/novikoff__perceptron__T30.json"
    with pytest.raises(ValueError, match=r"T30.json: the witness was found on rows \w+, not on "
                                         r"the rows 0123 asked for"):
        WitnessStream(file=path, witness_fingerprint="0123").materialize()
    assert WitnessStream(file=path, witness_fingerprint=load(ROOT / path).fingerprint).meta.n == 30


def test_a_block_may_run_once_with_its_own_seeds():
    grid = {"blocks": [{"streams": ["separable"], "learners": ["pa"], "seeds": [0]},
                       {"streams": ["separable"], "learners": ["perceptron"]}]}
    tasks = expand(grid, seeds=range(3))
    assert sorted((t.learner["_target_"].rsplit(".", 1)[1], t.seed) for t in tasks) == [
        ("PA", 0), ("Perceptron", 0), ("Perceptron", 1), ("Perceptron", 2)]
    with pytest.raises(GridError, match=r"grid.blocks\[0\].seeds=\[\]: is empty"):
        expand({"blocks": [{"streams": ["separable"], "learners": ["pa"], "seeds": []}]},
               seeds=[0])


def test_the_committed_config_is_the_one_the_witnesses_give():
    """Written by the search (--config): a witness added or removed without it fails here."""
    from olbench.atlas.study import experiment_config

    committed = (ROOT / "conf" / "experiment" / "bound_atlas.yaml").read_text()
    assert committed == experiment_config("experiments/bound_atlas/witnesses")


def test_the_study_config_passes_its_checks():
    from hydra import compose, initialize_config_dir

    from olbench.analysis.figures.registry import FIGURES
    from olbench.analysis.study_sections import section_problems
    from olbench.harness.studies import module_problems

    with initialize_config_dir(config_dir=str(ROOT / "conf"), version_base=None):
        cfg = compose(config_name="config", overrides=["experiment=bound_atlas"])
    assert module_problems(list(cfg.modules)) == []
    assert section_problems(cfg) == [] and "bound_atlas" in cfg.sections
    assert set(cfg.run.figures) <= set(FIGURES) and "bound_atlas" in cfg.run.figures
    files = [s.params.file for b in cfg.grid.blocks for s in b.streams if s.key == "witness"]
    assert sorted(Path(f).name for f in files) == sorted(p.name for p in WITNESSES.glob("*.json"))


def test_the_section_reproduces_each_witness_and_sets_it_beside_random_streams(tmp_path):
    """A real run of two witnesses (run once) and the Perceptron on random separable streams
    of the same horizons (three seeds): the ratios the runs measured are the witnesses'
    (to 1e-12), the random contrast is taken at the same T only."""
    import olbench
    from olbench.harness.grid import run_grid

    comparators = ["max_margin", {"key": "best_fixed", "params": {"loss": "hinge"}}]
    files = [f"experiments/bound_atlas/witnesses/novikoff__perceptron__T{T}.json"
             for T in (30, 100)]
    grid = {"blocks": [
        {"streams": [{"key": "witness", "params": {"file": f}} for f in files],
         "learners": ["perceptron"], "seeds": [0], "comparators": comparators},
        {"streams": [{"key": "separable", "params": {"n": T, "d": 5}} for T in (30, 100)],
         "learners": ["perceptron"], "comparators": comparators}]}
    run_grid(expand(grid, seeds=range(3), checkpoints=(30,)), tmp_path, n_jobs=1,
             backend="sequential", progress=False)
    folder = tmp_path / "witnesses"
    folder.mkdir()
    for f in files:
        (folder / Path(f).name).write_text((ROOT / f).read_text())
    lines = atlas.bound_atlas_section(SectionInputs(summary=None, folder=tmp_path,
                                                    options={"witnesses": str(folder)}))
    frame = pd.read_csv(tmp_path / "bound_atlas.csv")
    assert frame["T"].tolist() == [100, 30] and frame["reproduced"].all()
    assert frame["ratio"].tolist() == pytest.approx([1.0, 1.0], rel=1e-12)
    assert (frame["verdict"] == "attained").all()
    table = olbench.load_results(tmp_path).table
    rows = atlas.atlas_rows(table)
    random = rows[rows["kind"].eq("random") & rows["bound_name"].eq("novikoff")]
    assert sorted(random.groupby("t").size().items()) == [(30, 3), (100, 3)]
    assert frame["random_runs"].tolist() == [3, 3]
    assert frame["random_max"].tolist() == [
        random.loc[random["t"].eq(T), "ratio"].max() for T in (100, 30)]
    assert any("| `novikoff` | attained |" in line for line in lines)


def test_a_bound_random_streams_attain_too_is_said_to_be():
    assert atlas.verdict(1.0, random_max=1.0) == "attained, by random streams too"
    assert atlas.verdict(1.0, random_max=0.4) == "attained"
    assert atlas.verdict(0.91) == "nearly" and atlas.verdict(0.5) == "gap"


def test_the_learner_a_witness_names_declares_its_theorem():
    from olbench.bounds import declared

    for path in sorted(WITNESSES.glob("*.json")):
        w = load(path)
        learner = make_learner(w.learner["key"], **w.learner.get("params", {}))
        assert w.theorem in {t.name for t in declared(learner)}, path.name
