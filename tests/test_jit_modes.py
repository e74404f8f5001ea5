"""The kernels run as plain Python (NUMBA_DISABLE_JIT=1, so coverage sees them) with the same
results, and compiled loops are loaded from numba's on-disk cache in a new process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, **env: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={**os.environ, **env}, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_exactness_and_contract_suites_pass_without_jit_and_cover_the_kernels(tmp_path):
    """As stumpy does: the kernels as plain Python, so that coverage sees every rule. The
    exactness suite (one seed), the learner contract suite and the reductions' documented
    order must pass, and cover nearly every line of olbench/kernels (the README's
    development section quotes the figure). kernels/lanes.py is left out of the measure: it
    generates LLVM IR, which runs only while numba compiles (tests/test_reductions.py checks
    its output bit for bit in compiled runs)."""
    data = tmp_path / ".coverage"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "COVERAGE_FILE": str(data)}
    result = subprocess.run(
        [sys.executable, "-m", "coverage", "run", "--source=olbench/kernels",
         "--omit=olbench/kernels/lanes.py", "-m", "pytest",
         "-q", "-p", "no:cacheprovider", "--no-header", "tests/test_learners_exact.py",
         "tests/test_learner_contract.py", "tests/test_reductions.py",
         "-k", "not compiled_equals_naive or 0]"],
        cwd=ROOT, capture_output=True, text=True, timeout=900, env=env)
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout and not re.search(r"\b\d+ failed", result.stdout)
    report = subprocess.run([sys.executable, "-m", "coverage", "report", "--format=total"],
                            cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    total = float(report.stdout.strip())
    print(f"olbench/kernels line coverage without JIT: {total:.0f}%")
    assert total >= 95, subprocess.run([sys.executable, "-m", "coverage", "report", "-m"],
                                       cwd=ROOT, capture_output=True, text=True,
                                       env=env).stdout


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


def test_arrays_and_streams_share_one_compiled_loop():
    """A stream's data are read-only and a caller's arrays usually are not: numba compiles a
    loop per signature, so olbench.run hands every loop read-only rows and labels, and a run
    on arrays reuses the loop a run on a stream compiled (27 run loops were compiled twice
    in the test suite before)."""
    import numpy as np
    import scipy.sparse as sp

    import olbench
    from olbench.kernels import perceptron

    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((20, 3)), np.where(rng.random(20) < 0.5, -1.0, 1.0)
    assert X.flags.writeable and y.flags.writeable
    learner = olbench.make_learner("perceptron")
    olbench.run(learner, X, y)
    olbench.run(learner, sp.csr_matrix(X), y)
    olbench.predict(learner, X)
    olbench.predict(learner, sp.csr_matrix(X))
    kernel = perceptron.KERNEL
    # the arguments each loop only reads: rows (X, or indptr, indices, data) and labels
    read = {kernel.run_dense: (4, 5), kernel.run_csr: (4, 5, 6, 7),
            kernel.predict_dense: (4,), kernel.predict_csr: (4, 5, 6)}
    for loop, positions in read.items():
        assert loop.signatures, loop
        for signature in loop.signatures:
            assert not any(signature[i].mutable for i in positions), signature
