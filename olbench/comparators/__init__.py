"""Hindsight comparators: the best fixed predictor chosen after seeing the stream.

See :mod:`olbench.comparators.base` for the contract. Each comparator lives in its own module
and registers itself; ``make_comparator("best_fixed", loss="hinge")`` builds one by key.
"""

from olbench.comparators.base import Comparator
from olbench.comparators.fit import ComparatorFit
from olbench.component import import_submodules

import_submodules(__name__, __path__)

from olbench.comparators.best_fixed import BestFixed  # noqa: E402
from olbench.comparators.generating import Generating  # noqa: E402
from olbench.comparators.max_margin import MaxMargin  # noqa: E402
from olbench.comparators.prefix_best import PrefixBest  # noqa: E402

make_comparator = Comparator.registry.make

__all__ = ["BestFixed", "Comparator", "ComparatorFit", "Generating", "MaxMargin", "PrefixBest",
           "make_comparator"]
