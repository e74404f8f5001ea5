"""Compiled input checks: one pass, no temporary arrays (numpy's isfinite(X).all() allocates
a boolean array as large as X and costs more than a Perceptron's whole loop)."""

from olbench._jit import jit


@jit
def first_non_finite_row(X):
    """Index of the first row of a 2-D array holding NaN or +-inf; -1 if there is none."""
    for t in range(X.shape[0]):
        bad = False
        for j in range(X.shape[1]):
            # x - x is NaN exactly when x is NaN or infinite; an OR reduction vectorises
            bad |= (X[t, j] - X[t, j]) != 0.0
        if bad:
            return t
    return -1


@jit
def all_finite(a):
    """Whether every entry of an array (any shape) is finite, in one pass and without the
    temporary boolean array of ``np.isfinite(a).all()`` (a learner's d x d state at d = 20,000
    would need 400 MB for it)."""
    for value in a.flat:
        if (value - value) != 0.0:
            return False
    return True
