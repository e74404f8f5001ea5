"""Hindsight comparator fit time against n and d, with the certified gap of each fit.

Cases (each fit cold, no disk cache, after one warm-up fit that compiles the numba rules):

* ``hinge+ridge``: ``BestFixed(loss="hinge", ridge=1.0)`` on the issue's data
  (X = N(0, 1), y = sign(X w + 0.8 noise));
* ``hinge+ball``: ``BestFixed(loss="hinge", radius=0.5)`` (OGD's comparator), same data;
* ``max_margin``: ``MaxMargin()`` on ``make_stream("separable", gamma=0.01, R=1)``.

Prints a markdown table: case, n, d, seconds, solver, relative certified gap
(P - D) / max(1, |P|) (for max_margin: (gamma_upper - gamma) / gamma_upper).

``--growth`` (issue 16) times what a study pays per run instead: ``best_fixed`` and
``prefix_best`` (20 log-spaced checkpoints) at d = 100 and n = 10^3, 10^4, 10^5 for the
studies' losses (hinge with ridge 1, logistic in the ball of radius 1, squared), the median
of ``--repeats`` cold fits; and, for ``best_fixed``, the second fit of the same data with
its rows permuted through a disk cache: the optimum does not depend on the row order, so
that fit is read back (cached by content), which is what the 20 permutations of one dataset
in a LIBOL-style table pay.
``prefix_best`` depends on the order and is never shared.

``--lp`` (issue 24) times the hinge best-fixed fit without ridge, a linear program, on real
datasets of the catalogue (a1a, a9a, w8a by default; ``../shared/data`` or
``$OLBENCH_DATA``): the dual LP olbench solves (d rows, :mod:`olbench.comparators._lp`)
against the epigraph LP it solved before (n rows), each cold and certified. Usage::

    python benchmarks/comparators.py                  # the table of benchmarks/README.md
    python benchmarks/comparators.py --quick          # small sizes only
    python benchmarks/comparators.py --case max_margin --n 100000 --d 1000
    python benchmarks/comparators.py --growth         # best_fixed / prefix_best against n
    python benchmarks/comparators.py --lp a9a         # the hinge LP on a9a, dual vs epigraph
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import numpy as np

from olbench.checkpoints import log_checkpoints
from olbench.comparators import BestFixed, MaxMargin, PrefixBest
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


#: the studies' losses, as (label, comparator parameters)
#: (the regret study's logistic comparator lives in the ball of radius 1: without it the
#: logistic loss has no minimiser on separable prefixes, and every early prefix is)
GROWTH_LOSSES = [("hinge+ridge (lam=1)", dict(loss="hinge", ridge=1.0)),
                 ("logistic (radius 1)", dict(loss="logistic", radius=1.0)),
                 ("squared", dict(loss="squared"))]
GROWTH_N = [1_000, 10_000, 100_000]


def growth_data(loss: str, n: int, d: int, seed: int = 0):
    """The hinge cases' recipe; regression targets y = X w + 0.5 noise for ``squared``."""
    X, y = data("hinge+ridge", n, d, seed)
    if loss == "squared":
        rng = np.random.default_rng(seed + 1)
        y = X @ rng.normal(size=d) + 0.5 * rng.normal(size=n)
    return X, y


def _median_seconds(repeats: int, fit, *args, **kw) -> tuple[float, object]:
    """The median seconds of ``repeats`` calls fit(*args, **kw), and the last result."""
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fit(*args, **kw)
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def growth(d: int = 100, sizes=GROWTH_N, repeats: int = 3) -> list[dict]:
    """best_fixed / prefix_best (20 checkpoints) seconds against n, and the cached refit."""
    print("| loss | n | d | best_fixed s | solver | permuted rows, cached s | "
          "prefix_best (20 checkpoints) s | repeats |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    rows = []
    for label, params in GROWTH_LOSSES:
        for n in sizes:
            X, y = growth_data(params["loss"], n, d)
            ks = log_checkpoints(n, 20)
            reps = repeats if n < 100_000 else 1
            best, fit = _median_seconds(reps, BestFixed(**params).fit, X, y, cache=None)
            with tempfile.TemporaryDirectory() as cache:
                BestFixed(**params).fit(X, y, cache=cache)
                perm = np.random.default_rng(1).permutation(n)
                cached, _ = _median_seconds(reps, BestFixed(**params).fit, X[perm], y[perm],
                                            cache=cache)
            prefix, pfit = _median_seconds(reps, PrefixBest(**params).fit, X, y,
                                           checkpoints=ks, cache=None)
            solver = fit.info.get("solver") if fit.ok else f"skip: {fit.skip_reason}"
            if not pfit.ok:
                solver += f"; prefix skip: {pfit.skip_reason}"
            row = dict(loss=label, n=n, d=d, best_fixed=best, solver=solver, cached=cached,
                       prefix_best=prefix, repeats=reps)
            rows.append(row)
            print(f"| {label} | {n:,} | {d} | {best:.3f} | {solver} | {cached:.3f} | "
                  f"{prefix:.2f} | {reps} |", flush=True)
    return rows


#: the datasets of ``--lp`` (catalogue names)
LP_DATASETS = ["a1a", "a9a", "w8a"]


def lp(cases, epigraph: bool = True, time_limit: float = 900.0) -> list[dict]:
    """Seconds, solver and certified relative gap of the hinge LP (no ridge) on each
    ``(label, X, y)`` of ``cases``, by the dual LP and (``epigraph``) the epigraph LP."""
    from olbench.comparators import _lp
    from olbench.comparators._duality import Limits

    limits = Limits(time=time_limit)
    ways = [("dual LP", _lp.dual_lp)] + ([("epigraph LP", _lp.epigraph_lp)] if epigraph else [])
    print("| data | n | d | LP | seconds | objective | relative gap |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    rows = []
    for label, X, y in cases:
        for way, solve in ways:
            start = time.perf_counter()
            s = solve(X, y, "hinge", 0.0, time.monotonic() + limits.time, limits)
            seconds = time.perf_counter() - start
            gap = s.gap / max(1.0, abs(s.objective))
            rows.append(dict(data=label, n=X.shape[0], d=X.shape[1], lp=way, seconds=seconds,
                             objective=s.objective, gap=gap, solver=s.info["solver"]))
            print(f"| {label} | {X.shape[0]:,} | {X.shape[1]:,} | {way} | {seconds:.2f} | "
                  f"{s.objective:.10g} | {gap:.1e} |", flush=True)
    return rows


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", choices=sorted(GRID), action="append")
    ap.add_argument("--n", type=int)
    ap.add_argument("--d", type=int)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--growth", action="store_true",
                    help="best_fixed / prefix_best against n for the studies' losses")
    ap.add_argument("--repeats", type=int, default=3, help="fits per cell of --growth "
                    "(the median is shown; 1 at n = 100,000)")
    ap.add_argument("--lp", nargs="*", metavar="DATASET",
                    help=f"the hinge LP on real data, dual vs epigraph (default: "
                         f"{' '.join(LP_DATASETS)})")
    ap.add_argument("--dual-only", action="store_true", help="--lp without the epigraph LP")
    args = ap.parse_args(argv)
    if args.lp is not None:
        cases = []
        for name in args.lp or LP_DATASETS:
            X, y = make_stream("dataset", name=name).materialize()
            cases.append((name, X, y))
        lp([("warm-up", *data("hinge+ridge", 50, 3))], epigraph=not args.dual_only)
        return lp(cases, epigraph=not args.dual_only)
    if args.growth:
        for _, params in GROWTH_LOSSES:          # warm-up: numba compilation, imports
            PrefixBest(**params).fit(*growth_data(params["loss"], 60, 3), checkpoints=[30, 60],
                                     cache=None)
        sizes = GROWTH_N[:2] if args.quick else GROWTH_N
        return growth(d=args.d or 100, sizes=sizes, repeats=args.repeats)
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
