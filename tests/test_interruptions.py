"""Interruptions and damaged results lose nothing and leave nothing behind: corrupted run
files are named and recomputed, concurrent invocations share the work, SIGTERM is handled
like Ctrl-C, and no worker outlives its parent (real processes, real signals)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from olbench.harness import results
from olbench.harness.grid import run_grid, run_task
from olbench.harness.results import RunLocks, RunStore, read_results, verify
from olbench.harness.tasks import expand

ROOT = Path(__file__).resolve().parents[1]
GRID = {"streams": [{"key": "separable", "params": {"n": 300, "d": 3}}],
        "learners": ["perceptron", "pa"]}


def _tasks(seeds=(0, 1)):
    return expand(GRID, seeds=list(seeds), experiment="hardening", checkpoints=5)


def _values(table: pd.DataFrame) -> pd.DataFrame:
    """The table without timings (which differ between two computations of a run)."""
    drop = [c for c in table if c in ("time_s", "wall_s")]
    return table.drop(columns=drop).sort_values(["run_id", "t"]).reset_index(drop=True)


def _flip_a_byte(path: Path, at: float = 0.5) -> None:
    data = bytearray(path.read_bytes())
    data[int(len(data) * at)] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.fixture
def one_file_per_run(monkeypatch):
    """Save every run alone in its own file (no batching of runs that end close together)."""
    monkeypatch.setattr(results, "BATCH_SECONDS", 0.0)


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "no checksum"])
def test_a_corrupted_run_file_is_named_and_recomputed(tmp_path, capsys, damage,
                                                      one_file_per_run):
    tasks = _tasks()
    first = run_grid(tasks, tmp_path, n_jobs=1, backend="sequential", progress=False)
    store = RunStore(tmp_path)
    victim = store.path(tasks[1].run_id)
    untouched = {p: p.stat().st_mtime_ns for p in store.runs.glob("*.parquet") if p != victim}
    if damage == "flip a byte":
        _flip_a_byte(victim)
    elif damage == "truncate":
        victim.write_bytes(victim.read_bytes()[:-40])
    else:
        victim.with_suffix(".sha256").unlink()
    capsys.readouterr()
    again = run_grid(tasks, tmp_path, n_jobs=1, backend="sequential", progress=False)
    err = capsys.readouterr().err
    assert f"olbench: {victim}: " in err and "recomputed" in err
    assert err.count("olbench: ") == 1  # only the damaged file is named
    assert all(p.stat().st_mtime_ns == m for p, m in untouched.items())  # others trusted
    pd.testing.assert_frame_equal(_values(again), _values(first))
    assert RunStore(tmp_path).finished() == {t.run_id for t in tasks}


def test_a_corrupted_batch_file_is_named_recomputed_and_set_aside(tmp_path, capsys):
    tasks = _tasks()
    first = run_grid(tasks, tmp_path, n_jobs=1, backend="sequential", progress=False)
    store = RunStore(tmp_path)
    victim = store.path(tasks[1].run_id)
    held = {t.run_id for t in tasks if store.path(t.run_id) == victim}
    assert victim.name.startswith("batch-") and len(held) > 1  # runs saved together
    _flip_a_byte(victim)
    capsys.readouterr()
    again = run_grid(tasks, tmp_path, n_jobs=1, backend="sequential", progress=False)
    err = capsys.readouterr().err
    assert err.count("olbench: ") == 1 and f"olbench: {victim}: " in err
    pd.testing.assert_frame_equal(_values(again), _values(first))
    # rewritten whole by the same batch of runs, or (another batch) renamed to *.corrupt
    assert verify(victim) is None if victim.exists() else victim.with_suffix(".corrupt").exists()
    run_grid(tasks, tmp_path, n_jobs=1, backend="sequential", progress=False)
    assert "olbench: " not in capsys.readouterr().err  # named once, not at every run
    victim = store.path(tasks[1].run_id)
    fewer = [t for t in tasks if store.path(t.run_id) != victim or t is tasks[1]]
    _flip_a_byte(victim)  # then recompute only one of its runs: no file overwrites it
    run_grid(fewer, tmp_path, n_jobs=1, backend="sequential", progress=False)
    assert not victim.exists() and victim.with_suffix(".corrupt").exists()  # kept, not read
    assert RunStore(tmp_path).finished() == {t.run_id for t in fewer}


def test_a_finished_run_is_saved_while_the_next_one_still_runs(tmp_path):
    """The batch is written by a timer, not when the next run ends: a quick run followed by
    a long one is on disk (and its lock released) a batch period after it finished."""
    store, released = RunStore(tmp_path), []
    with results.RunBatch(store, saved=released.append, seconds=0.05) as batch:
        batch.add("quick", pd.DataFrame({"run_id": ["quick"], "status": ["ok"]}))
        deadline = time.time() + 30
        while not released and time.time() < deadline:  # "the long run" is still running
            time.sleep(0.01)
        assert released == ["quick"] and RunStore(tmp_path).finished() == {"quick"}
        batch.add("long", pd.DataFrame({"run_id": ["long"], "status": ["ok"]}))
    assert released == ["quick", "long"] and store.finished() == {"quick", "long"}


def test_merge_skips_a_corrupted_file_instead_of_crashing(tmp_path, one_file_per_run):
    tasks = _tasks(seeds=[0])
    run_grid(tasks, tmp_path, n_jobs=1, backend="sequential", progress=False)
    store = RunStore(tmp_path)
    _flip_a_byte(store.path(tasks[0].run_id), at=0.1)
    table = store.merge()
    assert set(table["run_id"]) == {tasks[1].run_id}
    assert "no longer match the checksum" in store.rejected[store.path(tasks[0].run_id)]


def test_a_corrupted_results_table_is_refused_by_name(tmp_path):
    run_grid(_tasks(seeds=[0]), tmp_path, n_jobs=1, backend="sequential", progress=False)
    _flip_a_byte(tmp_path / "results.parquet")
    with pytest.raises(ValueError, match=rf"{tmp_path / 'results.parquet'}: its bytes no longer "
                                         r"match .* run the same command again"):
        read_results(tmp_path)


def test_stale_temporary_files_are_removed(tmp_path):
    store = RunStore(tmp_path)
    store.runs.mkdir(parents=True)
    stale, fresh = store.runs / ".abc.parquet.x1.tmp", store.runs / ".def.parquet.x2.tmp"
    for path in (stale, fresh):
        path.write_bytes(b"half a file")
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    run_grid(_tasks(seeds=[0])[:1], tmp_path, n_jobs=1, backend="sequential", progress=False)
    assert not stale.exists() and fresh.exists()  # a live writer's file is left alone


def test_a_second_invocation_takes_the_free_runs_and_waits_for_the_held_one(tmp_path, capsys):
    """Another process (here: a lock held by the test) is computing one run: run_grid
    computes the others, says it waits, and takes that run's result without recomputing."""
    tasks = _tasks()
    held = tasks[2]
    other = RunLocks(RunStore(tmp_path))
    assert other.acquire(held.run_id)
    result = {}
    worker = threading.Thread(target=lambda: result.update(table=run_grid(
        tasks, tmp_path, n_jobs=1, backend="sequential", progress=False)))
    worker.start()
    store = RunStore(tmp_path)
    deadline = time.time() + 60
    while len(store.finished()) < 3 and time.time() < deadline:
        time.sleep(0.05)
    assert store.finished() == {t.run_id for t in tasks} - {held.run_id}
    assert worker.is_alive()  # waiting for the held run
    rows = run_task(held)
    store.save(held.run_id, rows)
    written = store.path(held.run_id).stat().st_mtime_ns
    other.release(held.run_id)
    worker.join(60)
    assert "waiting for 1 run(s) that another olbench process is computing" in \
        capsys.readouterr().err
    assert store.path(held.run_id).stat().st_mtime_ns == written  # not recomputed
    assert result["table"]["run_id"].nunique() == 4


# --------------------------------------------------------------------------- real signals
def _session_processes(sid: int) -> list[str]:
    out = subprocess.run(["ps", "-o", "pid=,cmd=", "-s", str(sid)], capture_output=True,
                         text=True).stdout
    return out.strip().splitlines()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "kill -9"])
def test_no_process_outlives_olbench(tmp_path, sig):
    """loky workers and resource trackers end with their parent, and close its stdout so a
    pipe reader is not left hanging; SIGTERM keeps the finished runs and exits 143. (Runs
    long enough that the grid is still running when the first batch of runs is saved.)"""
    cmd = [sys.executable, "-c", "from olbench.cli import main; main()", "learner=perceptron",
           "stream.n=2000000", "stream.d=5", "~comparator", "run.seeds=[0,1,2,3,4,5,6,7,8,9,10,11]",
           "run.n_jobs=2", "run.figures=false", "run.progress=false", "run.cache_dir=null",
           f"run.output_dir={tmp_path}"]
    process = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.time() + 120
        while not list(tmp_path.glob("single/*/runs/*.parquet")) and time.time() < deadline:
            assert process.poll() is None, process.communicate()[1][-2000:]
            time.sleep(0.05)
        assert len(_session_processes(process.pid)) >= 3  # olbench and its workers
        os.kill(process.pid, sig)
        _, err = process.communicate(timeout=30)  # returns once nobody holds the pipes
        deadline = time.time() + 10
        while _session_processes(process.pid) and time.time() < deadline:
            time.sleep(0.1)
        assert _session_processes(process.pid) == []
    finally:  # whatever failed above, leave nothing running
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    if sig == signal.SIGTERM:
        assert process.returncode == 143, err[-2000:]
        saved = len(RunStore(next(tmp_path.glob("single/*"))).finished())
        assert f"interrupted (SIGTERM): {saved} of 12 runs are saved" in err
