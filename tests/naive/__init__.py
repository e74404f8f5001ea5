"""Plain-numpy transcriptions of every published update rule: the oracle for the compiled rules
(olbench.rules).

Each function takes dense X (n x d) and labels/targets y, runs the rule row by row exactly as
written in its source, and returns (margins, updated, state) where state has the keys of the
compiled learner's state that carry meaning (``w``, and ``A`` for covariance learners).
Written for obviousness, not speed: matrix products, np.outer, no in-place tricks.

One module per family: :mod:`naive.first_order`, :mod:`naive.second_order`, :mod:`naive.oco`,
:mod:`naive.kernel`, :mod:`naive.sparse`, :mod:`naive.multiclass`, :mod:`naive.pca`, and
:mod:`naive.textbook`
(the book's lambda forms, compared by name).
Each twin is registered with :func:`~naive.registry.twin` under the registry key(s) of the
learner(s) it transcribes, with the hyper-parameter settings the exactness suite checks it
under (they also drive the registry-wide bound checks): a new learner's test material lives
in its family's module. Importing this package registers every twin in :data:`TWINS`.
"""

from naive import first_order, kernel, multiclass, oco, pca, second_order, sparse, textbook
from naive.registry import SETTINGS, TWINS, twin

__all__ = ["SETTINGS", "TWINS", "first_order", "kernel", "multiclass", "oco", "pca", "second_order",
           "sparse", "textbook", "twin"]
