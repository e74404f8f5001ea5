"""The ``olbench`` command for the corpora of bad configurations and run options
(tests/test_bad_config_corpus.py, tests/test_bad_results_folder.py, ...): :func:`olbench`
runs the real command in a subprocess, from this tree (its PYTHONPATH); :func:`olbench_here`
calls the same entry point in this process, for the many refusals that need no process of
their own (each subprocess starts Python and imports olbench: 1.5-3 s a case)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUIET = ["run.n_jobs=1", "run.progress=false", "run.figures=false"]
#: the ``olbench`` command as a new process runs it, with this tree's olbench
OLBENCH = [sys.executable, "-c", "from olbench.cli import main; main()"]


def environment(env: dict | None = None) -> dict:
    """The environment of an ``olbench`` subprocess: this one, this tree first on the path,
    unbuffered output (a test reading the progress of a running grid sees it line by line)."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env or {})}


def olbench(*args: str, cwd: Path = ROOT, env: dict | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess:
    """``olbench *args`` run as a new process in ``cwd``."""
    return subprocess.run([*OLBENCH, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=environment(env))


def olbench_here(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """``olbench *args`` as :func:`olbench` runs it, but ``olbench.cli.main`` called here: the
    same exit status, standard output and error (``sys.exit("text")`` prints the text and
    exits 1, as Python does). The working folder, the environment and ``sys.argv`` are set
    for the call and restored after it. For refusals and short runs; whatever depends on the
    process itself (signals, pipes, a dying worker) keeps the subprocess."""
    from olbench.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_argv, saved_cwd = dict(os.environ), sys.argv[:], os.getcwd()
    status = 0
    try:
        os.environ.update(env or {})
        os.chdir(cwd)
        sys.argv = ["olbench", *args]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as stop:
                if isinstance(stop.code, str):
                    print(stop.code, file=sys.stderr)
                status = 1 if isinstance(stop.code, str) else (stop.code or 0)
    finally:
        os.chdir(saved_cwd)
        sys.argv = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["olbench", *args], status, out.getvalue(),
                                       err.getvalue())
