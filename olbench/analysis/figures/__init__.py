"""Figures: pure functions of the results table (DESIGN.md section 1: figures never recompute
metrics, they only draw the table views of :mod:`olbench.analysis.views`) and of the side
tables the runs wrote beside it (final weights, points, switch rounds:
:mod:`olbench.harness.side`, read through :mod:`~olbench.analysis.figures.per_run`); no figure
builds a stream or a learner (tests/test_figure_inputs.py).

One module per figure kind, each registering its builders with :func:`figure` (the table of
builders is :data:`FIGURES`): :mod:`~olbench.analysis.figures.regret` (linear and log-log, with the
checked bound and √t / log t references), :mod:`~olbench.analysis.figures.mistakes`,
:mod:`~olbench.analysis.figures.novikoff` (M_T against (R/γ)² on one axis),
:mod:`~olbench.analysis.figures.bounds` (observed vs bound), :mod:`~olbench.analysis.figures.sweep`
(final metric against each swept parameter), :mod:`~olbench.analysis.figures.libol` (LIBOL-style
panels), :mod:`~olbench.analysis.figures.drift` (windowed mistake rate with the switch rounds),
:mod:`~olbench.analysis.figures.final` (final values over seeds),
:mod:`~olbench.analysis.figures.regression` (average loss; fitted 1-D functions),
:mod:`~olbench.analysis.figures.boundaries` (2-D decision boundaries),
:mod:`~olbench.analysis.figures.regret_shifting` (static against shifting regret on drifting
streams); the shared look
is in :mod:`~olbench.analysis.figures.style`, how a figure fits a page (panels, pages, legends) in
:mod:`~olbench.analysis.figures.layout`, and :mod:`~olbench.analysis.figures.lint` checks that it
does (every kind is linted by tests/test_figure_lint.py). A new figure is one new module here;
a figure of one study alone is a module of that study (``experiments/<study>/``), named by its
config's ``modules:`` (:mod:`olbench.harness.studies`), e.g. the textbook's panels
(``experiments/textbook_sugiyama/textbook.py``) and the outlier heatmap
(``experiments/pa_vs_arow_outliers/outlier_heatmap.py``).

:func:`make_figures` writes every figure the table supports (PNG + PDF), :func:`captions`
gives the report a caption per file stem.

>>> {"avg_loss", "boundaries", "bounds"} <= set(captions())   # and a study's, once imported
True
"""

from olbench.analysis.figures.registry import (
    FIGURES,
    FigureKind,
    build_figures,
    captions,
    draw_folder,
    figure,
    make_figures,
)
from olbench.analysis.figures.style import learner_styles, save_figure
from olbench.component import import_submodules

import_submodules(__name__, __path__)

__all__ = ["FIGURES", "FigureKind", "build_figures", "captions", "draw_folder", "figure",
           "figure_problems", "learner_styles", "make_figures", "save_figure"]


def figure_problems(cfg) -> list[str]:
    """``run.figures`` naming a figure kind that is not registered, as the other problems of a
    configuration are said (``key=value: what is wrong``); none for true, false or known names.
    The study files the config names (``modules:``) are imported first, so that the figures
    they register are known (and a file that is not there, or fails, is a problem too).

    >>> from omegaconf import OmegaConf
    >>> figure_problems(OmegaConf.create({"run": {"figures": ["regret", "regrett"]}}))
    ... # doctest: +ELLIPSIS
    ["run.figures=['regret', 'regrett']: unknown figures ['regrett']; registered: ..."]
    """
    from olbench.harness.studies import module_problems

    problems = module_problems(cfg.get("modules"))
    figures = (cfg.get("run") or {}).get("figures")
    if isinstance(figures, (bool, str)) or figures is None:
        return problems
    try:
        unknown = sorted(set(figures) - set(FIGURES))
    except TypeError:   # not a list of names: the configuration's checks say so
        return problems
    if not unknown:
        return problems
    return problems + [f"run.figures={list(figures)!r}: unknown figures {unknown}; registered: "
                       f"{', '.join(sorted(FIGURES))} (a study's own figures are registered "
                       "by the files its config names in modules:)"]
