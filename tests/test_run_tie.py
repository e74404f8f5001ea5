"""``run.tie``: one switch for how every learner's zero margins are counted (LIBOL counts
f_t >= 0 as +1 for all its algorithms, where olbench's default counts a zero margin as a
mistake, the Novikoff rule); mistake-driven learners must decide their updates by the same
rule, or they are refused before anything runs."""

from __future__ import annotations

import numpy as np
import pytest

import olbench
from olbench.harness.tasks import GridError, child_seed
from olbench.streams import make_stream

CELL = dict(stream={"key": "noisy", "n": 200, "flip_rate": 0.2}, seeds=[0, 1, 2, 3],
            figures=False, comparators=False, quiet=True, n_jobs=1)


def _final_mistakes(results) -> dict[int, float]:
    t = results.table
    final = t[t["t"] == t["t"].max()].drop_duplicates("run_id")
    return dict(zip(final["seed"], final["mistakes"]))


def test_libol_counting_spares_the_zero_margins_of_positive_rows(tmp_path):
    """PA's first round has w = 0: a mistake by default, none under run.tie=libol when the
    row is positive; the grid's counts equal olbench.run's under each rule, run by run."""
    default = olbench.run_experiment(learner="pa", output_dir=tmp_path, **CELL)
    libol = olbench.run_experiment(learner="pa", output_dir=tmp_path,
                                   overrides=["run.tie=libol"], **CELL)
    ours, theirs = _final_mistakes(default), _final_mistakes(libol)
    differs = 0
    for seed in CELL["seeds"]:
        X, y = make_stream("noisy", n=200, flip_rate=0.2,
                           seed=child_seed(seed, "stream")).materialize()
        trace = olbench.run(olbench.make_learner("pa"), X, y)
        assert ours[seed] == trace.n_mistakes
        assert theirs[seed] == olbench.run(olbench.make_learner("pa"), X, y,
                                           tie="libol").n_mistakes
        zero_positive = int(np.sum((trace.margins == 0) & (y > 0)))
        assert ours[seed] - theirs[seed] == zero_positive
        differs += zero_positive > 0
    assert differs                                   # some seed starts on a positive row
    assert set(default.table["run_id"]).isdisjoint(libol.table["run_id"])


def test_a_mistake_driven_learner_must_update_by_the_counting_rule(tmp_path):
    with pytest.raises(ValueError, match=r"run.tie=libol: learner perceptron decides its "
                                         r"updates by the novikoff tie rule; run it with "
                                         r"learner.libol=true"):
        olbench.run_experiment(learner="perceptron", output_dir=tmp_path,
                               overrides=["run.tie=libol"], **CELL)
    assert not (tmp_path / "single").exists()
    ok = olbench.run_experiment(learner={"key": "perceptron", "libol": True},
                                output_dir=tmp_path, overrides=["run.tie=libol"], **CELL)
    assert (ok.table["status"] == "ok").all()


def test_an_unknown_tie_rule_is_a_configuration_problem(tmp_path):
    with pytest.raises(ValueError, match=r"run.tie='sign': is not a tie rule: null \(each "
                                         r"learner's own\) or one of novikoff, libol"):
        olbench.run_experiment(learner="pa", output_dir=tmp_path,
                               overrides=["run.tie=sign"], **CELL)
    assert issubclass(GridError, ValueError)
