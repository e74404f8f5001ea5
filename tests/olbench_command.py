"""The real ``olbench`` command in a subprocess, run from this tree (its PYTHONPATH), for the
corpora of bad configurations and run options (tests/test_bad_config_corpus.py,
tests/test_bad_results_folder.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUIET = ["run.n_jobs=1", "run.progress=false", "run.figures=false"]


def olbench(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from olbench.cli import main; main()", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
