"""The analysis wing: from the results table to what a reader sees.

Table views (:mod:`~olbench.analysis.views`), the summary (:mod:`~olbench.analysis.summary`),
the Markdown report (:mod:`~olbench.analysis.report`, its sections
:mod:`~olbench.analysis.report_sections` and :mod:`~olbench.analysis.report_bounds`, a
study's own sections :mod:`~olbench.analysis.study_sections`, its tables
:mod:`~olbench.analysis.markdown`) and the LaTeX tables (:mod:`~olbench.analysis.latex`),
statistics over seeds (:mod:`~olbench.analysis.stats`), failed runs grouped
(:mod:`~olbench.analysis.failures`), comparisons of results folders
(:mod:`~olbench.analysis.comparison`), the results index (:mod:`~olbench.analysis.index`) and
the figures (:mod:`~olbench.analysis.figures`). It imports the engine and the harness's run
files, never the front door (tests/test_layout.py).
"""
