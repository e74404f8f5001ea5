"""The self-tuned Forgetron (Dekel, Shalev-Shwartz, Singer, SIAM J. Comput. 37(5), 2008): a
kernel Perceptron with at most B support vectors.

On a mistake (y_t f(x_t) <= 0, counted in M = ``s[4]``), x_t joins with coefficient y_t
(f' = f + y_t k(x_t, .)). If B + 1 vectors are then stored, f' is shrunk, f'' = phi_t f', and
the oldest vector r (slot 0) is removed. With sigma = |w_r| (before shrinking) and
mu = y_r f'(x_r), the removal damage of shrinking by phi is
Psi(sigma phi, phi mu) with Psi(lambda, mu) = lambda^2 + 2 lambda - 2 lambda mu, and

    phi_t = max{phi in (0, 1] : Psi(sigma phi, phi mu) + Q <= 15/32 M},
    Q <- Q + Psi(sigma phi_t, phi_t mu)                         (Q = ``s[3]``)

Psi(sigma phi, phi mu) + Q - 15/32 M = a phi^2 + b phi + c with a = sigma^2 - 2 sigma mu,
b = 2 sigma > 0 and c = Q - 15/32 M < 0 (Q <= 15/32 M_{t-1} after every round), so phi_t = 1
when a + b + c <= 0 and otherwise the root in (0, 1), -2c / (b + sqrt(b^2 - 4ac)).
Vectors are kept oldest first (removing slot 0 shifts the others: O(B d), as a prediction).
"""

import math
from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rkhs import (
    KERNEL_FIELDS,
    append,
    clear,
    expansion,
    move,
    self_kernel,
    sv_pair_kernel,
)
from olbench.rules.rows import is_mistake, sqnorm

Params = namedtuple("Params", KERNEL_FIELDS + ["budget"])


@inline
def shrink_factor(sigma, mu, Q, M):
    """phi_t of the self-tuned Forgetron (see the module docs)."""
    a = sigma * sigma - 2.0 * sigma * mu
    b = 2.0 * sigma
    c = Q - 15.0 / 32.0 * M
    if a + b + c <= 0.0:
        return 1.0
    return -2.0 * c / (b + math.sqrt(max(0.0, b * b - 4.0 * a * c)))


@inline
def _remove_oldest(params, w, A, s):
    n = int(s[0])
    f_oldest = 0.0
    for i in range(n):
        f_oldest += w[i] * sv_pair_kernel(params, A, i, 0, s)
    sigma = abs(w[0])
    y_r = 1.0 if w[0] > 0.0 else -1.0
    phi = shrink_factor(sigma, y_r * f_oldest, s[3], s[4])
    lam = sigma * phi
    s[3] += lam * lam + 2.0 * lam - 2.0 * lam * phi * y_r * f_oldest
    for i in range(n - 1):
        w[i] = phi * w[i + 1]
        move(A, i + 1, i, s)
    w[n - 1] = 0.0
    clear(A, n - 1, s)
    s[0] = n - 1


@inline
def update(params, idx, val, y, margin, w, A, s):
    if not is_mistake(y, margin, False):
        return False
    s[4] += 1.0
    xsq = sqnorm(val)
    if self_kernel(params, xsq) > 0.0:
        append(idx, val, xsq, y, w, A, s)
        if int(s[0]) > params.budget:
            _remove_oldest(params, w, A, s)
    return True


RULE = make_rule("forgetron", expansion, update)
