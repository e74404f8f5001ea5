"""Online learners. Each module defines one family and registers it by key.

>>> from olbench.learners import make_learner
>>> make_learner("pa", C=0.5, variant="pa2").name
'PA[C=0.5,variant=pa2]'
"""

from olbench.component import import_submodules
from olbench.learners.base import Learner
from olbench.learners.state import State

import_submodules(__name__, __path__)

make_learner = Learner.registry.make

__all__ = ["Learner", "State", "make_learner"]
