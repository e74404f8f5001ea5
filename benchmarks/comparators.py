"""Hindsight comparator fit time against n and d, with the certified gap of each fit.

Cases (each fit cold, no disk cache, after one warm-up fit that compiles the numba kernels):

* ``hinge+ridge``: ``BestFixed(loss="hinge", ridge=1.0)`` on the issue's data
  (X = N(0, 1), y = sign(X w + 0.8 noise));
* ``hinge+ball``: ``BestFixed(loss="hinge", radius=0.5)`` (OGD's comparator), same data;
* ``max_margin``: ``MaxMargin()`` on ``make_stream("separable", gamma=0.01, R=1)``.

Prints a markdown table: case, n, d, seconds, solver, relative certified gap
(P - D) / max(1, |P|) (for max_margin: (gamma_upper - gamma) / gamma_upper). Usage::

    python benchmarks/comparators.py                  # the table of benchmarks/README.md
    python benchmarks/comparators.py --quick          # small sizes only
    python benchmarks/comparators.py --case max_margin --n 100000 --d 1000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from olbench.comparators import BestFixed, MaxMargin
from olbench.streams import make_stream

GRID = {
    "hinge+ridge": [(1_000, 10), (10_000, 10), (100_000, 10), (1_000, 100), (10_000, 100),
                    (100_000, 100), (10_000, 1000)],
    "hinge+ball": [(1_000, 10), (10_000, 10), (100_000, 10), (1_000, 100), (10_000, 100)],
    "max_margin": [(1_000, 10), (10_000, 10), (100_000, 10), (1_000, 100), (10_000, 100),
                   (100_000, 100), (10_000, 1000), (100_000, 1000)],
}
QUICK = [(500, 10), (2_000, 20)]


def data(case: str, n: int, d: int, seed: int = 0):
    if case == "max_margin":
        return make_stream("separable", n=n, d=d, gamma=0.01, R=1.0, seed=seed).materialize()
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    y = np.sign(X @ w + 0.8 * rng.normal(size=n))
    y[y == 0] = 1.0
    return X, y


def comparator(case: str):
    return {"hinge+ridge": BestFixed(loss="hinge", ridge=1.0),
            "hinge+ball": BestFixed(loss="hinge", radius=0.5),
            "max_margin": MaxMargin()}[case]


def run(case: str, n: int, d: int) -> dict:
    X, y = data(case, n, d)
    start = time.perf_counter()
    fit = comparator(case).fit(X, y, cache=None)
    seconds = time.perf_counter() - start
    if not fit.ok:
        return dict(case=case, n=n, d=d, seconds=seconds, solver="skip", gap=fit.skip_reason)
    if case == "max_margin":
        gap = (fit.info["gamma_upper"] - fit.info["gamma"]) / fit.info["gamma_upper"]
    else:
        gap = fit.gap / max(1.0, abs(fit.objective))
    return dict(case=case, n=n, d=d, seconds=seconds, solver=fit.info.get("solver"),
                gap=f"{gap:.1e}")


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", choices=sorted(GRID), action="append")
    ap.add_argument("--n", type=int)
    ap.add_argument("--d", type=int)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    cases = args.case or list(GRID)
    for case in cases:                     # warm-up: numba compilation, imports
        comparator(case).fit(*data(case, 50, 3), cache=None)
    print("| case | n | d | seconds | solver | relative gap |")
    print("| --- | ---: | ---: | ---: | --- | ---: |")
    rows = []
    for case in cases:
        sizes = [(args.n, args.d)] if args.n and args.d else QUICK if args.quick else GRID[case]
        for n, d in sizes:
            r = run(case, n, d)
            rows.append(r)
            print(f"| {case} | {n:,} | {d:,} | {r['seconds']:.2f} | {r['solver']} | {r['gap']} |",
                  flush=True)
    return rows


if __name__ == "__main__":
    main()
