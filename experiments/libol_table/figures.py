"""LIBOL's three panels (mistake rate, updates, time vs t), one figure per dataset.

The CLI's ``libol.png`` puts the ten datasets in one figure whose legend lists every learner
of every dataset (their chosen parameters differ per dataset); this script draws the same
panels (:func:`olbench.analysis.figures.libol.libol_figure`) one dataset at a time, so each legend
has that dataset's sixteen learners. Usage, after ``olbench experiment=libol_table``::

    python experiments/libol_table/figures.py [results/libol_table/canonical]

writes ``figures/libol_<dataset>.png`` (and .pdf) into the results folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

import olbench
from olbench.analysis.figures.libol import libol_figure
from olbench.analysis.figures.style import save_figure
from olbench.analysis.views import label
from olbench.harness.studies import study_module

#: the name= of a dataset stream's full name (the study's published.py)
dataset_of = study_module("experiments/libol_table/published.py").dataset_of


def per_dataset_panels(folder: Path) -> list[Path]:
    """Draw and save one LIBOL figure per dataset of the results in ``folder`` (one row per
    stream of it: svmguide3 in LIBOL's orders and in seeded permutations share a figure)."""
    table = olbench.load_results(folder).table
    datasets = label(table, "stream").map(dataset_of)
    written = []
    for dataset, rows in table.groupby(datasets, sort=True):
        written += save_figure(libol_figure(rows), folder / "figures" / f"libol_{dataset}")
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "results/libol_table/canonical")
    for path in per_dataset_panels(target):
        print(path)
