"""Time from ``olbench``'s start to its first run, for a single cell of many seeds.

Everything before the first run is overhead the user waits through: composing the
configuration, expanding the tasks (one per seed), checking them, fitting the comparators
before the runs (:mod:`olbench.harness.prefit`). This script runs the real command in this process,
with the grid's run loop replaced by a stop that prints the elapsed time (so no run is made
and nothing is written but the results folder's config):

    python benchmarks/many_seeds.py                # 20,000 seeds
    python benchmarks/many_seeds.py --seeds 2000

See benchmarks/README.md for the numbers measured.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20_000)
    args = parser.parse_args(argv)
    start, cpu = time.perf_counter(), time.process_time()
    import olbench.harness.grid as grid
    from olbench.cli import main as olbench

    elapsed = {}

    def stop(*_, **__):
        elapsed["s"] = time.perf_counter() - start
        elapsed["cpu"] = time.process_time() - cpu
        raise SystemExit(0)

    grid._compute = stop   # the loop that runs the tasks
    sys.argv = ["olbench", "learner=perceptron", "stream=separable", "stream.n=100",
                f"run.seeds=range({args.seeds})", "run.n_jobs=1", "run.progress=false",
                f"run.output_dir={tempfile.mkdtemp()}"]
    try:
        olbench()
    except SystemExit:
        pass
    print(f"{args.seeds} seeds: {elapsed['s']:.1f} s from the command's start to its first run "
          f"({elapsed['cpu']:.1f} s of CPU)")
    return elapsed["s"]


if __name__ == "__main__":
    main()
