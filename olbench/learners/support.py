"""The support-vector slots of the kernel learners, on the Python side: which layout a
chunk of rows needs, moving slots to a new layout, and reading them back as a matrix.

The layouts themselves (dense: x_i and ||x_i||^2; packed: the non-zeros of a sparse row)
are defined, and read and written by the compiled rules, in :mod:`olbench.rules.rkhs`;
``m`` is the packed width (0: dense). Sparse rows are kept packed when that takes less room
than dense, so a sparse stream of 10^6 features is never densified: a kernel Perceptron on
news20 (1.35 x 10^6 features, a few hundred non-zeros a row) would otherwise need 10^6
numbers per support vector.

>>> import numpy as np, scipy.sparse as sp
>>> X = sp.csr_matrix(np.array([[0.0, 2.0, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 3.0]]))
>>> m = layout_for(X, d=6, m=0, fresh=True); m, width(6, m)      # 2 entries a row: 6, not 7
(2, 6)
>>> A = np.zeros((2, width(6, m))); write_vectors(A, X, row_sqnorms(X), 6, m)
>>> (vectors(A, 2, 6, m).toarray() == X.toarray()).all(), A[1].tolist()
(np.True_, [2.0, 0.0, 5.0, 1.0, 3.0, 10.0])
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from olbench.features import most_non_zeros


def width(d: int, m: int) -> int:
    """Columns one support vector takes: d + 1 (dense) or 2m + 2 (packed)."""
    return d + 1 if m == 0 else 2 * m + 2


def packed_width(d: int, longest: int) -> int:
    """The layout for rows of at most ``longest`` non-zeros: packed (m) when that takes
    less room than dense, else dense (0)."""
    longest = max(longest, 1)
    return longest if width(d, longest) < width(d, 0) else 0


def layout_for(X, d: int, m: int, fresh: bool) -> int:
    """The layout (``m``) that holds the rows of X as well as those stored in layout ``m``:
    a fresh state takes the smaller of dense and packed for X's rows (packed only for sparse
    rows); a dense state stays dense (every row fits); a packed one widens to X's longest
    row, or turns dense once packed is no longer smaller."""
    if fresh:
        if not sp.issparse(X):
            return 0
        m = 0
    elif m == 0:
        return 0
    return packed_width(d, max(m, most_non_zeros(X)))


def row_sqnorms(X) -> np.ndarray:
    """||x||^2 of every row (the last column of a slot)."""
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", X, X)


def vectors(A: np.ndarray, used: int, d: int, m: int):
    """The first ``used`` slots as a matrix of rows: a view of ``A`` (dense layout) or a
    CSR matrix (packed)."""
    if m == 0:
        return A[:used, :d]
    counts = A[:used, 0].astype(np.int64)
    stored = np.arange(m) < counts[:, None]           # the entries in use, row by row
    indptr = np.concatenate([[0], np.cumsum(counts)])
    return sp.csr_matrix((A[:used, 1 + m:1 + 2 * m][stored],
                          A[:used, 1:1 + m][stored].astype(np.int64), indptr), shape=(used, d))


#: bytes :func:`vectors` takes for each packed entry (a slot's m entries): the mask, the
#: values, the indices as floats then integers, the matrix's own index array
PACKED_EXPORT_BYTES = 1 + 8 + 8 + 8 + 8


def write_vectors(A: np.ndarray, X, sqnorms: np.ndarray, d: int, m: int) -> None:
    """Write the rows of X (dense or CSR) into the first slots of ``A``, in layout ``m``."""
    n = X.shape[0]
    if m == 0:
        if sp.issparse(X):
            A[:n, :d] = 0.0
            rows = np.repeat(np.arange(n), np.diff(X.indptr))
            A[rows, X.indices] = X.data
        else:
            A[:n, :d] = X
        A[:n, d] = sqnorms
        return
    X = sp.csr_matrix(X)
    counts = np.diff(X.indptr)
    rows = np.repeat(np.arange(n), counts)
    within = np.arange(X.nnz) - np.repeat(X.indptr[:-1], counts)
    A[:n, 0] = counts
    A[rows, 1 + within] = X.indices
    A[rows, 1 + m + within] = X.data
    A[:n, 2 * m + 1] = sqnorms
