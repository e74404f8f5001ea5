"""Figures: pure functions of the results table (DESIGN.md section 1: figures never recompute
metrics, they only draw the table views of :mod:`olbench.views`).

One module per figure kind, each registering its builders with :func:`figure` (the table of
builders is :data:`FIGURES`): :mod:`~olbench.figures.regret` (linear and log-log, with the
checked bound and √t / log t references), :mod:`~olbench.figures.mistakes`,
:mod:`~olbench.figures.novikoff` (M_T against (R/γ)² on one axis),
:mod:`~olbench.figures.bounds` (observed vs bound), :mod:`~olbench.figures.sweep` (final
metric against each swept parameter), :mod:`~olbench.figures.libol` (LIBOL-style panels),
:mod:`~olbench.figures.drift` (windowed mistake rate with the switch rounds),
:mod:`~olbench.figures.final` (final values over seeds),
:mod:`~olbench.figures.regression` (average loss; fitted 1-D functions),
:mod:`~olbench.figures.boundaries` (2-D decision boundaries),
:mod:`~olbench.figures.textbook` (Sugiyama 2015, ch. 31, panel by panel),
:mod:`~olbench.figures.outlier_heatmap` (AROW − PA per outlier × noise cell),
:mod:`~olbench.figures.regret_shifting` (static against shifting regret on drifting
streams); the shared look
is in :mod:`~olbench.figures.style`, how a figure fits a page (panels, pages, legends) in
:mod:`~olbench.figures.layout`, and :mod:`~olbench.figures.lint` checks that it does (every
kind is linted by tests/test_figure_lint.py). A new figure is one new module here.

:func:`make_figures` writes every figure the table supports (PNG + PDF), :func:`captions`
gives the report a caption per file stem.

>>> sorted(captions())[:3]
['avg_loss', 'boundaries', 'bounds']
"""

from olbench.component import import_submodules
from olbench.figures.registry import (
    FIGURES,
    FigureKind,
    build_figures,
    captions,
    figure,
    make_figures,
)
from olbench.figures.style import learner_styles, save_figure

import_submodules(__name__, __path__)

__all__ = ["FIGURES", "FigureKind", "build_figures", "captions", "figure", "learner_styles",
           "make_figures", "save_figure"]
