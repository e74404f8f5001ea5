"""What a comparator fit is cached by: the data's key (:func:`data_key`), or for fits that do
not depend on the order of the rows, a key of the multiset of rows (:func:`content_key`)."""

from __future__ import annotations

import hashlib

import joblib
import numpy as np
import scipy.sparse as sp


def data_key(X, y, meta=None) -> str:
    """The stream fingerprint if known, else a hash of the data itself."""
    fp = getattr(meta, "fingerprint", None)
    if fp:
        return str(fp)
    parts = (X.data, X.indices, X.indptr, X.shape) if sp.issparse(X) else (X,)
    return "data:" + joblib.hash((parts, y))


_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))


def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, elementwise on uint64 (wrapping arithmetic is intended)."""
    with np.errstate(over="ignore"):
        h = (h ^ (h >> np.uint64(30))) * _MIX[1]
        h = (h ^ (h >> np.uint64(27))) * _MIX[2]
        return h ^ (h >> np.uint64(31))


def content_key(X, y) -> str:
    """A fingerprint of the multiset of rows (x_t, y_t): the same for every order of the rows.

    Each stored entry (column j, value bits) is hashed to 64 bits, a row is the wrapped sum of
    its entries' hashes mixed with its label's bits, and the key is the sha256 of the sorted
    row hashes (with the shape). Exact values count (bit patterns), not their rounding.

    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 4.0]]); y = np.array([1.0, -1.0, 1.0])
    >>> content_key(X, y) == content_key(X[[2, 0, 1]], y[[2, 0, 1]])
    True
    >>> content_key(X, y) == content_key(X, -y), content_key(X, y) == content_key(X[:, ::-1], y)
    (False, False)
    """
    return _content_key(row_hashes(X, y), X.shape)


def _content_key(rows: np.ndarray, shape) -> str:
    return "rows:" + hashlib.sha256(np.sort(rows).tobytes() + str(shape).encode()).hexdigest()


def row_hashes(X, y) -> np.ndarray:
    """The 64-bit hash of each row (x_t, y_t) of :func:`content_key`, in row order."""
    X = sp.csr_matrix(X) if not sp.issparse(X) else X.tocsr()
    X.sum_duplicates()
    cols = X.indices.astype(np.uint64)
    with np.errstate(over="ignore"):
        entry = _mix(np.ascontiguousarray(X.data, np.float64).view(np.uint64)
                     ^ _mix(cols + _MIX[0]))
        sums = np.concatenate([[np.uint64(0)], np.cumsum(entry, dtype=np.uint64)])
        rows = sums[X.indptr[1:]] - sums[X.indptr[:-1]]
        return _mix(rows ^ _mix(np.ascontiguousarray(y, np.float64).view(np.uint64)))
