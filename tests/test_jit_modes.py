"""The kernels run as plain Python (NUMBA_DISABLE_JIT=1, so coverage sees them) with the same
results, and compiled loops are loaded from numba's on-disk cache in a new process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, **env: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={**os.environ, **env}, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_exactness_suite_passes_without_jit():
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-header",
         "tests/test_learners_exact.py", "-k", "compiled_equals_naive and 0]"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout and "failed" not in result.stdout


CACHE_PROBE = """
import numpy as np, olbench
from olbench.kernels import pa
olbench.run(olbench.make_learner("pa"), np.eye(3), np.ones(3))
stats = pa.CLASSIFICATION.run_dense.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def test_compiled_loops_are_cached_across_processes():
    _python(CACHE_PROBE)                       # compiles (or already cached)
    hits = _python(CACHE_PROBE).strip()        # a new process must load, not compile
    assert hits == "1 0", f"cache hits, misses in a new process: {hits}"
