"""The table of figure builders: every figure kind registers itself with :func:`figure` when
its module is imported, so a new figure is one new module of :mod:`olbench.analysis.figures` (no
central list to edit).

A builder is a pure function of the results table (and, when registered with ``side=(...)``,
of the side tables it names: the runs' declared outputs and the grid's order,
:mod:`olbench.harness.side`; never of a stream or a learner rebuilt) that returns a
:class:`~matplotlib.figure.Figure`,
``None`` when the table has nothing to show, a mapping ``{file stem: Figure}`` when it
draws several figures of one kind (one per stream, say), or a list of figures: the pages of
one figure too large for a page (:func:`~olbench.analysis.figures.style.paged`), saved as
``<stem>``, ``<stem>_2``, ...
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from olbench.analysis.figures.style import save_figure


@dataclass(frozen=True)
class FigureKind:
    """A registered figure: its file ``stem``, its ``build`` function, the one-line
    ``caption`` the report writes under it, its place in the report (``order``) and the
    side tables it reads besides the results table (``side``)."""

    stem: str
    build: Callable[..., Figure | Mapping[str, Figure] | None]
    caption: str | None
    order: float
    side: tuple[str, ...] = ()


#: Every registered figure, by file stem.
FIGURES: dict[str, FigureKind] = {}


def page_stems(stem: str, pages: list) -> dict:
    """``{file stem: page}``: the first page keeps ``stem``, the next are ``<stem>_2`` ...

    >>> list(page_stems("regret", ["a", "b", "c"]))
    ['regret', 'regret_2', 'regret_3']
    """
    return {stem if i == 1 else f"{stem}_{i}": page for i, page in enumerate(pages, 1)}


def figure(stem: str, *, order: float, caption: str | None = None,
           side: tuple[str, ...] = (), **params) -> Callable:
    """Register the decorated builder as the figure ``stem`` (``params`` are passed to it);
    the builder itself is returned unchanged, so the decorator stacks (one builder, several
    figures with other parameters). ``side``: the side tables it reads (it is called as
    ``build(table, side)`` with those of them the folder has)."""
    def register(fn: Callable) -> Callable:
        if stem in FIGURES and not _same_builder(FIGURES[stem].build, fn):
            raise ValueError(f"figure {stem!r} is registered twice")
        build = functools.partial(fn, **params) if params else fn
        FIGURES[stem] = FigureKind(stem, build, caption, order, tuple(side))
        return fn
    return register


def _same_builder(build: Callable, fn: Callable) -> bool:
    """Is ``fn`` the registered ``build`` again (:func:`olbench.harness.studies.same_code`)?"""
    from olbench.harness.studies import same_code

    return same_code(getattr(build, "func", build), fn)


def captions() -> dict[str, str]:
    """The one-line caption of each registered figure, by file stem (for the report)."""
    return {kind.stem: kind.caption for kind in FIGURES.values() if kind.caption}


def build_figures(table: pd.DataFrame, side: Mapping[str, pd.DataFrame] | None = None,
                  only: Collection[str] | None = None) -> dict[str, Figure]:
    """Every figure the table supports, by file stem, in report order; figures without data
    are left out (no regret -> no regret figures, no bound values -> no scatter, no Novikoff
    rows -> a mistakes figure without the Novikoff line). Figures that read side tables
    (decision boundaries: the final weights and the points) are drawn only when ``side`` has
    some (:func:`olbench.harness.side.read_side` of the results folder; none for a folder
    written before olbench had them), each given only the tables it declares. ``only``: the
    registered stems to draw (an experiment's ``run.figures`` list); default: all."""
    unknown = sorted(set(only or ()) - set(FIGURES))
    if unknown:
        raise ValueError(f"unknown figures {unknown}; registered: {', '.join(sorted(FIGURES))}")
    out: dict[str, Figure] = {}
    for kind in sorted(FIGURES.values(), key=lambda k: k.order):
        if (kind.side and not side) or (only is not None and kind.stem not in only):
            continue
        made = kind.build(table, {name: side[name] for name in kind.side if name in side}) \
            if kind.side else kind.build(table)
        if isinstance(made, Mapping):
            out.update(made)
        elif isinstance(made, list):       # pages of one figure (style.paged)
            out.update(page_stems(kind.stem, made))
        elif made is not None:
            out[kind.stem] = made
    return out


def make_figures(table: pd.DataFrame, out_dir, side: Mapping[str, pd.DataFrame] | None = None,
                 only: Collection[str] | None = None) -> list[Path]:
    """Write :func:`build_figures` into ``out_dir`` (created) as PNG + PDF; returns the files
    written, PNG then PDF of each figure."""
    return [p for stem, fig in build_figures(table, side, only).items()
            for p in save_figure(fig, Path(out_dir) / stem)]


def draw_folder(folder, out_dir=None, table: pd.DataFrame | None = None,
                only: Collection[str] | None = None) -> list[Path]:
    """Draw the figures of a results folder from its table and side tables (into its
    ``figures/`` by default), the study files its ``config.yaml`` names (``modules:``)
    imported first; returns the files written (:func:`make_figures`)."""
    from omegaconf import OmegaConf

    from olbench.harness.results import read_results
    from olbench.harness.side import read_side
    from olbench.harness.studies import module_problems

    folder = Path(folder)
    config = folder / "config.yaml"
    problems = module_problems(OmegaConf.load(config).get("modules")) if config.exists() \
        else []
    if problems:
        raise ValueError(f"{config}: " + "; ".join(problems))
    table = read_results(folder) if table is None else table
    return make_figures(table, Path(out_dir or folder / "figures"), read_side(folder), only)
