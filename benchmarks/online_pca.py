"""Online PCA (issue 29): olbench's online PCA learners beside scikit-learn's
``IncrementalPCA`` and a batch SVD recomputed at checkpoints, on the same rows.

Streams (rows uncentred; k = 5 unless ``--k``):

* ``low_rank``: n = ``--rows`` (20,000), d = ``--d`` (50), standard deviations
  (3, 2.5, 2, 1.5, 1.2) on a random k-dimensional basis, isotropic noise 0.5 (eigenvalues
  ... 1.69 | 0.25: a clear gap at k), zero mean;
* ``drifting_subspace``: the same spectrum on a basis turning steadily by pi/2 over the
  stream (``mode="rotate"``), zero mean;
* ``letter.scale`` (15,000 x 16, labels dropped) from ``../shared/data/libsvm`` (``--data``),
  read with ``sklearn.datasets.load_svmlight_file`` and centred once with the mean of all its
  rows, so that it is zero-mean as the synthetic streams are; skipped with a note if absent.

Methods, each over the whole stream once, BLAS limited to ``--threads`` (1) thread:

* olbench's learners (``olbench.run``, one compiled pass): ``pca_ftl``; ``brand_svd`` with
  threshold 0 and ``max_rank`` k (truncating), k + 3 and none (exact); ``oja`` with the
  step c / s, s the mean squared norm of the first 100 rows, ``schedule="inverse"``
  (c = 30) and ``"constant"`` (c = 0.03), both picked from a grid on these streams;
  ``pca_gd`` and ``pca_meg`` (when ``make_learner("pca_meg", ...)`` works) with the step
  that minimises their regret bounds (olbench.bounds.pca) for the stream's T, R = max
  ||x_t|| and, for MEG, L = the best fixed projection's loss: all known in hindsight.
  ``pca_ftl``, ``pca_gd`` and ``pca_meg`` hold d x d matrices (an eigendecomposition a row):
  skipped above ``--max-square-d``. Time: the wall time of a second ``run`` call, after a
  first one on 200 rows has compiled (or loaded) the rule. The subspaces at the checkpoints
  come from an untimed replay of the same run in segments (``reset=False``), checked to end
  where the timed run ended;
* ``IncrementalPCA(n_components=k, batch_size=B)`` fed by ``partial_fit`` in batches of B
  rows (``--batches``: 10 k and 500), its subspace ``components_`` (at a checkpoint inside
  a batch, the one after the last whole batch); time: the ``partial_fit`` calls alone. It
  centres the rows with its running mean (olbench's learners do not); on these zero-mean
  streams that is close to a no-op, and a note under each table gives its distance to the
  top-k of the centred rows too;
* ``numpy.linalg.svd`` of all rows seen so far, recomputed every ``--svd-every`` rows
  (n / 20): its time per row is the time of all those SVDs / n; its subspace at each
  checkpoint is the exact answer, the reference of every column below.

Columns: ``us/row``; its ratio to IncrementalPCA with the last batch size and to the
recomputed SVD; the sin-theta distance ||sin Theta(U, U*)|| (spectral norm,
sqrt(1 - sigma_min(U U*')^2)) between the method's subspace after t rows and U*, the
top-k right singular vectors of those t rows (uncentred), at t = n/20, n/4, n/2 and n;
for synthetic streams, the distance to the planted basis in force at the end; the
cumulative compression loss sum_t ||x_t - P_t x_t||^2 of the projection played before
each row (``pca_gd``/``pca_meg``: the mixture's expected loss x'Wx, what they record;
IncrementalPCA: each batch under the subspace before its ``partial_fit``, the recomputed
SVD: each block under the SVD of the rows before it, nothing played before the first:
play-before-see at batch granularity) and its excess over the best fixed rank-k
projection in hindsight (L*).

    python benchmarks/online_pca.py                   # the README table (about 3 minutes)
    python benchmarks/online_pca.py --quick           # small sizes, a check (< 30 s)
    python benchmarks/online_pca.py --rows 50000 --d 100 --no-real
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from olbench import make_learner, run
from olbench.paths import shared_data_dir
from olbench.streams import make_stream

SPECTRUM = (3.0, 2.5, 2.0, 1.5, 1.2)
NOISE = 0.5
#: Oja's step c / (mean squared norm of the first rows), per schedule
OJA = {"inverse": 30.0, "constant": 0.03}
#: the learners holding a d x d matrix (an eigendecomposition per row)
SQUARE = ("pca_ftl", "pca_gd", "pca_meg")
WARM_ROWS = 200


@dataclass
class Case:
    name: str
    X: np.ndarray
    k: int
    planted: np.ndarray | None = None       # the basis in force at the end (synthetic)
    notes: list[str] = field(default_factory=list)


@dataclass
class Result:
    method: str
    us_per_row: float
    subspaces: dict[int, np.ndarray]        # rows seen -> orthonormal rows (k x d)
    loss: float | None = None
    note: str = ""


# ----------------------------------------------------------------------------- measures
def sin_theta(U: np.ndarray, V: np.ndarray) -> float:
    """||sin Theta|| (spectral) between the row spaces of orthonormal U and V (k x d):
    sqrt(1 - sigma_min(U V')^2), computed as ||U' - V'V U'||_2, which keeps small angles
    (1 - sigma^2 cancels below about 1e-8)."""
    if U.shape[0] < V.shape[0]:
        return 1.0
    return float(min(1.0, np.linalg.norm(U - (U @ V.T) @ V, 2)))


def residual(X: np.ndarray, V: np.ndarray | None) -> float:
    """sum ||x - V'V x||^2 over the rows of X (V None: nothing projected, ||x||^2)."""
    R = X if V is None else X - (X @ V.T) @ V
    return float(np.einsum("ij,ij->", R, R))


# ----------------------------------------------------------------------------- streams
def cases(args) -> list[Case]:
    n, d, k = args.rows, args.d, args.k
    spectrum = SPECTRUM[:k] if k <= len(SPECTRUM) else np.linspace(3.0, 1.2, k)
    out = []
    low = make_stream("low_rank", n=n, d=d, spectrum=spectrum, noise=NOISE, seed=args.seed)
    out.append(Case(f"low_rank (n={n:,}, d={d}, spectrum={tuple(spectrum)}, noise={NOISE})",
                    low.materialize()[0], k, low.meta.u))
    turn = make_stream("drifting_subspace", n=n, d=d, spectrum=spectrum, noise=NOISE,
                       mode="rotate", angle=math.pi / 2, seed=args.seed + 1)
    out.append(Case(f"drifting_subspace (rotate by pi/2, n={n:,}, d={d}, same spectrum)",
                    turn.materialize()[0], k, turn.meta.u))
    path = Path(args.data) / "letter.scale"
    if args.no_real:
        pass
    elif path.is_file():
        from sklearn.datasets import load_svmlight_file
        X = load_svmlight_file(str(path), n_features=16)[0].toarray()
        if args.real_rows:
            X = X[:args.real_rows]
        mean_norm = float(np.linalg.norm(X.mean(axis=0)))
        X = X - X.mean(axis=0)
        out.append(Case(f"letter.scale (n={X.shape[0]:,}, d=16, centred)", X, k, None,
                        [f"letter.scale: its rows' mean (norm {mean_norm:.3f}) subtracted "
                         "once, before the stream"]))
    else:
        print(f"(no {path}: the real dataset is skipped)\n")
    return out


# ----------------------------------------------------------------------------- methods
def batch_svd(X: np.ndarray, k: int, checkpoints: list[int]) -> Result:
    """numpy's SVD of the rows seen, recomputed at each checkpoint (the reference)."""
    np.linalg.svd(X[:WARM_ROWS], full_matrices=False)          # BLAS warm-up
    seconds, loss, previous, V, subspaces = 0.0, 0.0, 0, None, {}
    for c in checkpoints:
        loss += residual(X[previous:c], V)       # the block, under the SVD before it
        start = time.perf_counter()
        V = np.linalg.svd(X[:c], full_matrices=False)[2][:k]
        seconds += time.perf_counter() - start
        subspaces[c], previous = V, c
    return Result("numpy svd, recomputed", seconds / len(X) * 1e6, subspaces, loss,
                  f"every {checkpoints[0]:,} rows")


def incremental_pca(X: np.ndarray, k: int, batch: int, checkpoints: list[int],
                    centred: np.ndarray) -> Result:
    from sklearn.decomposition import IncrementalPCA

    n = len(X)
    IncrementalPCA(n_components=k).partial_fit(X[:WARM_ROWS])   # imports, BLAS warm-up
    model = IncrementalPCA(n_components=k, batch_size=batch)
    starts = list(range(0, n, batch))
    if len(starts) > 1 and n - starts[-1] < k:       # partial_fit needs >= k rows a batch
        starts.pop()
    ends = starts[1:] + [n]
    seconds, loss, subspaces = 0.0, 0.0, {}
    for i, (a, b) in enumerate(zip(starts, ends)):
        loss += residual(X[a:b], getattr(model, "components_", None))
        start = time.perf_counter()
        model.partial_fit(X[a:b])
        seconds += time.perf_counter() - start
        following = ends[i + 1] if i + 1 < len(ends) else n + 1
        for c in checkpoints:
            if b <= c < following:
                subspaces[c] = model.components_.copy()
    note = (f"sin-theta to the top-{k} of the rows centred with their mean, at the end: "
            f"{sin_theta(model.components_, centred):.3g}")
    return Result(f"IncrementalPCA B={batch}", seconds / n * 1e6, subspaces, loss, note)


def learner_specs(X: np.ndarray, k: int, max_square_d: int, meg_ok: bool) -> list:
    """(label, registry key, parameters) of olbench's learners on X (module docs)."""
    n, d = X.shape
    m = d - k
    R2 = float(np.einsum("ij,ij->i", X, X).max())
    scale = float(np.einsum("ij,ij->i", X[:100], X[:100]).mean())
    specs = [("brand_svd max_rank=k", "brand_svd", {"max_rank": k}),
             (f"brand_svd max_rank={min(k + 3, d)}", "brand_svd", {"max_rank": min(k + 3, d)}),
             ("brand_svd exact (no ceiling)", "brand_svd", {}),
             *((f"oja {schedule}, eta={c:g}/s", "oja",
                {"eta": c / scale, "schedule": schedule, "seed": 0})
               for schedule, c in OJA.items())]
    if d <= max_square_d:
        # pca_gd: m (d - m)/(2 eta d) + eta T R^4 / 2 is least at this eta
        eta_gd = math.sqrt(m * (d - m) / (d * n * R2 * R2))
        specs.insert(0, ("pca_ftl", "pca_ftl", {}))
        specs.append((f"pca_gd eta={eta_gd:.2g}", "pca_gd", {"eta": eta_gd}))
        if meg_ok:
            # pca_meg: (eta R^2 L + m R^2 ln(d/m)) / (1 - e^(-eta R^2)) - L, L = L*
            s = np.linalg.svd(X, compute_uv=False)
            L = float(np.sum(s[k:] ** 2))
            grid = np.logspace(-8, 2, 4001) / R2
            bound = (grid * R2 * L + m * R2 * math.log(d / m)) / -np.expm1(-grid * R2) - L
            eta_meg = float(grid[np.argmin(bound)])
            specs.append((f"pca_meg eta={eta_meg:.2g}", "pca_meg", {"eta": eta_meg}))
    return specs


def olbench_learner(label: str, key: str, params: dict, X: np.ndarray, k: int,
                    checkpoints: list[int]) -> Result:
    learner = make_learner(key, k=k, **params)
    run(learner, X[:WARM_ROWS])                  # compiles (or loads) the rule: not timed
    start = time.perf_counter()
    trace = run(learner, X)
    seconds = time.perf_counter() - start
    final = learner.basis()
    replay, subspaces, previous = make_learner(key, k=k, **params), {}, 0
    for c in checkpoints:                        # the same run in segments, untimed
        run(replay, X[previous:c], reset=previous == 0)
        subspaces[c], previous = replay.basis(), c
    note = f"compiled loop {trace.time_s / len(X) * 1e6:.1f} us/row"
    drift = sin_theta(subspaces[checkpoints[-1]], final)
    if drift > 1e-9:
        note += f"; the replay in segments ends {drift:.2g} from the timed run's subspace"
    return Result(label, seconds / len(X) * 1e6, subspaces, float(trace.margins.sum()), note)


def meg_available() -> bool:
    try:
        run(make_learner("pca_meg", k=2, eta=0.1), np.eye(4)[:3] + 0.1)
    except Exception as error:   # not registered yet, or not working: skip it, say why
        print(f"(pca_meg skipped: make_learner('pca_meg', k=2, eta=...) failed: "
              f"{type(error).__name__}: {error})\n")
        return False
    return True


# ----------------------------------------------------------------------------- table
def checkpoint_rows(n: int, every: int) -> list[int]:
    return sorted({*range(every, n + 1, every), n})


def reported(checkpoints: list[int]) -> list[int]:
    """The checkpoints nearest n/20, n/4, n/2 and n."""
    n = checkpoints[-1]
    near = [min(checkpoints, key=lambda c, f=f: abs(c - f * n)) for f in (0.05, 0.25, 0.5)]
    return sorted({*near, n})


def fmt(value: float) -> str:
    return "0" if value == 0 else f"{value:.3g}" if abs(value) >= 1e-3 else f"{value:.1e}"


def print_table(case: Case, results: list[Result], reference: dict[int, np.ndarray],
                best: float, gap: float, load: tuple[float, float]) -> None:
    shown = reported(sorted(reference))
    ipca = [r for r in results if r.method.startswith("IncrementalPCA")][-1]
    svd = next(r for r in results if r.method.startswith("numpy svd"))
    n, d = case.X.shape
    print(f"### {case.name}, k = {case.k}\n")
    print(f"best fixed rank-{case.k} projection in hindsight: L* = {best:,.1f}; "
          f"lambda_{case.k} / lambda_{case.k + 1} of all rows = {gap:.2f}; "
          f"load average {load[0]:.1f} before, {load[1]:.1f} after\n")
    head = ["method", "us/row", f"/ IPCA {ipca.method.split()[-1]}", "/ SVD",
            *(f"sin at {c:,}" for c in shown)]
    if case.planted is not None:
        head.append("sin to planted (end)")
    head += ["cum. loss", "loss - L*"]
    print("| " + " | ".join(head) + " |")
    print("| --- |" + " ---: |" * (len(head) - 1))
    for r in results:
        cells = [r.method, f"{r.us_per_row:.1f}", f"{r.us_per_row / ipca.us_per_row:.2f}",
                 f"{r.us_per_row / svd.us_per_row:.2f}"]
        cells += [fmt(sin_theta(r.subspaces[c], reference[c])) if c in r.subspaces else "-"
                  for c in shown]
        if case.planted is not None:
            cells.append(fmt(sin_theta(r.subspaces[n], case.planted)))
        cells += ["-", "-"] if r.loss is None else [f"{r.loss:,.0f}", f"{r.loss - best:,.0f}"]
        print("| " + " | ".join(cells) + " |")
    print()
    for note in case.notes + [f"{r.method}: {r.note}" for r in results if r.note]:
        print(f"* {note}")
    print()


def bench(case: Case, args, meg_ok: bool) -> None:
    X, k = case.X, case.k
    n = len(X)
    load_before = os.getloadavg()[0]
    checkpoints = checkpoint_rows(n, args.svd_every or max(n // 20, 1))
    svd = batch_svd(X, k, checkpoints)
    centred = np.linalg.svd(X - X.mean(axis=0), full_matrices=False)[2][:k]
    results = [olbench_learner(label, key, params, X, k, checkpoints)
               for label, key, params in learner_specs(X, k, args.max_square_d, meg_ok)]
    results += [incremental_pca(X, k, B, checkpoints, centred)
                for B in (b if b > 0 else 10 * k for b in args.batches)]
    results.append(svd)
    s = np.linalg.svd(X, compute_uv=False)
    print_table(case, results, svd.subspaces, float(np.sum(s[k:] ** 2)),
                float(s[k - 1] ** 2 / s[k] ** 2), (load_before, os.getloadavg()[0]))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=20_000, help="rows of the synthetic streams")
    parser.add_argument("--d", type=int, default=50, help="dimension of the synthetic streams")
    parser.add_argument("--k", type=int, default=5, help="rank of the projection (default 5)")
    parser.add_argument("--batches", type=int, nargs="+", default=[0, 500],
                        help="IncrementalPCA batch sizes (0: 10 k; default 0 500)")
    parser.add_argument("--svd-every", type=int, default=0,
                        help="rows between the batch SVDs (default n / 20)")
    parser.add_argument("--max-square-d", type=int, default=200,
                        help="largest d for pca_ftl, pca_gd, pca_meg (default 200)")
    parser.add_argument("--data", default=str(shared_data_dir() / "libsvm"),
                        help="folder holding letter.scale")
    parser.add_argument("--real-rows", type=int, default=0, help="first rows of letter (0: all)")
    parser.add_argument("--no-real", action="store_true", help="skip letter.scale")
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="2,000 rows, d = 20: a check")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.d, args.real_rows = 2_000, 20, args.real_rows or 2_000
    import numba
    import sklearn

    print(f"online PCA, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
          f"{platform.python_version()}, numpy {np.__version__}, scikit-learn "
          f"{sklearn.__version__}, numba {numba.__version__}; BLAS threads {args.threads}\n")
    with threadpool_limits(args.threads):
        meg_ok = meg_available()
        for case in cases(args):
            bench(case, args, meg_ok)


if __name__ == "__main__":
    main()
