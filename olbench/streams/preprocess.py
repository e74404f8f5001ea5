"""Row transforms applied to data as they stream: standardise, normalise (bias: base.py),
and the empirical kernel map (:func:`gaussian_kernel_features`; the stream that applies it to
any other stream is :class:`olbench.streams.transforms.KernelMap`).

Order, stated once: standardise (whole-stream statistics), then normalise each row to unit
norm (no look-ahead), then append the bias feature. So with ``normalize=True`` and
``bias=True`` every row has norm sqrt(2) (or 1 for an all-zero row).

>>> import numpy as np
>>> normalize_rows(np.array([[3.0, 4.0], [0.0, 0.0]]))
array([[0.6, 0.8],
       [0. , 0. ]])
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from olbench.features import row_norms


def normalize_rows(X):
    """Each row divided by its Euclidean norm; all-zero rows stay zero. Uses that row only."""
    norms = row_norms(X)
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    scale[norms == 0] = 1.0
    if sp.issparse(X):
        return sp.csr_matrix(sp.diags(scale) @ X)
    return X * scale[:, None]


class ColumnStats:
    """Running per-feature count, sum and sum of squares (constant memory over a stream)."""

    def __init__(self, d: int):
        self.n = 0
        self.sum = np.zeros(d)
        self.sumsq = np.zeros(d)

    def update(self, X) -> None:
        self.n += X.shape[0]
        if sp.issparse(X):
            self.sum += np.asarray(X.sum(axis=0)).ravel()
            self.sumsq += np.asarray(X.multiply(X).sum(axis=0)).ravel()
        else:
            self.sum += X.sum(axis=0)
            self.sumsq += np.einsum("ij,ij->j", X, X)

    def standardizer(self) -> Standardizer:
        mean = self.sum / max(self.n, 1)
        var = np.maximum(self.sumsq / max(self.n, 1) - mean ** 2, 0.0)
        return Standardizer(mean, np.sqrt(var))


class Standardizer:
    """(x - mean) / std per feature, with statistics of the WHOLE stream (a look-ahead).

    Constant features (std 0) are left unscaled. Sparse input is only divided by std (not
    centred), so it stays sparse, as scikit-learn's ``StandardScaler(with_mean=False)``.
    """

    def __init__(self, mean: np.ndarray, std: np.ndarray):
        self.mean = mean
        self.scale = np.where(std > 0, std, 1.0)

    @classmethod
    def fit(cls, X) -> Standardizer:
        stats = ColumnStats(X.shape[1])
        stats.update(X)
        return stats.standardizer()

    def apply(self, X):
        if sp.issparse(X):
            return sp.csr_matrix(X @ sp.diags(1.0 / self.scale))
        return (X - self.mean) / self.scale


def gaussian_kernel_features(X, centers: np.ndarray, hh: float) -> np.ndarray:
    """The empirical kernel map: row t, column j is exp(-||x_t - c_j||^2 / hh).

    ``hh`` is the denominator as Sugiyama's listings write it (``hh = 2*0.3^2``): the Gaussian
    kernel of width h, exp(-||x - c||^2 / (2 h^2)), has hh = 2 h^2. Distances are computed
    directly (not as ||x||^2 + ||c||^2 - 2 x.c, which loses digits for nearby points).

    >>> gaussian_kernel_features(np.array([[0.0], [1.0]]), np.array([[0.0]]), 2.0).round(4)
    array([[1.    ],
           [0.6065]])
    """
    X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    centers = np.asarray(centers, dtype=np.float64)
    out = np.empty((X.shape[0], centers.shape[0]))
    # rows in blocks, so the (rows x centres x d) differences stay ~10^7 numbers at a time
    step = max(1, 10**7 // max(1, centers.size))
    for start in range(0, X.shape[0], step):
        diff = X[start:start + step, None, :] - centers[None, :, :]
        out[start:start + step] = np.exp(-np.einsum("ijk,ijk->ij", diff, diff) / hh)
    return out
