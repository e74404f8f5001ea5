"""Feature hashing: columns of any index folded into d buckets, each with a sign
(K. Weinberger, A. Dasgupta, J. Langford, A. Smola, J. Attenberg, "Feature hashing for large
scale multitask learning", ICML 2009): x'_b = sum over the columns j with h(j) = b of
s(j) x_j. The signs make the hashed inner product unbiased, E[x'.z'] = x.z.

The hash is olbench's own: the 64-bit finaliser of MurmurHash3 (fmix64) of the column
index, the bucket its value mod d and the sign its top bit. It is not Vowpal Wabbit's (which
hashes feature names, not indices): the same file hashed by both gives other buckets.

>>> bucket_and_sign(np.array([0, 1, 2]), 8)
(array([0, 4, 7]), array([ 1., -1.,  1.]))
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

_M1, _M2 = np.uint64(0xFF51AFD7ED558CCD), np.uint64(0xC4CEB9FE1A85EC53)


def fmix64(keys: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser, a bijection of uint64 that mixes every bit."""
    h = np.asarray(keys, dtype=np.uint64).copy()
    with np.errstate(over="ignore"):
        h ^= h >> np.uint64(33)
        h *= _M1
        h ^= h >> np.uint64(33)
        h *= _M2
        h ^= h >> np.uint64(33)
    return h


def bucket_and_sign(columns: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Each column index's bucket in [0, d) and its sign in {-1, +1}."""
    h = fmix64(columns)
    buckets = (h % np.uint64(d)).astype(np.int64)
    signs = np.where(h >> np.uint64(63), -1.0, 1.0)
    return buckets, signs


def hash_columns(X: sp.csr_matrix, d: int) -> sp.csr_matrix:
    """The rows of X with their columns hashed into d buckets (colliding entries of a row
    summed; an entry that cancels to 0 is dropped)."""
    buckets, signs = bucket_and_sign(X.indices, d)
    hashed = sp.csr_matrix((X.data * signs, buckets, X.indptr), shape=(X.shape[0], d))
    hashed.sum_duplicates()
    hashed.eliminate_zeros()
    return hashed
