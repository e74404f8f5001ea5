"""Row operations of the multiclass rules (Crammer & Singer, JMLR 3, 2003): the k scores
W_r . x, the class predicted, the runner-up, the multiclass margin, the errorful set.

The state of a multiclass rule: ``w`` is W, k x d (one C-contiguous row per class, so that
``w[r]`` is a row the row operations of :mod:`olbench.rules.rows` take as they take a
binary rule's w); ``A`` what a second-order rule keeps (Sigma); ``s`` its scalars followed by
k entries of scratch for the scores of the current row, written by the predict rule and read
by the update rule the loop calls right after it on the same row.

Each score is the blocked sum of :mod:`olbench.rules.reductions` of one row of W, not one
mat-vec: two rows that received the same updates are bit-identical and must score exactly
alike, which a BLAS mat-vec does not promise (it scored two such rows 2.8e-17 apart on glass,
and the run left LIBOL's at round 25). Ties are exact and frequent (every score is 0 at the
first round), so which class a tie goes to is part of each rule: the lowest index
(:func:`first_max`, MATLAB's ``max``).
"""

from __future__ import annotations

from olbench._jit import inline
from olbench.rules.rows import axpy, dot


@inline
def score(w, s, r):
    """Class r's score of the current row, kept in the last k entries of ``s`` (numba's
    loops without a runtime cannot return a slice of ``s``: indices, not views)."""
    return s[s.shape[0] - w.shape[0] + r]


@inline
def first_max(values, start, k):
    """The lowest index r < k among the largest of ``values[start + r]``."""
    best = 0
    for r in range(1, k):
        if values[start + r] > values[start + best]:
            best = r
    return best


@inline
def runner_up(values, start, k, y):
    """The lowest index r < k, r != y, among the largest of ``values[start + r]``."""
    best = 1 if y == 0 else 0
    for r in range(best + 1, k):
        if r != y and values[start + r] > values[start + best]:
            best = r
    return best


@inline
def scored_runner_up(w, s, y):
    """The runner-up of the current row's scores (kept in ``s``): the lowest index among the
    top scores other than class y's."""
    return runner_up(s, s.shape[0] - w.shape[0], w.shape[0], y)


@inline
def score_predict(params, idx, val, w, A, s):
    """The predict rule of every linear multiclass learner: the k scores W_r . x into the
    scratch of ``s``; returns the class predicted (the lowest index among the top scores)."""
    start = s.shape[0] - w.shape[0]
    for r in range(w.shape[0]):
        s[start + r] = dot(w[r], idx, val)
    return first_max(s, start, w.shape[0])


@inline
def class_margin(w, s, y):
    """The multiclass margin of the current row, s_y - max_{r != y} s_r."""
    return score(w, s, y) - score(w, s, scored_runner_up(w, s, y))


@inline
def is_class_mistake(y, margin, predicted, libol_tie):
    """A tie for the top score is a mistake (margin <= 0, Novikoff's convention), or the
    lowest index wins it (predicted != y, LIBOL's: see olbench.losses)."""
    if libol_tie:
        return predicted != y
    return margin <= 0.0


@inline
def move_pair(w, y, rival, a, idx, val):
    """W_y += a x and W_rival -= a x: the max-score step of the additive rules."""
    axpy(w[y], a, idx, val)
    axpy(w[rival], -a, idx, val)


@inline
def ovr_record(scores, y):
    """(class predicted, multiclass margin) from one-vs-rest scores: the lowest index among
    the top scores, and s_y - max_{r != y} s_r."""
    k = scores.shape[0]
    return first_max(scores, 0, k), scores[y] - scores[runner_up(scores, 0, k, y)]
