"""The package's compiled code runs as plain Python (NUMBA_DISABLE_JIT=1, so coverage sees it)
with the same results, and compiled loops are loaded from numba's on-disk cache in a new
process."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, **env: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={**os.environ, **env}, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _imports(node) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return [alias.name for alias in node.names] if isinstance(node, ast.Import) else []


def compiled_modules() -> list[str]:
    """Every module of the package that holds compiled code (it imports numba, or
    olbench._jit), found by reading the sources, so that a new one joins the measure below
    by itself."""
    found = []
    for path in sorted((ROOT / "olbench").rglob("*.py")):
        modules = {m for node in ast.walk(ast.parse(path.read_text())) for m in _imports(node)}
        if any(m == "olbench._jit" or m.split(".")[0] == "numba" for m in modules):
            found.append(path.relative_to(ROOT).as_posix())
    return found


#: left out of the measure, with the reason: code that runs only while numba compiles, so
#: never without JIT: rules/lanes.py, which generates LLVM IR (tests/test_reductions.py
#: checks its output bit for bit), and the bodies of ``@overload`` functions, which choose
#: an implementation per argument type (without JIT the plain function they overload runs)
NOT_MEASURED = {"olbench/rules/lanes.py"}
COMPILE_TIME_ONLY = "[report]\nexclude_also =\n    @overload\\(\n"
#: the suites run without JIT: the learners' (exactness at one seed, the reductions, the
#: reading of numba's cache index (olbench/_jit.py), and of
#: the learner contract the zero rows, which reach the norms' guarded paths) and the
#: comparators' (their compiled solvers: dual coordinate ascent, the hard-margin corral),
#: without the two slowest solver tests, each a larger copy of a smaller one's path (at
#: scale; a9a, read from ../shared), and without the test of a CSR run's memory (what
#: olbench.run allocates around the loop, the same with JIT on or off). The rest of the
#: learner contract runs compiled in the suite itself; run again without JIT it cost more
#: than it showed (on one core: 137 s with all of it, 63 s with none of it but 95.6% instead
#: of 96.0% covered, rows.py 86%; 90 s and 96.0% with the zero rows).
SUITES = ["tests/test_learners_exact.py", "tests/test_reductions.py", "tests/test_jit_cache.py",
          "tests/test_learner_contract.py::test_zero_vectors_are_handled",
          "tests/test_comparators.py", "tests/test_solvers_best_fixed.py",
          "tests/test_solvers_chain.py", "tests/test_solvers_max_margin.py"]
DESELECTED = ("(not compiled_equals_naive or 0]) and not at_scale and not a9a "
              "and not a_csr_run_does_not_copy")


@pytest.mark.starts_first
def test_the_suites_pass_without_jit_and_cover_the_compiled_code(tmp_path):
    """As stumpy does: the compiled code as plain Python, so that coverage sees it. The
    suites above must pass and cover nearly every line of every module of the package that
    compiles code (the rules, and the comparators' solvers), together and each one (the
    README's development section quotes the figure). The measure runs over the whole
    package (``--source=olbench``) and the test prints its total too, but holds only the
    compiled modules to it: the rest of the package runs the same with JIT on or off, so
    what a run without JIT adds is the sight of the compiled code."""
    found = compiled_modules()
    assert NOT_MEASURED | {"olbench/rules/loop.py", "olbench/comparators/_dcd.py"} <= set(found)
    measured = [m for m in found if m not in NOT_MEASURED]
    data, rcfile = tmp_path / ".coverage", tmp_path / "coveragerc"
    rcfile.write_text(COMPILE_TIME_ONLY)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "COVERAGE_FILE": str(data),
           "COVERAGE_RCFILE": str(rcfile)}
    result = subprocess.run(
        [sys.executable, "-m", "coverage", "run", "--source=olbench", "-m", "pytest", "-q",
         "-p", "no:cacheprovider", "--no-header", *SUITES, "-k", DESELECTED],
        cwd=ROOT, capture_output=True, text=True, timeout=1800, env=env)
    assert result.returncode == 0, result.stdout[-3000:]
    assert " passed" in result.stdout and not re.search(r"\b\d+ failed", result.stdout)

    def report(*options):
        return subprocess.run([sys.executable, "-m", "coverage", "report", *options],
                              cwd=ROOT, capture_output=True, text=True, env=env,
                              timeout=60).stdout

    whole = float(report("--format=total", "--precision=1"))
    compiled = float(report("--format=total", "--precision=1",
                            f"--include={','.join(measured)}"))
    print(f"line coverage without JIT: {compiled:.1f}% of the {len(measured)} compiled "
          f"modules, {whole:.1f}% of the whole package")
    lines = report("--include=" + ",".join(measured)).splitlines()
    each = {line.split()[0]: float(line.split()[-1].rstrip("%")) for line in lines
            if line.startswith("olbench/")}
    assert compiled >= 95, report("-m", f"--include={','.join(measured)}")
    assert min(each.values()) >= 80, each


CACHE_PROBE = """
import numpy as np, olbench
from olbench.rules import pa
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
    from olbench.rules import perceptron

    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((20, 3)), np.where(rng.random(20) < 0.5, -1.0, 1.0)
    assert X.flags.writeable and y.flags.writeable
    learner = olbench.make_learner("perceptron")
    olbench.run(learner, X, y)
    olbench.run(learner, sp.csr_matrix(X), y)
    olbench.predict(learner, X)
    olbench.predict(learner, sp.csr_matrix(X))
    kernel = perceptron.RULE
    # the arguments each loop only reads: rows (X, or indptr, indices, data) and labels
    read = {kernel.run_dense: (4, 5), kernel.run_csr: (4, 5, 6, 7),
            kernel.predict_dense: (4,), kernel.predict_csr: (4, 5, 6)}
    for loop, positions in read.items():
        assert loop.signatures, loop
        for signature in loop.signatures:
            assert not any(signature[i].mutable for i in positions), signature
