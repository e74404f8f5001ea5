"""Throughput of olbench's compiled protocol against hand-written and third-party peers.

For each (learner, d) the same dense stream (seeded Gaussian X, float64, C-contiguous;
labels sign(X u) with a fraction of them flipped so that updates keep happening) is fed to

* ``olbench run``   the whole :func:`olbench.run` call (input checks, label mapping, loop,
                    trace with per-round losses), wall time;
* ``olbench loop``  ``trace.time_s``: the compiled loop alone;
* ``hand loop``     a plain ``@numba.njit(cache=True, fastmath=False)`` loop written by hand
                    for the same rule (:mod:`throughput_hand`, no olbench code), doing the
                    same work per round (record the margin and the update flag, update in
                    place); its final state is asserted equal to olbench's;
* ``numpy loop``    a per-example Python loop of NumPy operations (``w @ x``, ``w += a * x``;
                    full covariances through BLAS's in-place ``dsymv``/``dsyr``, one BLAS
                    thread as olbench uses one core),
                    timed on the first ``--numpy-rows`` rows and scaled to ns/example;
* ``river``         ``learn_one`` over dict rows (the dicts are built before timing), on the
                    first ``--river-rows`` rows; Perceptron with its intercept learning rate
                    set to 0, ``PAClassifier(C=1, mode=1, learn_intercept=False)``, OGD as
                    ``LogisticRegression(optimizer=SGD(0.1), loss=Hinge(threshold=1), l2=0,
                    intercept_lr=0)``;
* ``sklearn``       one-pass ``fit`` on all n rows: ``Perceptron(fit_intercept=False,
                    shuffle=False, eta0=1, max_iter=1, tol=None)`` and ``SGDClassifier(
                    loss="hinge", penalty=None, learning_rate="pa1", eta0=1, ...)``; OGD
                    (hinge, constant step 0.1) as ``SGDClassifier(loss="hinge",
                    penalty=None, learning_rate="constant", eta0=0.1, ...)``.

Kernel PA-I (Gaussian kernel, h = sqrt(d) so that k(x, x') is about e^-1 between two rows)
runs on the first ``--kernel-n`` rows (default 20,000: its cost per round grows with the
support vectors, so the whole stream is O(n^2 d)) and for d <= ``--kernel-max-d``; its hand
loop and NumPy loop keep the support vectors in a preallocated n x d array. Neither river nor
scikit-learn has an online kernel Perceptron or PA (river's and scikit-learn's kernel tools
are batch SVMs or random-feature approximations, another computation): those cells are n/a.

The final weights of every peer are compared with olbench's on the same rows (``match``).
Times are medians over repeats, after one warm-up call (JIT compile or cache load).
Targets (from the issue): olbench loop <= 1.1x the hand loop; olbench run >= 300x faster
than river and >= 3x faster than scikit-learn's one-pass fit.

Run ``python benchmarks/throughput.py --help``. Not part of the pytest suite. This module is
the driver; the cases are in :mod:`throughput_cases`, the hand loops in :mod:`throughput_hand`,
the NumPy, river and scikit-learn peers in :mod:`throughput_peers`, the tables and the figure
in :mod:`throughput_report`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits
from throughput_cases import (
    CHAIN,
    COLUMNS,
    FULL,
    KERNEL,
    LABEL,
    RULES,
    Row,
    make_olbench,
    make_stream,
)
from throughput_hand import run_dot_pass, run_hand
from throughput_peers import (
    make_river,
    make_sklearn,
    river_weights,
    run_numpy,
    run_river,
    run_sklearn,
)
from throughput_report import (
    copy_bandwidth,
    draw,
    environment,
    format_checks,
    format_table,
    loadavg,
)

import olbench


def _close(a, b, rtol=1e-9, atol=1e-9) -> bool:
    return bool(np.allclose(a, b, rtol=rtol, atol=atol))


def _ns(seconds: float, rows: int) -> float:
    return 1e9 * seconds / rows


def bench_one(rule: str, X, y, args) -> Row:
    """One (rule, d): every competitor's ns/example, and its final weights against olbench's."""
    n, d = X.shape
    row = Row(rule, d, n)
    w_ol = _time_compiled(row, rule, X, y, args)
    _time_numpy(row, rule, X, y, args)
    _time_river(row, rule, X, y, args)
    _time_sklearn(row, rule, X, y, args, w_ol)
    return row


def _time_compiled(row: Row, rule: str, X, y, args):
    """olbench and the hand-written compiled loop (which must compute exactly the same thing):
    warm up (compile or load from cache), then alternate the two so that a change in the
    machine's load hits both alike. Returns olbench's final weights."""
    n, d = X.shape
    olbench.run(make_olbench(rule, d), X[:64], y[:64])
    run_hand(rule, X[:64], y[:64])
    run_dot_pass(X[:64])
    traces, walls, hand, chain, passes = [], [], [], [], []
    for _ in range(args.repeats):
        learner = make_olbench(rule, d)
        start = time.perf_counter()
        trace = olbench.run(learner, X, y)
        walls.append(time.perf_counter() - start)
        traces.append(trace)
        del trace
        hand.append(run_hand(rule, X, y))
        if rule in CHAIN:
            chain.append(run_hand(rule, X, y, blocked=False)[0])
        passes.append(run_dot_pass(X))
    trace = traces[-1]
    row.ns["olbench_run"] = _ns(statistics.median(walls), n)
    row.ns["olbench_loop"] = _ns(statistics.median(t.time_s for t in traces), n)
    row.ns["hand"] = _ns(statistics.median(h[0] for h in hand), n)
    row.ns["chain"] = _ns(statistics.median(chain), n) if chain else None
    row.ns["floor"] = _ns(8.0 * d / args.bandwidth, 1)  # bytes of X per example / bandwidth
    row.ns["dot_pass"] = _ns(statistics.median(passes), n)
    row.rows["olbench_run"] = row.rows["olbench_loop"] = row.rows["hand"] = n
    row.updates = trace.n_updates / n
    w_ol, A_ol = trace.state["w"], trace.state["A"]
    del traces
    _, w_hand, aux_hand = hand[-1]
    assert _close(w_hand, w_ol, 1e-12, 1e-12), f"hand loop != olbench ({rule}, d={d}): w"
    if aux_hand is not None:
        assert _close(aux_hand.reshape(A_ol.shape), A_ol, 1e-12, 1e-12), \
            f"hand loop != olbench ({rule}, d={d}): covariance"
    row.match["hand"] = "yes (1e-12)"
    return w_ol


def _time_numpy(row: Row, rule: str, X, y, args) -> None:
    """The plain Python + NumPy loop, on a prefix."""
    n, d = X.shape
    m = min(n, args.numpy_rows)
    ref = olbench.run(make_olbench(rule, d), X[:m], y[:m]).state["w"]
    timings = []
    with threadpool_limits(1):
        for _ in range(args.slow_repeats):
            seconds, w_np = run_numpy(rule, X[:m], y[:m])
            timings.append(seconds)
    row.ns["numpy"] = _ns(statistics.median(timings), m)
    row.rows["numpy"] = m
    row.match["numpy"] = "yes" if _close(w_np, ref) else "NO"


def _no_peer(row: Row, peer: str) -> None:
    """A peer without the rule: no time, nothing to compare."""
    row.ns[peer] = None
    row.match[peer] = "n/a"


def _time_river(row: Row, rule: str, X, y, args) -> None:
    """river, ``learn_one`` over dicts built before timing, on a prefix."""
    if make_river(rule) is None:
        return _no_peer(row, "river")
    n, d = X.shape
    m = min(n, args.river_rows)
    rows = [dict(enumerate(r)) for r in X[:m].tolist()]
    labels = (y[:m] > 0).tolist()
    ref = olbench.run(make_olbench(rule, d), X[:m], y[:m]).state["w"]
    timings = []
    for _ in range(args.slow_repeats):
        model = make_river(rule)
        timings.append(run_river(model, rows, labels))
    row.ns["river"] = _ns(statistics.median(timings), m)
    row.rows["river"] = m
    w_river, b_river = river_weights(model, d)
    row.match["river"] = "yes" if _close(w_river, ref) and b_river == 0.0 else "NO"


def _time_sklearn(row: Row, rule: str, X, y, args, w_ol) -> None:
    """scikit-learn's one-pass ``fit`` on all n rows."""
    if make_sklearn(rule) is None:
        return _no_peer(row, "sklearn")
    n = X.shape[0]
    run_sklearn(make_sklearn(rule), X[:64], y[:64])
    timings = []
    for _ in range(args.sklearn_repeats):
        model = make_sklearn(rule)
        timings.append(run_sklearn(model, X, y))
    row.ns["sklearn"] = _ns(statistics.median(timings), n)
    row.rows["sklearn"] = n
    row.match["sklearn"] = "yes" if _close(model.coef_.ravel(), w_ol) else "NO"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="ns/example of olbench.run vs a hand-written numba loop, a Python+NumPy "
                    "loop, river and scikit-learn, on the same dense stream.",
        epilog="Targets: olbench loop <= 1.1x hand loop; river >= 300x and scikit-learn >= 3x "
               "slower than olbench run. AROW and SOP full run only for d <= --full-max-d.")
    parser.add_argument("--n", type=int, default=200_000, help="stream length (default 200000)")
    parser.add_argument("--dims", type=int, nargs="+", default=[20, 100, 1000],
                        help="feature dimensions d (default: 20 100 1000)")
    parser.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES,
                        help="learners to run (default: all)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: n=5000, 1 repeat, small subsets (timings meaningless)")
    parser.add_argument("--repeats", type=int, default=7,
                        help="repeats for olbench and the hand loop, alternated (default 7)")
    parser.add_argument("--sklearn-repeats", type=int, default=5,
                        help="repeats for scikit-learn's fit (default 5)")
    parser.add_argument("--slow-repeats", type=int, default=3,
                        help="repeats for the numpy loop and river (default 3)")
    parser.add_argument("--numpy-rows", type=int, default=20_000,
                        help="rows the numpy loop is timed on (default 20000)")
    parser.add_argument("--river-rows", type=int, default=10_000,
                        help="rows river is timed on (default 10000)")
    parser.add_argument("--full-max-d", type=int, default=100,
                        help="largest d for full-matrix AROW and SOP (default 100)")
    parser.add_argument("--kernel-n", type=int, default=20_000,
                        help="rows the kernel learner runs on (default 20000)")
    parser.add_argument("--kernel-max-d", type=int, default=20,
                        help="largest d for the kernel learner (default 20)")
    parser.add_argument("--flip", type=float, default=0.1, help="label noise (default 0.1)")
    parser.add_argument("--seed", type=int, default=0, help="stream seed (default 0)")
    parser.add_argument("--figure", default=None,
                        help="also draw ns/example against d (log-log) into this PNG")
    args = parser.parse_args(argv)
    if args.quick:
        args.n = min(args.n, 5000)
        args.repeats = args.sklearn_repeats = args.slow_repeats = 1
        args.numpy_rows, args.river_rows = min(args.numpy_rows, 500), min(args.river_rows, 500)
    return args


def main(argv=None) -> list[Row]:
    args = parse_args(argv)
    args.bandwidth = copy_bandwidth(16 if args.quick else 256)
    print(environment())
    print(f"copy bandwidth {args.bandwidth / 1e9:.2f} GB/s (np.copyto, best of 5): the floor "
          f"of a pass over dense X is 8 d bytes / bandwidth per example")
    print(f"n = {args.n}, dims = {args.dims}, label noise {args.flip}, seed {args.seed}; "
          f"medians of {args.repeats} (olbench, hand), {args.sklearn_repeats} (sklearn), "
          f"{args.slow_repeats} (numpy, river)")
    print(f"numpy loop timed on the first {min(args.n, args.numpy_rows)} rows and river on the "
          f"first {min(args.n, args.river_rows)} rows, scaled to ns/example; everything else on "
          f"all {args.n} rows (the kernel learner: on the first {min(args.n, args.kernel_n)})",
          flush=True)
    rows = []
    for d in args.dims:
        X, y = make_stream(args.n, d, args.seed, args.flip)
        for rule in args.rules:
            if rule in FULL and d > args.full_max_d or rule in KERNEL and d > args.kernel_max_d:
                continue
            rows_used = args.kernel_n if rule in KERNEL else args.n
            start = time.perf_counter()
            rows.append(bench_one(rule, X[:rows_used], y[:rows_used], args))
            print(f"  {LABEL[rule]}, d={d}: {time.perf_counter() - start:.1f} s", file=sys.stderr,
                  flush=True)
        del X, y
    print(f"\nload average at the end: {loadavg()}")
    print("\nns/example (medians). Targets are judged on loop/hand (<= 1.1x) and on the whole "
          "olbench run call (river/run >= 300x, sklearn/run >= 3x); river/loop and "
          "sklearn/loop compare with the compiled loop alone\n")
    print(format_table(rows))
    print("\nfinal weights equal to olbench's on the same rows (allclose rtol=atol=1e-9 unless "
          "noted)\n")
    print(format_checks(rows))
    if args.figure:
        draw(rows, args.figure)
        print(f"\nfigure: {args.figure}")
    return rows


__all__ = ["COLUMNS", "LABEL", "RULES", "bench_one", "main", "parse_args"]

if __name__ == "__main__":
    main()
