"""How figures fit a page: panel grids no wider than a page (:func:`panels`, with a key under
each panel: :func:`keyed_panels`), more panels than a page holds split into pages
(:func:`paged`), panel titles that stay within two lines (:func:`title_panels`: what the
panels' streams share is said once, in the figure's title), a figure legend laid out to fit
the figure's width as measured (:func:`figure_legend`) and tick labels that fit a narrow
panel (:func:`few_ticks`). :mod:`olbench.analysis.figures.lint` checks the result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, MaxNLocator

from olbench.analysis.figures.style import STYLE, chars, wrap

#: A page's width and height in inches (figures stay within; :mod:`olbench.analysis.figures.lint`).
PAGE = (9.6, 11.5)
#: At most this many panels per figure; more are drawn as further pages (``<stem>_2`` ...).
PANELS_PER_PAGE = 6


def title_chars(fig: Figure, ncols: int) -> int:
    """About how many characters of a panel title fit over one of ``ncols`` panels in a row
    (its axes, without the tick and axis labels to its left)."""
    return max(20, int(0.8 * chars(fig, STYLE["axes.titlesize"]) / max(1, ncols)))


def panel_titles(names: list[str], width: int) -> tuple[dict[str, str], str]:
    """Titles of the panels of ``names`` (display names such as ``Outliers (n=80, d=3)``),
    at most :data:`~olbench.analysis.figures.lint.MAX_TITLE_LINES` lines of ``width`` characters:
    the names themselves (wrapped) when they fit; else, among several names of one class,
    what sets each apart, with the parameters they all share said once (returned, for the
    figure's title; "" when nothing is shared).

    >>> titles, shared = panel_titles(["S (n=80, d=3, f=0.1)", "S (n=80, d=3, f=0.2)"], 6)
    >>> titles, shared
    ({'S (n=80, d=3, f=0.1)': 'f=0.1', 'S (n=80, d=3, f=0.2)': 'f=0.2'}, 'S (n=80, d=3)')
    """
    titles = {n: wrap(n, width) for n in names}
    if all(t.count("\n") < 2 for t in titles.values()):
        return titles, ""
    parsed = {n: re.fullmatch(r"(.*?) \((.*)\)", n) for n in names}
    classes: dict[str, list[str]] = {}
    for n, m in parsed.items():
        if m:
            classes.setdefault(m.group(1), []).append(n)
    shared = []
    for cls, members in classes.items():
        if len(members) < 2:
            continue
        params = [dict(p.split("=", 1) for p in parsed[n].group(2).split(", ") if "=" in p)
                  for n in members]
        # a parameter at its default is left out of a display name: said here, for the panel
        defaults = _display_defaults(cls)
        keys = list(dict.fromkeys(k for ps in params for k in ps))
        params = [{k: ps.get(k, defaults.get(k, "default")) for k in keys} for ps in params]
        common = [k for k in keys if len({ps[k] for ps in params}) == 1]
        prefix = f"{cls}: " if len(classes) > 1 or len(members) < len(names) else ""
        for n, ps in zip(members, params):
            titles[n] = wrap(prefix + ", ".join(f"{k}={v}" for k, v in ps.items()
                                                if k not in common), width)
        shared.append(cls + (f" ({', '.join(f'{k}={params[0][k]}' for k in common)})"
                             if common else ""))
    return titles, "; ".join(shared)


def _display_defaults(title: str) -> dict[str, str]:
    """The default parameters of the component class ``title`` as display names show
    values (``{}`` for a name of no known class)."""
    from olbench.component import _short
    from olbench.names import classes_by_name

    cls = classes_by_name().get(title)
    return {} if cls is None else {k: _short(v) for k, v in cls.param_defaults().items()}


def title_panels(fig: Figure, axes: list, names: list[str], ncols: int,
                 suffix: dict[str, str] | None = None, pad: float | None = None) -> str:
    """Title each of ``axes`` by its name in ``names`` (:func:`panel_titles`, for panels
    ``ncols`` to a row; ``suffix``: text after a name's title, e.g. " (log-log)"; ``pad``:
    the gap under the title in points, default matplotlib's); returns what the names share,
    to be said once in the figure's title ("" when nothing is)."""
    suffix = suffix or {}
    # the width in characters is an estimate: a title still past the figure's edge once
    # drawn (a long unbreakable part, a panel at the edge) is wrapped narrower
    for narrower in (1.0, 0.85, 0.7):
        for size in (STYLE["axes.titlesize"], 9, 8, 7.5):   # smaller type before a third line
            width = int(narrower * title_chars(fig, ncols) * STYLE["axes.titlesize"] / size)
            titles, shared = panel_titles(names, width)
            titles = {n: wrap(t.replace("\n", " ") + suffix.get(n, ""), width)
                      for n, t in titles.items()}
            if all(t.count("\n") < 2 for t in titles.values()):
                break
        for ax, name in zip(axes, names):
            ax.set_title(titles[name], fontsize=size, pad=pad)
        if _titles_narrow(fig, axes, ncols) or _titles_inside(fig, axes):
            break
    return shared


def _titles_narrow(fig: Figure, axes: list, ncols: int) -> bool:
    """Whether each panel title, as measured, is at most 0.8 of its column's width: a panel's
    axes sit right of its column's centre by half its y label's room (about a fifth of the
    column), so such a title stays within the figure and the figure need not be drawn."""
    column = 0.8 * fig.bbox.width / max(1, ncols)
    return all(ax.title.get_window_extent(renderer(fig)).width <= column for ax in axes)


def _titles_inside(fig: Figure, axes: list) -> bool:
    """Whether every panel title of ``axes`` lies within the figure's width, as drawn."""
    fig.draw_without_rendering()
    boxes = [ax.title.get_window_extent(renderer(fig)) for ax in axes]
    return all(0 <= box.x0 and box.x1 <= fig.bbox.x1 for box in boxes)


def finish_page(fig: Figure, axes: list, names: list[str], title: str, *,
                note: str | None = None, ncols: int = 3, suffix: dict | None = None,
                legend_axes: list | None = None, row_titles: bool = False) -> Figure:
    """A page's last touches: each of ``axes`` titled by its name in ``names``
    (:func:`title_panels`, ``ncols`` to a row), the figure by ``title`` and what the names
    share, and the figure's legend under it (of ``legend_axes``, default ``axes``) with
    ``note``; returns ``fig``. ``row_titles``: each of ``axes`` is the middle panel of a
    row and its title names the row: wrapped to the page's width, it is wider than its
    panel, so it is raised by a tick label's height above the gap matplotlib leaves: the
    neighbours' top tick labels reach up to half their height above the axes, which left
    a fraction of a pixel between them and the title."""
    if row_titles:
        pad = mpl.rcParams["axes.titlepad"] + STYLE["ytick.labelsize"]
        shared = title_panels(fig, axes, names, 1, suffix, pad=pad)
    else:
        shared = title_panels(fig, axes, names, min(ncols, len(names)), suffix)
    fig.suptitle(with_shared(title, shared, fig))
    figure_legend(fig, axes if legend_axes is None else legend_axes, note=note)
    return fig


def with_shared(title: str, shared: str, fig: Figure) -> str:
    """``title``, and what the panels' streams share (:func:`title_panels`), wrapped."""
    return wrap(title + (f"; streams {shared}" if shared else ""), chars(fig, 11))


# --------------------------------------------------------------------------- panels and pages
def renderer(fig: Figure):
    """A renderer of ``fig`` to measure its texts with (an Agg canvas is attached if the
    figure has none: it still saves PNG and PDF)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    return canvas.get_renderer()


def _panel_size(ncols: int, size) -> tuple[float, float]:
    """A panel's (width, height) in a row of ``ncols`` within :data:`PAGE`'s width: narrower
    than ``size`` when the page demands, and shorter in proportion (to 80% at most)."""
    width = min(size[0], PAGE[0] / ncols)
    return width, size[1] * max(0.8, width / size[0])


def panels(n: int, *, ncols: int = 3, size=(4.8, 3.4), sharex=False) -> tuple[Figure, list]:
    """A figure of ``n`` panels, ``ncols`` to a row (spare cells hidden); its visible axes.
    ``size``: a panel's size in inches where the page allows; the figure is never wider than
    :data:`PAGE` (narrower panels are made shorter in proportion, to 80% at most). More
    panels than a page holds are split by :func:`paged` first."""
    ncols = max(1, min(ncols, n))
    nrows = int(np.ceil(n / ncols))
    width, height = _panel_size(ncols, size)
    fig = Figure(figsize=(width * ncols, height * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=sharex).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    for ax in axes[:n]:
        few_ticks(ax)
    return fig, list(axes[:n])


def keyed_panels(n: int, key_lines: int, *, ncols: int = 3,
                 size=(4.8, 3.4)) -> tuple[Figure, list, list]:
    """:func:`panels` with a key under each panel, off the data: an axes without axis lines
    (not a panel), ``key_lines`` lines of legend high, for the panel's own legend (e.g. each
    curve's fitted slope). Returns the figure, the panels and their keys."""
    ncols = max(1, min(ncols, n))
    nrows = int(np.ceil(n / ncols))
    width, height = _panel_size(ncols, size)
    key = (key_lines + 0.5) * 1.45 * STYLE["legend.fontsize"] / 72
    fig = Figure(figsize=(width * ncols, (height + key) * nrows + 0.6), layout="constrained")
    grid = fig.add_gridspec(2 * nrows, ncols, height_ratios=[height, key] * nrows)
    axes, keys = [], []
    for i in range(n):
        row, column = divmod(i, ncols)
        axes.append(fig.add_subplot(grid[2 * row, column]))
        keys.append(fig.add_subplot(grid[2 * row + 1, column]))
        keys[-1].set_axis_off()
        few_ticks(axes[-1])
    return fig, axes, keys


def compact_number(value: float, _=None) -> str:
    """A tick label of a count, short enough for five to fit a narrow panel: thousands as
    ``k`` from 10,000 and millions as ``M`` (never an offset or a ×10^k above the axis).

    >>> [compact_number(v) for v in (0, 2500, 10000, 750000, 1e6, 1.5e6, 0.25)]
    ['0', '2500', '10k', '750k', '1M', '1.5M', '0.25']
    """
    if abs(value) >= 1e6 and value % 1e5 == 0:
        return f"{value / 1e6:g}M"
    if abs(value) >= 1e4 and value % 100 == 0:
        return f"{value / 1e3:g}k"
    return f"{value:g}"


def few_ticks(ax) -> None:
    """At most about five ticks on a linear x axis, labelled by :func:`compact_number`: the
    rounds up to 1000000 then fit a panel a third of a page wide (a log axis, set later,
    brings its own ticks)."""
    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    ax.xaxis.set_major_formatter(FuncFormatter(compact_number))


def pages(keys: Iterable, per_page: int = PANELS_PER_PAGE) -> list[list]:
    """``keys`` in the fewest pages of at most ``per_page``, as even as possible.

    >>> [len(p) for p in pages(range(11))], [len(p) for p in pages(range(10), 3)]
    ([6, 5], [2, 3, 3, 2])
    """
    keys = list(keys)
    count = -(-len(keys) // max(1, per_page))
    bounds = np.linspace(0, len(keys), count + 1).round().astype(int)
    return [keys[a:b] for a, b in zip(bounds[:-1], bounds[1:])]


def paged(keys: Iterable, draw: Callable[[list], Figure | None],
          per_page: int = PANELS_PER_PAGE, fit: bool = False) -> Figure | list[Figure] | None:
    """``draw(page)`` for each page of ``keys`` (:func:`pages`): one page comes back as its
    figure, several as a list (the registry saves them as ``<stem>``, ``<stem>_2`` ...),
    each page's title saying which part it is; None when no page has a figure. ``fit``: a
    page taller than :data:`PAGE` (its legend and keys grown with many curves) is drawn
    again with fewer panels to a page, down to one."""
    keys = list(keys)
    made = [fig for fig in map(draw, pages(keys, per_page)) if fig is not None]
    while fit and per_page > 1 and any(fig.get_figheight() > PAGE[1] for fig in made):
        per_page -= 1
        made = [fig for fig in map(draw, pages(keys, per_page)) if fig is not None]
    if len(made) > 1:
        for i, fig in enumerate(made, 1):
            title = fig._suptitle
            if title is not None:
                text = title.get_text().replace("\n", " ")
                title.set_text(wrap(f"{text} (part {i} of {len(made)})",
                                    chars(fig, title.get_fontsize())))
    return made[0] if len(made) == 1 else (made or None)


def figure_legend(fig: Figure, axes: list, note: str | None = None) -> None:
    """One legend for the whole figure, below it: every label once, in drawing order, in the
    lowest layout that fits the figure's width, as measured (up to four columns, labels as
    they are or wrapped to a column's width). The figure grows by the legend's height, so
    that a long legend (sixteen learners) does not squash the panels above it."""
    seen: dict[str, object] = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    if not seen:
        return
    handles = list(seen.values()) + ([Patch(color="0.5", alpha=0.25)] if note else [])
    measure = renderer(fig)
    room = 0.97 * fig.bbox.width
    width = chars(fig, STYLE["legend.fontsize"]) - 6        # the handle and its gap
    longest = max(len(lab) for lab in seen)

    def labels(ncols: int, wrapped: bool) -> list[str]:
        column = max(20, width // ncols - 4)
        out = [wrap(lab, column) if wrapped else lab for lab in seen]
        if note:   # the note, last, is wrapped to the columns' width: it never widens them
            out.append(wrap(note, column if wrapped else max(longest, column)))
        return out

    # every layout up to four columns, with the labels as they are or wrapped to a column's
    # width; the lowest legend that fits the figure's width is kept
    best = None
    for ncols in range(min(4, len(handles)), 0, -1):
        for wrapped in (False, True):
            legend = fig.legend(handles, labels(ncols, wrapped), loc="outside lower center",
                                ncols=ncols)
            box = legend.get_window_extent(measure)
            legend.remove()
            if box.width <= room and (best is None or box.height < best[2] - 0.5):
                best = (ncols, wrapped, box.height)
    ncols, wrapped, _ = best or (1, True, None)
    legend = fig.legend(handles, labels(ncols, wrapped), loc="outside lower center",
                        ncols=ncols)
    box = legend.get_window_extent(measure)
    fig.set_figheight(fig.get_figheight() + box.height / fig.dpi + 0.1)
