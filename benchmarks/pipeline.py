"""The cost of the harness around the compiled loop: start-up, per-run overhead of a grid,
and the speed-up of running a grid on several cores. Each measurement runs the ``olbench``
command in a fresh process, as a user does, into a temporary results folder.

1. **Start-up**: a one-run grid (Perceptron, n = 1,000, no comparator, no figures), cold
   (an empty numba cache: ``NUMBA_CACHE_DIR`` pointing at a new folder, so every loop it
   needs is compiled) and warm (the same folder again: loops loaded from the cache).
2. **Grid overhead**: a grid of ``--runs`` small runs (1,000 seeds of a 200-round Perceptron
   run, no comparator, no figures, one job): the command's wall time against the sum of its
   runs' own wall times (``wall_s`` in the results: stream, run, metrics) plus the warm
   start-up of step 1. Target: within 20 %.
3. **Speed-up**: a grid of ``--medium`` medium runs with one job and with two (loky).
   Target: >= 1.7x on 2 cores. A *medium run* here is PA-I on a separable stream of
   n = 1,000,000 rounds, d = 100, no comparator: about 4 s of work on one core (printed, the
   mean of the runs' ``wall_s``), and 16 of them: a grid long enough (about a minute on one
   core) that the one-off start of the two loky workers (each imports olbench and loads its
   compiled loops from the numba cache, about 2 s) is a small part of it, as it is for any
   grid worth running on two cores. The start-up of the workers is printed too (two jobs'
   wall time minus the warm start-up minus half the one-job grid's work). 8 runs of
   n = 200,000 (1 s each; the definition before) gave 1.06x: the workers' start-up was
   most of the parallel grid.

    python benchmarks/pipeline.py                # about 4 minutes on 2 idle cores
    python benchmarks/pipeline.py --runs 100 --medium 4 --medium-n 200000
    python benchmarks/pipeline.py --steps speedup  # steps 1 and 3

Timings mean something only on an otherwise idle machine; the script prints the load
average before and after. Not part of the pytest suite.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

TARGET_OVERHEAD = 1.2   # grid wall <= 1.2 x (sum of the runs' wall times + start-up)
TARGET_SPEEDUP = 1.7    # two jobs >= 1.7x faster than one, on 2 cores
STEPS = ("overhead", "speedup")
COMMAND = [sys.executable, "-c", "from olbench.cli import main; main()"]


def olbench(args: list[str], out: Path, env: dict[str, str] | None = None) -> float:
    """Run the command; return its wall time (s). Raises with its stderr if it fails."""
    start = time.perf_counter()
    done = subprocess.run([*COMMAND, *args, f"run.output_dir={out}", "run.figures=false",
                           "run.progress=false", "run.force=true", "run.name=bench"],
                          capture_output=True, text=True, env={**os.environ, **(env or {})})
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"olbench {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return seconds


def seeds(k: int) -> str:
    return "run.seeds=[" + ",".join(map(str, range(k))) + "]"


def run_walls(out: Path) -> pd.Series:
    (table,) = out.glob("*/bench/results.parquet")
    return pd.read_parquet(table).groupby("run_id")["wall_s"].first()


def main(argv=None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000, help="small runs in step 2")
    parser.add_argument("--medium", type=int, default=16, help="medium runs in step 3")
    parser.add_argument("--medium-n", type=int, default=1_000_000,
                        help="rounds of a medium run")
    parser.add_argument("--steps", nargs="+", default=list(STEPS), choices=STEPS,
                        help="steps 2 and 3 beside step 1 (always run: they use its warm "
                             "start-up)")
    args = parser.parse_args(argv)
    print(f"# Python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average "
          f"{os.getloadavg()[0]:.2f} at the start")
    found: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        one = ["learner=perceptron", "stream=separable", "stream.n=1000", "~comparator",
               "run.seeds=[0]", "run.n_jobs=1"]
        cache = {"NUMBA_CACHE_DIR": str(tmp / "numba")}
        found["cold_start_s"] = olbench(one, tmp / "cold", cache)  # and fills the cache
        found["warm_start_s"] = olbench(one, tmp / "warm", cache)
        print(f"start-up: cold {found['cold_start_s']:.1f} s (empty numba cache), warm "
              f"{found['warm_start_s']:.1f} s")
        if "overhead" in args.steps:
            overhead(args, tmp, found)
        if "speedup" in args.steps:
            speedup(args, tmp, found)
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")
    return found


def overhead(args, tmp: Path, found: dict[str, float]) -> None:
    """Step 2: the grid of small runs against its runs' own wall times plus start-up."""
    small = ["learner=perceptron", "stream=separable", "stream.n=200", "stream.d=5",
             "~comparator", seeds(args.runs), "run.n_jobs=1"]
    found["grid_s"] = olbench(small, tmp / "small")
    walls = run_walls(tmp / "small")
    assert len(walls) == args.runs, f"{len(walls)} runs in the results, not {args.runs}"
    found["runs_sum_s"] = float(walls.sum())
    ratio = found["grid_s"] / (found["runs_sum_s"] + found["warm_start_s"])
    found["overhead_ratio"] = ratio
    print(f"grid of {args.runs} small runs, one job: {found['grid_s']:.1f} s; its runs "
          f"{found['runs_sum_s']:.1f} s + start-up {found['warm_start_s']:.1f} s; ratio "
          f"{ratio:.2f} (target <= {TARGET_OVERHEAD}: "
          f"{'PASS' if ratio <= TARGET_OVERHEAD else 'MISS'}); "
          f"{1e3 * (found['grid_s'] - found['warm_start_s']) / args.runs:.1f} ms a run")


def speedup(args, tmp: Path, found: dict[str, float]) -> None:
    """Step 3: the grid of medium runs on one job and on two."""
    medium = ["learner=pa", "learner.variant=pa1", "stream=separable",
              f"stream.n={args.medium_n}", "stream.d=100", "~comparator", seeds(args.medium)]
    olbench([*medium[:3], "stream.n=1000", "stream.d=100", "~comparator", "run.seeds=[0]",
             "run.n_jobs=1"], tmp / "warmup")  # its loops compiled before any timing
    found["one_job_s"] = olbench([*medium, "run.n_jobs=1"], tmp / "one")
    work = float(run_walls(tmp / "one").sum())
    found["two_jobs_s"] = olbench([*medium, "run.n_jobs=2"], tmp / "two")
    found["speedup"] = found["one_job_s"] / found["two_jobs_s"]
    found["worker_start_s"] = found["two_jobs_s"] - found["warm_start_s"] - work / 2
    print(f"grid of {args.medium} medium runs (PA-I, n = {args.medium_n:,}, d = 100, "
          f"{work / args.medium:.1f} s a run on one job): one job {found['one_job_s']:.1f} s, "
          f"two jobs {found['two_jobs_s']:.1f} s (of which about "
          f"{found['worker_start_s']:.1f} s beyond start-up and half the work: the workers' "
          f"start); speed-up {found['speedup']:.2f}x (target >= {TARGET_SPEEDUP}x on 2 cores: "
          f"{'PASS' if found['speedup'] >= TARGET_SPEEDUP else 'MISS'})")


if __name__ == "__main__":
    main()
