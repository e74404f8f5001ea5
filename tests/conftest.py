from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp


def make_data(task: str, seed: int, n: int = 150, d: int = 6, density: float = 1.0,
              zero_rows: bool = False):
    """A small noisy linear problem; with density < 1 many features are exactly zero."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if density < 1.0:
        X *= rng.random((n, d)) < density
    if zero_rows:
        X[rng.choice(n, size=max(1, n // 10), replace=False)] = 0.0
    u = rng.standard_normal(d)
    if task == "classification":
        y = np.sign(X @ u + 0.3 * rng.standard_normal(n))
        y[y == 0] = 1.0
    else:
        y = X @ u + 0.1 * rng.standard_normal(n)
    return X, y


@pytest.fixture(params=["dense", "csr"])
def as_format(request):
    """Turns a dense array into the input format under test."""
    return (lambda X: X) if request.param == "dense" else sp.csr_matrix
