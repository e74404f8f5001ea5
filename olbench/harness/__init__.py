"""The harness: from a configuration to the results table.

Tasks (:mod:`~olbench.harness.tasks`: the grid of stream x learner x comparator x seed,
checked before anything runs), the runs (:mod:`~olbench.harness.grid`, joblib or Dask), the
run files (:mod:`~olbench.harness.results`: checksummed, resumable), interruption and
workers (:mod:`~olbench.harness.interrupt`), the options and the command line's overrides
checked up front (:mod:`~olbench.harness.validate`, :mod:`~olbench.harness.overrides`), the
catalogue of components (:mod:`~olbench.harness.listing`) and an experiment's parameter
selection stage (:mod:`~olbench.harness.selection`). It imports the engine, never the
analysis wing or the front door (tests/test_layout.py).
"""
