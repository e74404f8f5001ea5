"""NORMA (Kivinen, Smola, Williamson, IEEE TSP 52(8), 2004), classification with the soft
margin loss max(0, rho - y f(x)), constant step eta, truncated to the last tau rounds.

Every round (the NORMA update with the soft-margin loss's derivative)::

    f <- (1 - eta lam) f + sigma_t eta y_t k(x_t, .),  sigma_t = [y_t f(x_t) < rho]

and the term of round t - tau is dropped (the paper's truncation, so at most tau terms are
kept). The terms live in a ring of tau slots indexed by the round (slot t mod tau), which
round t overwrites: with x_t if sigma_t = 1, else with a zero coefficient. ``s[3]`` counts the
rounds. No offset b (the paper's f + b form is not implemented).
"""

from collections import namedtuple

from olbench._jit import inline
from olbench.rules.loop import make_rule
from olbench.rules.rkhs import KERNEL_FIELDS, expansion, store
from olbench.rules.rows import scale, sqnorm

Params = namedtuple("Params", KERNEL_FIELDS + ["eta", "decay", "rho", "tau"])


@inline
def update(params, idx, val, y, margin, w, A, s):
    t = int(s[3])
    slot = t % params.tau
    scale(w[:int(s[0])], params.decay)
    fired = y * margin < params.rho
    if fired:
        store(A, slot, idx, val, sqnorm(val), s)
        w[slot] = params.eta * y
    else:
        w[slot] = 0.0
    s[3] = t + 1
    s[0] = min(t + 1, params.tau)
    return fired


RULE = make_rule("norma", expansion, update)
