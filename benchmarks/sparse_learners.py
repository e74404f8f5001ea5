"""The sparse learners at 2^16, 2^20 and 2^24 features: ns/example, error and density, beside
river, scikit-learn's ``SGDClassifier(penalty="l1")`` and Vowpal Wabbit on the same rows.

The stream: ``planted_sparse`` (olbench/streams/synthetic/sparse.py): n training rows and
``--test`` held-out rows of 50 non-zeros among d, labelled by a planted separator of 1,000
active features, 5 % of the labels flipped. Per tool and d:

* ``ns/example``  the training pass's time per row: olbench's compiled loop
                  (``trace.time_s``; the whole ``olbench.run`` call beside it), scikit-learn's
                  one-pass ``fit``, river's ``learn_one`` loop, VW's pass over its binary
                  cache (parse excluded; its text pass beside it);
* ``test error``  the final weights' error on the held-out rows (sign of w.x; VW: its
                  predictions with ``-t``); olbench also prints its progressive error (the
                  online mistakes / n);
* ``non-zeros``   the final weight vector's non-zero entries (VW: the entries of its
                  readable model).

olbench's lazy updates cost O(non-zeros) a row, so its ns/example should not grow with d
except through memory: w of 2^24 doubles is 128 MiB, far beyond the caches, and every
non-zero is a cache miss. The script fits log(ns/example) against log(d) per learner and
prints the slope (0: flat; 1: linear in d) and draws ``--figure``.

Rules differ between tools: scikit-learn's SGD with its L1 is Tsuruoka et al.'s cumulative
penalty, not truncated gradient; VW's ``--l1`` is truncated gradient on its adaptive,
normalised, invariant update and ``--ftrl`` McMahan et al.'s FTRL-Proximal on its own
defaults (alpha 0.005, beta 0.1): the same families, not the same computations, so their
rows are compared on error, density and cost, never on weights.

    python benchmarks/sparse_learners.py                     # n = 200,000 (~10 minutes)
    python benchmarks/sparse_learners.py --n 20000 --no-vw --no-river   # quick look
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from sparse import write_vw  # benchmarks/sparse.py: VW's text format

import olbench
from olbench.streams import make_stream

#: olbench's learners, each with an L1 (or L2) strength that keeps a few hundred weights
LEARNERS = {
    "truncated_gradient": {"loss": "logistic", "eta": 0.5, "gravity": 1e-4},
    "fobos": {"loss": "logistic", "eta": 0.5, "l1": 1e-4},
    "rda": {"loss": "logistic", "eta": 0.5, "l1": 1e-5},
    "adagrad": {"loss": "logistic", "eta": 0.5, "l1": 1e-4},
    "adagrad_dual": {"loss": "logistic", "eta": 0.5, "l1": 1e-5,
                     "composite": "dual_averaging"},
    "ftrl_proximal": {"loss": "logistic", "eta": 0.5, "l1": 1.0, "l2": 1.0},
    "pegasos": {"loss": "hinge", "l2": 1e-4},
    "ogd": {"loss": "logistic", "eta": 0.5},
}
L1_PEERS = 1e-5      # scikit-learn's alpha and VW's --l1 (per example, as theirs are)


def rows(d: int, n: int, test: int, seed: int = 0):
    stream = make_stream("planted_sparse", n=n + test, d=d, nnz=50, active=1000,
                         informative=5, flip_rate=0.05, seed=seed)
    X, y = stream.materialize()
    return X[:n], y[:n], X[n:], y[n:]


def error(w, X, y) -> float:
    return float(np.mean(np.where(X @ w >= 0.0, 1.0, -1.0) != y))


def bench_olbench(name, X, y, Xt, yt, repeats) -> dict:
    params = LEARNERS[name]
    key = "adagrad" if name == "adagrad_dual" else name
    olbench.run(olbench.make_learner(key, **params), X[:64], y[:64])   # compiled
    loops, walls = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        trace = olbench.run(olbench.make_learner(key, **params), X, y)
        walls.append(time.perf_counter() - start)
        loops.append(trace.time_s)
    w = trace.state["w"]
    return {"tool": f"olbench {name}", "ns": 1e9 * statistics.median(loops) / len(y),
            "run_ns": 1e9 * statistics.median(walls) / len(y), "test_error": error(w, Xt, yt),
            "progressive": trace.n_mistakes / len(y), "nonzero": int(np.count_nonzero(w))}


def bench_eager(X, y, Xt, yt) -> dict:
    """FOBOS written eagerly (every coordinate's proximal step on every row, numpy over the
    whole vector): the control that shows what a cost linear in d looks like. On the first
    2^27 / d rows only (it would take hours on all)."""
    params = LEARNERS["fobos"]
    eta, l1 = params["eta"], params["l1"]
    rows_used = max(8, min(len(y), 2**27 // X.shape[1]))
    w = np.zeros(X.shape[1])
    start = time.perf_counter()
    for t in range(rows_used):
        lo, hi = X.indptr[t], X.indptr[t + 1]
        cols, vals = X.indices[lo:hi], X.data[lo:hi]
        p = w[cols] @ vals
        step = eta / np.sqrt(t + 1)
        w[cols] -= step * (-y[t] / (1.0 + np.exp(y[t] * p))) * vals
        w = np.sign(w) * np.maximum(0.0, np.abs(w) - step * l1)
    seconds = time.perf_counter() - start
    return {"tool": "eager FOBOS, numpy", "rows": rows_used,
            "ns": 1e9 * seconds / rows_used, "test_error": error(w, Xt, yt),
            "nonzero": int(np.count_nonzero(w))}


def bench_sklearn(X, y, Xt, yt, repeats) -> dict:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import SGDClassifier

    def fit():
        model = SGDClassifier(loss="log_loss", penalty="l1", alpha=L1_PEERS, max_iter=1,
                              tol=None, shuffle=False, fit_intercept=False,
                              learning_rate="constant", eta0=0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            start = time.perf_counter()
            model.fit(X, y)
        return time.perf_counter() - start, model

    timings = [fit() for _ in range(repeats)]
    w = timings[-1][1].coef_.ravel()
    return {"tool": "sklearn SGDClassifier(l1)", "ns": 1e9 * statistics.median(
        t for t, _ in timings) / len(y), "test_error": error(w, Xt, yt),
        "nonzero": int(np.count_nonzero(w))}


def bench_river(X, y, Xt, yt, rows_used) -> dict:
    from river import linear_model, optim

    model = linear_model.LogisticRegression(
        optimizer=optim.FTRLProximal(alpha=0.5, beta=1.0, l1=1.0, l2=1.0), intercept_lr=0.0,
        l2=0.0)
    X, y = X[:rows_used], y[:rows_used]
    dicts = [dict(zip(X.indices[X.indptr[t]:X.indptr[t + 1]].tolist(),
                      X.data[X.indptr[t]:X.indptr[t + 1]].tolist())) for t in range(len(y))]
    start = time.perf_counter()
    for x, label in zip(dicts, y):
        model.learn_one(x, bool(label > 0))
    seconds = time.perf_counter() - start
    w = np.zeros(X.shape[1])
    for j, v in model.weights.items():
        w[j] = v
    return {"tool": "river FTRLProximal", "rows": rows_used, "ns": 1e9 * seconds / len(y),
            "test_error": error(w, Xt, yt), "nonzero": int(np.count_nonzero(w))}


def bench_vw(name, extra, files, d, n, repeats) -> dict:
    from vowpalwabbit import pyvw

    train, test, cache, model, readable, preds = files
    bits = int(np.ceil(np.log2(d))) + 1        # numeric names hash to themselves: no clash
    base = f"--quiet --noconstant -b {bits} --loss_function logistic {extra}"

    def once(args):
        start = time.perf_counter()
        workspace = pyvw.Workspace(args)
        workspace.finish()
        return time.perf_counter() - start

    text = statistics.median(once(f"{base} -d {train}") for _ in range(repeats))
    once(f"{base} -d {train} -c --cache_file {cache} -k")                  # writes the cache
    cached = statistics.median(once(f"{base} -d {train} -c --cache_file {cache}")
                               for _ in range(repeats))
    once(f"{base} -d {train} -f {model} --readable_model {readable}")
    once(f"--quiet -t -i {model} -d {test} -p {preds}")
    predictions = np.loadtxt(preds)
    labels = np.array([float(line.split(" ", 1)[0]) for line in open(test)])
    # the readable model's weight lines are "<index>:<weight> <adaptive> <normaliser>"
    found = re.findall(r"^\d+:(\S+)", open(readable).read(), flags=re.MULTILINE)
    nonzero = sum(1 for weight in found if float(weight) != 0.0)
    return {"tool": f"vw {name}", "ns": 1e9 * cached / n, "run_ns": 1e9 * text / n,
            "test_error": float(np.mean(np.where(predictions >= 0.0, 1.0, -1.0) != labels)),
            "nonzero": nonzero}


def slope(dims, values) -> float:
    return float(np.polyfit(np.log(dims), np.log(values), 1)[0])


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200_000)
    parser.add_argument("--test", type=int, default=20_000)
    parser.add_argument("--log2-dims", type=int, nargs="+", default=[16, 20, 24])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--river-rows", type=int, default=50_000)
    parser.add_argument("--no-vw", action="store_true")
    parser.add_argument("--no-river", action="store_true")
    parser.add_argument("--figure", default=str(Path(__file__).with_name("sparse_learners.png")))
    args = parser.parse_args(argv)
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; n = {args.n:,} rows of 50 non-zeros, "
          f"{args.test:,} held out; medians of {args.repeats}")
    print("| tool | d | ns/example (training) | run ns/example | test error | progressive "
          "error | non-zeros |\n|---|---|---|---|---|---|---|")
    results = []
    for log2 in args.log2_dims:
        d = 2 ** log2
        X, y, Xt, yt = rows(d, args.n, args.test)
        found = [bench_olbench(name, X, y, Xt, yt, args.repeats) for name in LEARNERS]
        found.append(bench_eager(X, y, Xt, yt))
        found.append(bench_sklearn(X, y, Xt, yt, args.repeats))
        if not args.no_river:
            found.append(bench_river(X, y, Xt, yt, min(args.river_rows, args.n)))
        if not args.no_vw:
            with tempfile.TemporaryDirectory() as tmp:
                files = [Path(tmp) / name for name in ("train.vw", "test.vw", "train.cache",
                                                       "model", "readable", "preds")]
                write_vw(X, y, files[0])
                write_vw(Xt, yt, files[1])
                for name, extra in (("--l1", f"--l1 {L1_PEERS}"),
                                    ("--ftrl --l1", f"--ftrl --l1 {L1_PEERS}")):
                    found.append(bench_vw(name, extra, files, d, args.n, args.repeats))
        for row in found:
            row["d"] = d
            run_ns = f"{row['run_ns']:,.0f}" if "run_ns" in row else ""
            progressive = f"{row['progressive']:.4f}" if "progressive" in row else ""
            rows_used = f" ({row['rows']:,} rows)" if "rows" in row else ""
            print(f"| {row['tool']}{rows_used} | 2^{log2} | {row['ns']:,.0f} | {run_ns} | "
                  f"{row['test_error']:.4f} | {progressive} | {row['nonzero']:,} |")
        results += found
    if len(args.log2_dims) > 1:
        print("\nslope of log(ns/example) against log(d):")
        for tool in dict.fromkeys(r["tool"] for r in results):
            mine = [r for r in results if r["tool"] == tool]
            print(f"  {tool}: {slope([r['d'] for r in mine], [r['ns'] for r in mine]):+.3f}")
        draw(results, args.figure)
    return results


def draw(results, path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), layout="constrained")
    for tool in dict.fromkeys(r["tool"] for r in results):
        mine = [r for r in results if r["tool"] == tool]
        ax.plot([r["d"] for r in mine], [r["ns"] for r in mine], marker="o",
                linestyle="-" if tool.startswith("olbench") else "--", label=tool)
    ax.set(xscale="log", yscale="log", xlabel="features d", ylabel="ns per example (training)",
           title="Cost per example against d (50 non-zeros per row)")
    ax.set_xscale("log", base=2)
    ax.legend(fontsize=7, ncol=2)
    fig.savefig(path, dpi=150)
    print(f"figure: {path}")


if __name__ == "__main__":
    main()
