"""The registry of the plain-numpy twins: :func:`twin` records each under the registry
key(s) of the learner(s) it transcribes, with the hyper-parameter settings the exactness suite
checks it under (they also drive the registry-wide bound checks)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: registry key -> plain-numpy twin (tests fail for a registered learner missing here)
TWINS: dict[str, Callable] = {}
#: registry key -> hyper-parameter settings the compiled learner is checked under
SETTINGS: dict[str, list[dict]] = {}


def twin(**settings_by_key: list[dict]):
    """Register the decorated function as the twin of each key, with its settings."""
    def register(fn: Callable) -> Callable:
        for key, settings in settings_by_key.items():
            TWINS[key], SETTINGS[key] = fn, settings
        return fn
    return register


def result(margins, updated, **state):
    return np.array(margins), np.array(updated, dtype=bool), state
