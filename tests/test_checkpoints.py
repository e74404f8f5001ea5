"""Checkpoint spacing: log (default), linear or explicit rounds, validated up front, listed
in --help/--list, and carried by the grid's tasks to the rows of the table."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from olbench import schema as col
from olbench.checkpoints import linear_checkpoints, log_checkpoints, make_checkpoints
from olbench.harness.grid import run_task
from olbench.harness.listing import listing
from olbench.harness.tasks import Task

DRIFT = {"_target_": "olbench.streams.Drift", "n": 400, "d": 3, "mode": "switch",
         "switch_at": [200], "seed": 0}
PERCEPTRON = {"_target_": "olbench.learners.perceptron.Perceptron"}


def test_linear_spacing_is_even_in_t_and_ends_at_n():
    ks = linear_checkpoints(4000, 25)
    assert ks.tolist() == list(range(160, 4001, 160))      # 4000 / 25 = 160 rounds apart
    log = log_checkpoints(4000, 25)
    assert (np.diff(log[log >= 1000]) > 300).all()         # log spacing: sparse late
    assert make_checkpoints(4000, 25, "linear").tolist() == ks.tolist()
    assert make_checkpoints(4000, 25).tolist() == log.tolist()


def test_explicit_rounds_are_kept_sorted_with_the_final_round_added():
    assert make_checkpoints(400, [300, 50, 50]).tolist() == [50, 300, 400]
    with pytest.raises(ValueError, match="round 500, beyond this stream's n=400"):
        make_checkpoints(400, [500])
    with pytest.raises(ValueError, match=r"run.checkpoint_spacing='cubic': must be one of"):
        make_checkpoints(400, 10, "cubic")


@pytest.mark.parametrize("checkpoints, spacing, expected", [
    (4, "linear", [100, 200, 300, 400]),
    ((10, 200, 399), "log", [10, 200, 399, 400]),
])
def test_a_task_measures_at_its_checkpoints(checkpoints, spacing, expected):
    task = Task("t", 0, DRIFT, PERCEPTRON, (), checkpoints, None, None, spacing)
    rows = run_task(task)
    assert (rows[col.STATUS] == col.OK).all()
    assert sorted(rows[col.T].unique()) == expected


def test_log_tasks_keep_their_run_ids_so_finished_runs_are_reused():
    task = Task("t", 0, DRIFT, PERCEPTRON, (), 25, None)
    spec = ["t", 0, DRIFT, PERCEPTRON, [], 25, None]       # the id before spacing existed
    old = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()
    assert task.run_id == old[:16]
    assert Task("t", 0, DRIFT, PERCEPTRON, (), 25, None, None, "linear").run_id != task.run_id


def test_spacing_is_listed_with_the_run_options():
    assert "checkpoint_spacing  log" in " ".join(listing("run").split("\n"))
