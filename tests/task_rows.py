"""Small rows of each task for the bad-input corpora of tasks, non-finite features and memory
(tests/test_bad_task_corpus.py, tests/test_bad_non_finite_corpus.py,
tests/test_bad_memory_corpus.py): features with labels in {-1, +1}, experts' losses, and the
labels a learner's task takes."""

from __future__ import annotations

import numpy as np

X = np.array([[1.0, -0.5], [-1.0, 0.2], [0.8, 1.0], [0.1, -0.3]])
Y = np.array([1.0, -1.0, 1.0, -1.0])
LOSSES = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [0.0, 0.0]])


def labels_for(learner, n):
    if learner.task in ("oco", "pca"):
        return np.zeros(n)
    if learner.task == "multiclass":     # three classes, coded 1..3
        return 1.0 + np.arange(n) % 3
    return np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
