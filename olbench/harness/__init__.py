"""The harness: from a configuration to the results table.

What a composed configuration runs (:mod:`~olbench.harness.experiment`: an experiment's grid
or a single cell, its results folder), its tasks (:mod:`~olbench.harness.tasks`: the grid of
stream x learner x comparator x seed, read from the components' classes, nothing built),
checked before anything runs (:mod:`~olbench.harness.task_checks`; the options and the command
line's overrides: :mod:`~olbench.harness.validate`, :mod:`~olbench.harness.overrides`), an
experiment's parameter-selection stage (:mod:`~olbench.harness.selection`: the procedure a
study registers, run once before the grid; a study's files: :mod:`~olbench.harness.studies`),
one run (:mod:`~olbench.harness.run_one`: the one place where specs become objects), the
runs of a
grid (:mod:`~olbench.harness.grid`, joblib or Dask; the comparator fits they share:
:mod:`~olbench.harness.prefit`; files too large for memory: :mod:`~olbench.harness.streamed`),
the run files (:mod:`~olbench.harness.results`: checksummed, resumable), interruption and
workers (:mod:`~olbench.harness.interrupt`), and the catalogue of components
(:mod:`~olbench.harness.listing`). :mod:`olbench.pipeline` calls it to plan and execute. It
imports the engine, never the analysis wing or the front door (tests/test_layout.py).
"""
