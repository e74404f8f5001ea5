"""Online PCA by matrix exponentiated gradient with capping (Warmuth & Kuzmin, "Randomized
online PCA algorithms with regret bounds that are logarithmic in the dimension", JMLR 9,
2008, Sec. 3-4: the expert algorithm of Sec. 3 lifted to density matrices).

The learner keeps a density matrix D_t (D >= 0, tr D = 1) whose eigenvalues are capped at
1/m, m = d - k: a mixture of rank-m projections (the complements of the rank-k subspaces
played), each scaled by 1/m. It records m x_t' D_t x_t, the expected compression loss of a
projection drawn from that mixture, then steps

    D^ = exp(log D_t - eta x_t x_t') / Z_t,        D_{t+1} = cap_{1/m}(D^),

where the capping is the relative-entropy projection on {D : D <= I/m}: the eigenvalues of D^
with its eigenvectors, the largest ones set to 1/m and the others rescaled to make up the
trace, the fewest capped that leave every rescaled one at most 1/m (W&K Sec. 3.2, the expert
version's capping lifted to the spectrum). D_1 = I/d.

Why the logarithm is kept: the eigenvalues of D left uncapped shrink like exp(-eta * the loss
along them), which leaves float64 (underflows to 0, whose log is -inf) after a few hundred
rows of a low-rank stream, as EG's weights do. The rule keeps ``A`` = log D_t and caps in the
log domain (a log-sum-exp per candidate count), so nothing is lost; ``w`` = m D_t (in
{0 <= W <= I, tr W = m}, the scale of :data:`olbench.rules.pca.GD_RULE`'s W) serves the loss
x' W x, where an underflowed eigenvalue contributes 0, as it should. ``s`` = [t].
"""

import math
from collections import namedtuple

import numpy as np

from olbench._jit import inline, inline_allocating
from olbench.rules.loop import make_rule
from olbench.rules.pca import gd_predict, is_zero_row, left_float64
from olbench.rules.rows import axpy, entry, n_entries

MEGParams = namedtuple("MEGParams", ["m", "eta"])


@inline
def capped_log_weights(values, m, out):
    """``out`` = log of cap_{1/m}(softmax(values)) for ``values`` ascending (eigh's order):
    the j largest set to log(1/m), the rest values_i + log((m - j)/m) - logsumexp(the rest),
    with the smallest j that leaves the largest of the rest at most log(1/m). j = m - 1
    always does (the rest then share 1/m), so the loop ends there."""
    n = values.shape[0]
    cap = -math.log(m)
    for capped in range(n):
        top = n - 1 - capped
        total = 0.0
        for i in range(top + 1):
            total += math.exp(values[i] - values[top])
        shift = math.log(m - capped) - math.log(m) - values[top] - math.log(total)
        if values[top] + shift <= cap or capped + 1 >= m:
            for i in range(top + 1):
                out[i] = values[i] + shift
            for i in range(top + 1, n):
                out[i] = cap
            return capped
    return n


@inline_allocating
def meg_update(params, idx, val, y, margin, w, A, s):
    s[0] += 1.0
    if is_zero_row(idx, val):                    # exp(log D) / tr = D: nothing moves
        return False
    for e in range(n_entries(idx, val)):         # log D - eta x x'
        j, v = entry(idx, val, e)
        axpy(A[j], -params.eta * v, idx, val)
    if left_float64(A):
        w[:, :] = math.nan
        return True
    values, vectors = np.linalg.eigh(A)
    logs = np.empty_like(values)
    capped_log_weights(values, params.m, logs)
    # V diag(logs) V' and m V diag(exp(logs)) V' by BLAS (d^3 each: the cost of a row)
    right = np.ascontiguousarray(vectors.T)
    A[:, :] = (vectors * logs) @ right
    w[:, :] = (vectors * (params.m * np.exp(logs))) @ right
    return True


MEG_RULE = make_rule("pca_meg", gd_predict, meg_update, allocates=True)
