"""Feature conversion, done once and only here: the array contract every layer relies on.

Features are float64: a C-contiguous ``ndarray`` of shape (rows, d), or a canonical
``scipy.sparse.csr_matrix`` (sorted indices, no duplicate entries; duplicates are summed, as
scikit-learn's readers do). The caller's array is never modified: conversion copies only
what is not already in that form. Streams convert at their boundary, :func:`olbench.run`
at the protocol's, comparators at theirs -- all with :func:`as_features`.

>>> import numpy as np
>>> as_features([[1, 2], [3, 4]]).dtype, as_features(np.eye(2)).flags["C_CONTIGUOUS"]
(dtype('float64'), True)
>>> row_norms(np.array([[3.0, 4.0], [0.0, 1.0]])).tolist()
[5.0, 1.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from olbench.rules.checks import first_non_finite_row


def as_features(X: Any, *, offset: int = 0, check_finite: bool = True):
    """X as float64 dense C-contiguous rows or canonical CSR; a clear ``ValueError`` for
    anything else (non-numeric or complex values, not 2-D) and for NaN/inf values, naming the
    first bad row (``offset`` is added to row numbers: the chunk's position in the stream).
    ``check_finite=False`` skips that check, whose pass over X would cost as much as a
    Perceptron's whole loop: :func:`olbench.run`'s compiled loop catches non-finite outputs
    itself (a NaN/inf feature makes w.x NaN/inf, even where w is 0) and then calls
    :func:`check_finite_features` to name the row."""
    if sp.issparse(X):
        if np.issubdtype(X.dtype, np.complexfloating):
            raise ValueError(f"features must be real numbers, got dtype {X.dtype}")
        if not (isinstance(X, sp.csr_matrix) and X.dtype == np.float64):
            X = sp.csr_matrix(X, dtype=np.float64)  # kept as is otherwise: scipy caches
        if not X.has_canonical_format:              # has_canonical_format on the object
            X = X.copy()  # never mutate the caller's matrix
            X.sum_duplicates()
        if check_finite:
            check_finite_features(X, offset)
        return X
    try:
        X = np.asarray(X)
    except ValueError as error:  # ragged nested lists
        raise ValueError(f"features must be a rectangular 2-D array of numbers: {error}"
                         ) from None
    if X.dtype == object or not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise ValueError(f"features must be numbers, got dtype {X.dtype}")
    if np.issubdtype(X.dtype, np.complexfloating):
        raise ValueError(f"features must be real numbers, got dtype {X.dtype}")
    if X.ndim != 2:
        raise ValueError(f"features must be a 2-D array (rows x features), got shape {X.shape}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    if check_finite and X.size and first_non_finite_row(X) >= 0:
        check_finite_features(X, offset)
    return X


def check_finite_features(X, offset: int = 0) -> None:
    """Raise naming the first row of X (dense or CSR) with a NaN/inf value, if any."""
    if sp.issparse(X):
        bad = ~np.isfinite(X.data)
        if bad.any():
            rows = np.searchsorted(X.indptr, np.flatnonzero(bad), side="right") - 1
            check_finite_rows(np.isin(np.arange(X.shape[0]), rows), offset, "a feature")
        return
    check_finite_rows(~np.isfinite(X).all(axis=1), offset, "a feature")


def check_finite_rows(bad_rows: np.ndarray, offset: int, what: str) -> None:
    """Raise naming the first row flagged in ``bad_rows`` (and how many more there are)."""
    if bad_rows.any():
        rows = np.flatnonzero(bad_rows) + offset
        raise ValueError(f"{what} is NaN or infinite in row {rows[0]}"
                         + (f" (and {rows.size - 1} more rows)" if rows.size > 1 else ""))


def most_non_zeros(X) -> int:
    """The largest number of non-zero entries in a row of X (dense or CSR; for CSR, the
    entries stored).

    >>> most_non_zeros(np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]))
    2
    """
    if X.shape[0] == 0:
        return 0
    if sp.issparse(X):
        return int(np.diff(X.indptr).max())
    return int(np.count_nonzero(X, axis=1).max())


def row_norms(X) -> np.ndarray:
    """Euclidean norm of every row of a dense or CSR matrix."""
    if sp.issparse(X):
        return np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    return np.sqrt(np.einsum("ij,ij->i", X, X))
