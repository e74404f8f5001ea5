"""The bad-input corpus of issue 31's up-front checks of non-finite features: every learner
refuses a NaN or infinite feature naming its row, also the learners whose output would not
show it (olbench.run checks their rows first, whatever the chunking)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from task_rows import labels_for

from olbench import make_learner, run
from olbench.learners import Learner

#: the learners whose output can stay finite on a NaN/inf row, so that olbench.run checks
#: each chunk's rows first (the trait non_finite_rows_show_in_output, olbench.learners.traits)
ROWS_CHECKED_FIRST = [key for key, cls in Learner.registry.items()
                      if not cls.non_finite_rows_show_in_output]


@pytest.mark.parametrize("fmt", ["dense", "csr"])
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("key", Learner.registry.keys())
def test_every_learner_refuses_a_non_finite_feature_naming_its_row(key, value, fmt):
    """The seven kernel learners ran on with +-inf features (the first row meets no support
    vector; a Gaussian of an infinite distance is 0), and the weighted majority even on
    NaN (its output is a 0/1 indicator): every learner now names the row, whether its
    loop's output shows it or a pass over the rows finds it first."""
    learner = make_learner(key)
    rows = np.full((6, 3), 0.25)
    rows[3, 1] = value
    with pytest.raises(ValueError, match=r"a feature is NaN or infinite in row 3$"):
        run(learner, sp.csr_matrix(rows) if fmt == "csr" else rows, labels_for(learner, 6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(ROWS_CHECKED_FIRST), row=st.integers(0, 7),
       value=st.sampled_from([math.inf, -math.inf, math.nan]), chunk=st.integers(1, 8))
def test_learners_checking_rows_first_name_the_first_bad_row_of_any_chunking(key, row, value,
                                                                             chunk):
    learner = make_learner(key)
    rows = np.random.default_rng(row).random((8, 2))     # in [0, 1]: experts' losses too
    rows[row, row % 2] = value
    with pytest.raises(ValueError, match=rf"a feature is NaN or infinite in row {row}$"):
        run(learner, rows, labels_for(learner, 8), chunk_size=chunk)
