"""The table of figure builders: every figure kind registers itself with :func:`figure` when
its module is imported, so a new figure is one new module of :mod:`olbench.analysis.figures` (no
central list to edit).

A builder is a pure function of the results table (and, when registered with
``tasks=True``, of the grid's tasks too) that returns a :class:`~matplotlib.figure.Figure`,
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
    ``caption`` the report writes under it, its place in the report (``order``) and whether
    it needs the grid's tasks besides the table."""

    stem: str
    build: Callable[..., Figure | Mapping[str, Figure] | None]
    caption: str | None
    order: float
    tasks: bool = False


#: Every registered figure, by file stem.
FIGURES: dict[str, FigureKind] = {}


def streams_with_final_weights(table: pd.DataFrame, tasks):
    """For figures drawn from the runs' final weights (``final_w``): per stream of the grid,
    numbered in the grid's order, ``(number, stream, rows, seed)``: the stream built from the
    first seed's spec and the ok rows of that stream that stored their final weights."""
    import json

    from hydra.utils import instantiate

    from olbench import schema as col
    from olbench.analysis.views import ok_rows

    if col.FINAL_W not in table:
        return
    ok = ok_rows(table)
    ok = ok[ok[col.FINAL_W].notna()].drop_duplicates(col.RUN_ID)
    seed = min(t.seed for t in tasks)
    specs = {json.dumps(t.stream, sort_keys=True, default=str): t.stream for t in tasks
             if t.seed == seed}
    for number, spec in enumerate(specs.values()):
        stream = instantiate(spec, _convert_="all")
        rows = ok[ok[col.STREAM] == stream.name]
        if not rows.empty:
            yield number, stream, rows, seed


def page_stems(stem: str, pages: list) -> dict:
    """``{file stem: page}``: the first page keeps ``stem``, the next are ``<stem>_2`` ...

    >>> list(page_stems("regret", ["a", "b", "c"]))
    ['regret', 'regret_2', 'regret_3']
    """
    return {stem if i == 1 else f"{stem}_{i}": page for i, page in enumerate(pages, 1)}


def figure(stem: str, *, order: float, caption: str | None = None, tasks: bool = False,
           **params) -> Callable:
    """Register the decorated builder as the figure ``stem`` (``params`` are passed to it);
    the builder itself is returned unchanged, so the decorator stacks (one builder, several
    figures with other parameters)."""
    def register(fn: Callable) -> Callable:
        if stem in FIGURES:
            raise ValueError(f"figure {stem!r} is registered twice")
        build = functools.partial(fn, **params) if params else fn
        FIGURES[stem] = FigureKind(stem, build, caption, order, tasks)
        return fn
    return register


def captions() -> dict[str, str]:
    """The one-line caption of each registered figure, by file stem (for the report)."""
    return {kind.stem: kind.caption for kind in FIGURES.values() if kind.caption}


def build_figures(table: pd.DataFrame, tasks=None,
                  only: Collection[str] | None = None) -> dict[str, Figure]:
    """Every figure the table supports, by file stem, in report order; figures without data
    are left out (no regret -> no regret figures, no bound values -> no scatter, no Novikoff
    rows -> a mistakes figure without the Novikoff line). Figures that need the grid's
    ``tasks`` (decision boundaries) are drawn only when they are given. ``only``: the
    registered stems to draw (an experiment's ``run.figures`` list); default: all."""
    unknown = sorted(set(only or ()) - set(FIGURES))
    if unknown:
        raise ValueError(f"unknown figures {unknown}; registered: {', '.join(sorted(FIGURES))}")
    out: dict[str, Figure] = {}
    for kind in sorted(FIGURES.values(), key=lambda k: k.order):
        if (kind.tasks and tasks is None) or (only is not None and kind.stem not in only):
            continue
        made = kind.build(table, tasks) if kind.tasks else kind.build(table)
        if isinstance(made, Mapping):
            out.update(made)
        elif isinstance(made, list):       # pages of one figure (style.paged)
            out.update(page_stems(kind.stem, made))
        elif made is not None:
            out[kind.stem] = made
    return out


def make_figures(table: pd.DataFrame, out_dir, tasks=None,
                 only: Collection[str] | None = None) -> list[Path]:
    """Write :func:`build_figures` into ``out_dir`` (created) as PNG + PDF; returns the files
    written, PNG then PDF of each figure."""
    return [p for stem, fig in build_figures(table, tasks, only).items()
            for p in save_figure(fig, Path(out_dir) / stem)]
