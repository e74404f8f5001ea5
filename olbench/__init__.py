"""olbench: run, measure and prove things about online learning algorithms.

>>> import numpy as np
>>> import olbench
>>> X = np.array([[1.0, 0.5], [-1.0, 0.2], [0.8, 1.0]]); y = np.array([1, -1, 1])
>>> trace = olbench.run(olbench.make_learner("pa", C=1.0, variant="pa1"), X, y)
>>> trace.n_mistakes, trace.n_updates
(1, 2)
"""

from olbench.learners import Learner, make_learner
from olbench.protocol import Trace, predict, run

__version__ = "0.1.0"

__all__ = ["Learner", "Results", "Trace", "compare", "load_results", "make_learner", "predict",
           "run", "run_experiment", "__version__"]

#: the harness (Hydra, joblib, pandas) loads only when one of these is asked for
_LAZY = {"run_experiment": "olbench.api", "load_results": "olbench.api", "Results": "olbench.api",
         "compare": "olbench.analysis.comparison"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'olbench' has no attribute {name!r}")
