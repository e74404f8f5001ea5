"""What a run writes besides its rows of the results table: the declared *side outputs*
figures draw and the table cannot hold (a vector per run, a few thousand points per stream).

Each output is one function of the finished run (its stream, the stream's meta and the
learner's final state), registered with :func:`side_output` under the name of the side table
it fills and the columns it declares; it returns the run's rows of that table, or None when
it does not apply to the run. The run computes them once, where the stream and the final
weights are at hand, so that no figure rebuilds a stream or a learner, or recomputes a metric
after the run (DESIGN.md section 1). They travel with the run's rows
(:func:`attach`) and are stored beside them (:mod:`olbench.harness.side`).

* ``final_weights`` (``w``, one row per weight, in order): runs on streams of at most
  :data:`MAX_D_FOR_WEIGHTS` features, or of 1-D inputs (``meta.extra["x"]``);
* ``points`` (``x1``, ``x2``, ``y``): the first :data:`MAX_POINTS` rows of a stream of two
  features (plus a bias column), for the decision-boundary pictures;
* ``switches`` (``t``): the rounds where a drifting stream's target switches
  (``meta.extra["switch_times"]``; no row for a stream that drifts without switching);
* ``fit`` (``x``, ``y``, ``clean_y``, ``prediction``): a regression run on 1-D inputs, one
  row per round: the input, the target, the noise-free target (NaN if unknown) and the final
  predictor's value w·x_t;
* ``kernel_data`` (``x``, ``y``) and ``kernel_curve`` (``x``, ``prediction``): a run on a
  kernel-mapped stream of 1-D inputs (:class:`~olbench.streams.KernelMap`, possibly inside
  :class:`~olbench.streams.Passes`): the inputs with their targets, and the fitted kernel
  model f(x) = sum_j w_j k_j(x) (+ w_bias) over :data:`CURVE_POINTS` points spanning them
  (Sugiyama 2015, ch. 31, listings of Fig. 31.5 and 31.9: ``X = linspace(-3, 3, 1000)``);
* ``subspace_error`` (``t``, ``sin_theta``, ``relative_gap``): an online PCA run, at each
  checkpoint: ||sin Theta|| (spectral norm) between the subspace the learner plays next and
  the top-k eigenvectors of sum_{s <= t} x_s x_s' (the batch SVD's of the rows seen), and that
  matrix's relative eigengap (lambda_k - lambda_k+1) / lambda_k, without which the batch
  subspace is not defined (a gap of 0: any distance is as good); streams of at most
  :data:`MAX_D_FOR_SUBSPACES` features;
* ``separation`` (``separates_inliers``): a classification run on a stream that marks its
  outliers (``meta.extra["outliers"]``): whether the final w puts every other point strictly
  on its own side (y_t w·x_t > 0).

>>> sorted(SIDE_OUTPUTS)
['final_weights', 'fit', 'kernel_curve', 'kernel_data', 'points', 'separation', 'subspace_error',
 'switches']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

#: runs on streams of at most this many features keep their final weights: decision
#: boundaries (d <= 3) and kernel-model fits at up to 64 centres (textbook figures)
MAX_D_FOR_WEIGHTS = 64
#: the most points a run keeps of a 2-D stream (the first ones of a longer stream)
MAX_POINTS = 20_000
#: the listings' N = 1000 points of a fitted kernel curve
CURVE_POINTS = 1000
#: online PCA runs on streams of at most this many features keep their subspace errors (a
#: d x d eigenproblem per checkpoint)
MAX_D_FOR_SUBSPACES = 1000
#: the key under which a run's rows carry its outputs (:func:`attach`, :func:`detach`)
ATTRS_KEY = "olbench_side_outputs"


@dataclass(frozen=True)
class FinishedRun:
    """What the outputs read of a finished run: its stream, the stream's meta, the learner's
    final state and, when the run held them, the stream's rows (X, y) (else None: they are
    read from the stream when an output needs them)."""

    stream: Any
    meta: Any
    state: dict
    data: tuple | None = None
    #: the learner's at the checkpoints (:attr:`olbench.protocol.Trace.snapshots`)
    snapshots: tuple = ()

    def rows(self, limit: int | None = None):
        """The stream's (X, y), or its first ``limit`` rows (a file of any length is not
        loaded whole), dense."""
        if self.data is not None:
            X, y = self.data[0][:limit], self.data[1][:limit]
        elif limit is None:
            X, y = self.stream.materialize()
        else:
            from olbench.harness.streamed import first_rows

            X, y = first_rows(self.stream, limit)
        return (X.toarray() if hasattr(X, "toarray") else np.asarray(X)), np.asarray(y)


@dataclass(frozen=True)
class SideOutput:
    """A registered output: the side table it fills, its declared columns (name -> dtype)
    and the function computing a run's rows of it."""

    table: str
    columns: dict[str, str]
    compute: Callable[[FinishedRun], dict | None]


#: Every side output, by the name of its side table.
SIDE_OUTPUTS: dict[str, SideOutput] = {}


def side_output(table: str, **columns: str) -> Callable:
    """Register the decorated ``compute(run: FinishedRun)`` as the output filling side
    table ``table`` with ``columns`` (name=dtype); it returns the run's rows (a mapping of
    equal-length columns) or None."""
    def register(fn: Callable) -> Callable:
        if table in SIDE_OUTPUTS:
            raise ValueError(f"side output {table!r} is registered twice")
        SIDE_OUTPUTS[table] = SideOutput(table, dict(columns), fn)
        return fn
    return register


class RunOutputs(dict):
    """A run's side outputs, ``{table: rows}``, equal only to themselves: pandas compares
    the ``attrs`` of the frames it concatenates (keeping them if equal), and tables do not
    compare with ``==``; the rows of several runs concatenated carry no outputs (take them
    first: :func:`olbench.harness.side.side_tables`)."""

    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__


def run_outputs(run: FinishedRun) -> RunOutputs:
    """The side outputs of a finished run, ``{table: rows}`` (the tables that apply)."""
    out = RunOutputs()
    for output in SIDE_OUTPUTS.values():
        rows = output.compute(run)
        if rows is not None:
            frame = pd.DataFrame(rows)
            if set(output.columns) != set(frame.columns):   # not what it declares
                raise ValueError(f"side output {output.table}: columns {sorted(frame.columns)}"
                                 f", declared {sorted(output.columns)}")
            out[output.table] = frame.astype(output.columns)
    return out


def attach(rows: pd.DataFrame, outputs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """``rows`` carrying the run's ``outputs`` to where they are saved (a worker process
    returns them pickled together; :func:`detach` takes them off before the rows are written,
    since parquet would store ``attrs`` in the file)."""
    rows.attrs[ATTRS_KEY] = outputs
    return rows


def detach(rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The outputs :func:`attach` put on ``rows``, removed from them ({} if none)."""
    return rows.attrs.pop(ATTRS_KEY, None) or {}


# ----------------------------------------------------------------------------- the outputs
@side_output("final_weights", w="float64")
def final_weights(run: FinishedRun):
    # small enough to keep (decision boundaries), or the weights over the features of a 1-D
    # input (meta.extra["x"]: the fitted-function figure); one vector (a multiclass run's
    # k rows of W are not kept here)
    if np.ndim(run.state["w"]) != 1:
        return None
    if run.meta.d <= MAX_D_FOR_WEIGHTS or "x" in run.meta.extra:
        return {"w": np.asarray(run.state["w"], dtype=np.float64)}
    return None


@side_output("points", x1="float64", x2="float64", y="float64")
def points(run: FinishedRun):
    if run.meta.d - int(run.meta.bias) != 2:
        return None
    X, y = run.rows(MAX_POINTS)
    # the points; a bias column (last) is part of w, not of the picture
    return {"x1": X[:, 0], "x2": X[:, 1], "y": y}


@side_output("switches", t="int64")
def switches(run: FinishedRun):
    times = run.meta.extra.get("switch_times")
    return None if times is None else {"t": np.asarray(times, dtype=np.int64)}


@side_output("fit", x="float64", y="float64", clean_y="float64", prediction="float64")
def fit(run: FinishedRun):
    x, meta = run.meta.extra.get("x"), run.meta
    if meta.task != "regression" or x is None or len(x) != meta.n:
        return None   # several passes over the inputs (stream=passes): one x, many rounds
    X, y = run.rows()
    clean = np.full(len(y), np.nan) if meta.clean_y is None else meta.clean_y
    return {"x": x, "y": y, "clean_y": clean, "prediction": X @ np.asarray(run.state["w"])}


def _kernel_map(stream):
    """The :class:`~olbench.streams.KernelMap` a stream is or wraps, if its inputs are 1-D
    (else None)."""
    from olbench.streams.transforms import KernelMap

    while stream is not None and not isinstance(stream, KernelMap):
        stream = getattr(stream, "stream", None)
    return stream if stream is not None and stream.meta.extra["inputs"].shape[1] == 1 else None


@side_output("kernel_data", x="float64", y="float64")
def kernel_data(run: FinishedRun):
    mapped = _kernel_map(run.stream)
    if mapped is None:
        return None
    _, y = mapped.materialize()
    return {"x": mapped.meta.extra["inputs"][:, 0], "y": y}


@side_output("kernel_curve", x="float64", prediction="float64")
def kernel_curve(run: FinishedRun):
    mapped = _kernel_map(run.stream)
    if mapped is None:
        return None
    from olbench.streams.preprocess import gaussian_kernel_features

    extra, w = mapped.meta.extra, np.asarray(run.state["w"])
    inputs = extra["inputs"]
    grid = np.linspace(inputs.min(), inputs.max(), CURVE_POINTS)[:, None]
    K = gaussian_kernel_features(grid, extra["centers"], extra["hh"])
    return {"x": grid[:, 0],
            "prediction": K @ w[:K.shape[1]] + (w[-1] if mapped.meta.bias else 0.0)}


@side_output("separation", separates_inliers="bool")
def separation(run: FinishedRun):
    outliers, meta = run.meta.extra.get("outliers"), run.meta
    if meta.task != "classification" or outliers is None or meta.d > MAX_D_FOR_WEIGHTS:
        return None
    X, y = run.rows()
    inliers = ~np.asarray(outliers, dtype=bool)
    margins = y[inliers] * (X[inliers] @ np.asarray(run.state["w"]))
    return {"separates_inliers": [bool(np.all(margins > 0))]}


@side_output("subspace_error", t="int64", sin_theta="float64", relative_gap="float64")
def subspace_error(run: FinishedRun):
    if run.meta.task != "pca" or not run.snapshots or run.meta.d > MAX_D_FOR_SUBSPACES:
        return None
    from olbench.comparators.best_subspace import second_moment, top_subspace

    X, _ = run.rows()
    k = max(basis.shape[0] for _, basis in run.snapshots)
    covariance, seen, out = np.zeros((X.shape[1], X.shape[1])), 0, []
    for t, basis in run.snapshots:
        covariance += second_moment(X[seen:t])
        seen = t
        top, values = top_subspace(covariance, k)           # (values ascending)
        # ||(I - V'V) U'||_2: how far the directions played lie outside the batch top-k
        outside = basis.T - top.T @ (top @ basis.T)
        # fewer rows than k (or rank below k): no k-th direction, a gap of 0
        big = values[-k] > 1e-12 * values[-1] * X.shape[1]
        gap = (values[-k] - values[-k - 1]) / values[-k] if big else 0.0
        out.append((t, float(np.linalg.norm(outside, 2)) if basis.size else 1.0, gap))
    t, sin_theta, gap = zip(*out)
    return {"t": np.array(t, dtype=np.int64), "sin_theta": np.array(sin_theta),
            "relative_gap": np.array(gap)}
