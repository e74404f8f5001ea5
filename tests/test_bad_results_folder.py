"""A results folder that cannot be written (issue 31): a full disk (the writer failing as one
does, and a real small tmpfs where this machine lets a test mount one), a read-only folder,
a reader that closes the pipe. Each is one line naming the folder and the cause, with every
finished run kept and the same command resuming to the same table."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from olbench_command import QUIET, ROOT, olbench, olbench_here

from olbench.analysis.failures import ResultsNotWritten
from olbench.api import run_experiment
from olbench.harness import checksums
from olbench.harness import results as results_module


def _table(folder: Path) -> pd.DataFrame:
    table = pd.read_parquet(folder / "results.parquet")
    keep = [c for c in table if c not in ("wall_s", "time_s")]
    return table[keep].sort_values(["run_id", "t"]).reset_index(drop=True)


def test_a_full_disk_keeps_the_finished_runs_and_the_same_command_resumes(tmp_path, monkeypatch):
    """The writer of every parquet file fails as a full disk does after two run files (each
    run's side file, written just before it, not counted: the third run's is on disk, its
    rows are not): the error is one message naming the folder and the cause; the saved runs
    are kept; the same call then finishes with the table of a run that never failed."""
    monkeypatch.setattr(results_module, "BATCH_SECONDS", 0.0)   # one file per run
    cell = dict(learner="pa", seeds=list(range(5)), quiet=True, n_jobs=1, figures=False,
                **{"stream.n": 80})
    written = []
    real = checksums.write_parquet_file

    def full_after_two(df, path):
        if Path(path).parent.name != "side":   # a run file, not its side file
            if len(written) == 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
            written.append(path)
        real(df, path)

    monkeypatch.setattr(checksums, "write_parquet_file", full_after_two)
    with pytest.raises(ResultsNotWritten) as refused:
        run_experiment(output_dir=str(tmp_path / "a"), **cell)
    (folder,) = (tmp_path / "a" / "single").iterdir()
    assert str(refused.value).startswith(f"cannot write the results in {folder}: No space "
                                         f"left on device (")
    assert "; 2 of 5 runs are saved there" in str(refused.value)
    monkeypatch.setattr(checksums, "write_parquet_file", real)
    resumed = run_experiment(output_dir=str(tmp_path / "a"), **cell)
    clean = run_experiment(output_dir=str(tmp_path / "b"), **cell)
    assert resumed.status == 0 and resumed.folder == folder
    pd.testing.assert_frame_equal(_table(resumed.folder), _table(clean.folder))


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def test_a_real_full_disk_is_one_line_and_resumes(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=48k", "tmpfs", str(disk)):
        pytest.skip("cannot mount a small tmpfs here (needs root); the full-disk path is "
                    "tested through the writer above")
    try:
        command = ["learner=pa", "stream.n=200", "run.seeds=range(40)", "run.cache_dir=null",
                   *QUIET]
        out = olbench(*command, f"run.output_dir={disk}", cwd=tmp_path)
        assert out.returncode == 1, out.stderr[-3000:]
        assert "Traceback" not in out.stderr
        (line,) = out.stderr.strip().splitlines()
        assert line.startswith(f"olbench: cannot write the results in {disk}/single/")
        assert "No space left on device" in line
        assert _mount("-o", "remount,size=8m", str(disk))
        again = olbench_here(*command, f"run.output_dir={disk}", cwd=tmp_path)
        clean = olbench_here(*command, f"run.output_dir={tmp_path / 'clean'}", cwd=tmp_path)
        assert again.returncode == 0 and clean.returncode == 0, again.stderr[-3000:]
        (folder,) = (disk / "single").iterdir()
        pd.testing.assert_frame_equal(_table(folder), _table(tmp_path / "clean" / "single" /
                                                             folder.name))
    finally:
        _mount_undo = subprocess.run(["umount", str(disk)], capture_output=True)
        assert _mount_undo.returncode == 0


def _read_only(folder: Path) -> str | None:
    """Make ``folder`` read-only for this process: permission bits for a user, a read-only
    bind mount for root (whom permission bits do not stop); how to undo it, or None."""
    if os.geteuid() != 0:
        for path in [folder, *folder.rglob("*")]:
            path.chmod(path.stat().st_mode & ~0o222)
        return "chmod"
    if _mount("--bind", str(folder), str(folder)) and _mount("-o", "remount,bind,ro",
                                                             str(folder)):
        return "umount"
    return None


def test_a_read_only_results_folder_is_one_line_and_resumes(tmp_path):
    command = ["learner=pa", "stream.n=80", "run.seeds=[0,1,2]", *QUIET,
               f"run.output_dir={tmp_path / 'out'}"]
    first = olbench_here(*command, cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-3000:]
    (folder,) = (tmp_path / "out" / "single").iterdir()
    before = _table(folder)
    undo = _read_only(folder)
    if undo is None:
        pytest.skip("root here cannot mount, and permission bits do not stop root")
    try:
        out = olbench(*command, "run.force=true", cwd=tmp_path)
    finally:
        if undo == "umount":
            subprocess.run(["umount", str(folder)], check=True)
        else:
            for path in [folder, *folder.rglob("*")]:
                path.chmod(path.stat().st_mode | 0o200)
    assert out.returncode == 2, out.stderr[-3000:]
    assert "Traceback" not in out.stderr
    (line,) = out.stderr.strip().splitlines()
    assert line.startswith(f"olbench: results folder {folder}: cannot write in")
    again = olbench_here(*command, cwd=tmp_path)
    assert again.returncode == 0 and "3 of 3 runs reused" in again.stdout
    pd.testing.assert_frame_equal(_table(folder), before)


def test_a_closed_pipe_ends_quietly(tmp_path):
    """``olbench ... | head -c 10``: the reader leaves; a traceback from the summary's print
    (BrokenPipeError) was what the user saw. The runs are saved; the status is SIGPIPE's."""
    command = (f"{sys.executable} -c 'from olbench.cli import main; main()' learner=pa "
               f"stream.n=50 {' '.join(QUIET)} run.output_dir={tmp_path / 'out'} | head -c 10")
    out = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, out.stderr
    assert out.returncode == 141
    assert len(list((tmp_path / "out" / "single").glob("*/results.parquet"))) == 1
