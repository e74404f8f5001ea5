"""A figure lint: what makes a figure unprintable, checked on the drawn figure.

:func:`lint` draws a :class:`~matplotlib.figure.Figure` (so that its layout engine has
placed everything) and measures every text and legend with matplotlib's renderer
(``get_window_extent``). It returns one line per problem, ``[]`` for a figure a paper could
print:

* **size**: larger than :data:`MAX_SIZE` inches (a page holds about 10 × 12);
* **layout**: a warning while drawing (``constrained_layout not applied``: the panels did not
  fit);
* **outside**: a text or legend reaching past the figure's edge (cut off when saved);
* **overlap**: two legends, or a legend and a text, or two texts (titles, axis and tick
  labels, annotations) drawn over each other;
* **font**: text smaller than :data:`MIN_FONT` points, or a title of more than
  :data:`MAX_TITLE_LINES` lines;
* **math**: a line of text with an odd number of ``$`` (mathtext broken over two lines is
  drawn as its source);
* **ticks**: one axis with the same tick label twice (two rows a reader cannot tell apart);
* **alike**: two series of one axes, or two entries of one legend, that look the same (colour,
  marker and its fill; the line style for series without markers);
* **restyled**: one label drawn in two looks in two panels of one figure (a learner must
  keep its colour, marker and line style across panels);
* **empty**: a visible panel (an axes with its axis on) with no data drawn in it.

>>> from matplotlib.figure import Figure
>>> fig = Figure(figsize=(4, 3), layout="constrained")
>>> ax = fig.subplots()
>>> for name in ("a", "b"):
...     _ = ax.plot([1, 2], [1, 2], color="C0", label=name)
>>> lint(fig)
["alike: axes 1: 'a' and 'b' look the same (#1f77b4, no marker, solid)"]
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Iterable

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import Collection
from matplotlib.colors import to_hex, to_rgba
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

from olbench.analysis.figures.style import STYLE

#: The largest figure (width, height) in inches: a printed page's text area, about.
MAX_SIZE = (10.0, 12.0)
#: The smallest font size in points that stays legible in print.
MIN_FONT = 7.0
#: The most lines a figure's or a panel's title may have.
MAX_TITLE_LINES = 2
#: Pixels a box may reach past the figure, or into another box, before it counts (rounding).
SLACK = 1.0


def lint(fig: Figure, dpi: float | None = None) -> list[str]:
    """The problems of ``fig`` (see the module docstring), one line each; ``[]`` when none.

    The figure is drawn on an Agg canvas at ``dpi`` (default: the dpi olbench saves PNGs
    with, :data:`~olbench.analysis.figures.style.STYLE`; its canvas is replaced by an Agg one, which
    can still save PNG and PDF, and its own dpi is restored after)."""
    own = fig.dpi
    fig.set_dpi(dpi or STYLE["savefig.dpi"])
    try:
        return _lint(fig)
    finally:
        fig.set_dpi(own)


def _lint(fig: Figure) -> list[str]:
    problems = _size(fig)
    renderer = _draw(fig, problems)
    texts = list(dict.fromkeys(_texts(fig)))   # the suptitle is in fig.texts too
    legends = [lg for lg in _legends(fig) if lg.get_visible()]
    boxes = ([(f"legend {i + 1}", lg.get_window_extent(renderer), lg)
              for i, lg in enumerate(legends)]
             + [(_describe(t), t.get_window_extent(renderer), t) for t in texts])
    problems += _outside(fig, boxes)
    problems += _overlaps(boxes)
    problems += _fonts(fig, texts)
    problems += _broken_math(fig, texts)
    problems += _duplicate_ticks(fig)
    problems += _alike(fig, legends)
    problems += _empty(fig)
    return problems


# --------------------------------------------------------------------------- drawing
def _size(fig: Figure) -> list[str]:
    w, h = fig.get_size_inches()
    if w > MAX_SIZE[0] + 1e-9 or h > MAX_SIZE[1] + 1e-9:
        return [f"size: {w:.1f} × {h:.1f} in, larger than {MAX_SIZE[0]:g} × {MAX_SIZE[1]:g} in"]
    return []


def _draw(fig: Figure, problems: list[str]):
    """Draw ``fig`` twice, as saving it as PNG and then PDF does (the layout engine runs
    again on the laid-out figure, which is where a layout that does not fit gives up);
    warnings raised meanwhile are problems."""
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        canvas.draw()
        canvas.draw()
    problems += sorted({f"layout: {w.message}" for w in caught})
    return canvas.get_renderer()


# --------------------------------------------------------------------------- the artists
def _visible_axes(fig: Figure) -> list[Axes]:
    return [ax for ax in fig.axes if ax.get_visible()]


def _legends(fig: Figure) -> list[Legend]:
    return list(fig.legends) + [ax.get_legend() for ax in _visible_axes(fig)
                                if ax.get_legend() is not None]


def _shown(text: Text) -> bool:
    return bool(text.get_visible() and text.get_text().strip())


def _drawn_ticks(axis):
    """The ticks of ``axis`` inside its view (the others are not drawn)."""
    low, high = sorted(axis.get_view_interval())
    span = (high - low) * 1e-9
    for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
        if low - span <= tick.get_loc() <= high + span:
            yield tick


def _tick_labels(ax: Axes):
    for axis in (ax.xaxis, ax.yaxis):
        if not axis.get_visible():
            continue
        for tick in _drawn_ticks(axis):
            for label in (tick.label1, tick.label2):
                if _shown(label):
                    yield label


def _texts(fig: Figure) -> Iterable[Text]:
    """Every text drawn outside the legends: the figure's (suptitle, supxlabel ...), and per
    visible axes its titles, axis labels, tick labels, offset texts and annotations."""
    own = [fig._suptitle, fig._supxlabel, fig._supylabel, *fig.texts]
    for text in own:
        if text is not None and _shown(text):
            yield text
    for ax in _visible_axes(fig):
        parts = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label,
                 ax.xaxis.get_offset_text(), ax.yaxis.get_offset_text(), *ax.texts]
        yield from (t for t in parts if _shown(t))
        yield from _tick_labels(ax)


def _describe(text: Text) -> str:
    words = " ".join(text.get_text().split())
    return repr(words if len(words) <= 40 else words[:37] + "...")


# --------------------------------------------------------------------------- the checks
def _outside(fig: Figure, boxes) -> list[str]:
    page = fig.bbox
    out = []
    for name, box, _ in boxes:
        past = max(page.x0 - box.x0, box.x1 - page.x1, page.y0 - box.y0, box.y1 - page.y1)
        if past > SLACK:
            out.append(f"outside: {name} reaches {past:.0f} px past the figure's edge")
    return out


def _overlaps(boxes) -> list[str]:
    """Pairs of boxes that overlap by more than :data:`SLACK` pixels both ways; a text inside
    a legend is part of the legend (not listed) and a legend may not cover any text."""
    if len(boxes) < 2:
        return []
    ext = np.array([[b.x0, b.y0, b.x1, b.y1] for _, b, _ in boxes])
    dx = np.minimum.outer(ext[:, 2], ext[:, 2]) - np.maximum.outer(ext[:, 0], ext[:, 0])
    dy = np.minimum.outer(ext[:, 3], ext[:, 3]) - np.maximum.outer(ext[:, 1], ext[:, 1])
    hit = np.triu((dx > SLACK) & (dy > SLACK), k=1)
    out = []
    for i, j in zip(*np.nonzero(hit)):
        out.append(f"overlap: {boxes[i][0]} and {boxes[j][0]} are drawn over each other")
    return out


def _fonts(fig: Figure, texts: list[Text]) -> list[str]:
    out = []
    small = sorted({(t.get_fontsize(), _describe(t)) for t in texts
                    if t.get_fontsize() < MIN_FONT - 1e-9})
    for legend in _legends(fig):
        small += [(t.get_fontsize(), _describe(t)) for t in legend.get_texts()
                  if _shown(t) and t.get_fontsize() < MIN_FONT - 1e-9]
    if small:
        size, example = small[0]
        out.append(f"font: {len(small)} text(s) below {MIN_FONT:g} pt, e.g. {example} at "
                   f"{size:g} pt")
    titles = [fig._suptitle] + [ax.title for ax in _visible_axes(fig)]
    for title in titles:
        if title is not None and _shown(title):
            lines = title.get_text().count("\n") + 1
            if lines > MAX_TITLE_LINES:
                out.append(f"font: title {_describe(title)} has {lines} lines (at most "
                           f"{MAX_TITLE_LINES})")
    return out


def _broken_math(fig: Figure, texts: list[Text]) -> list[str]:
    everything = texts + [t for legend in _legends(fig) for t in legend.get_texts()]
    return [f"math: {_describe(t)} has a line with an odd number of $" for t in everything
            if any(line.replace(r"\$", "").count("$") % 2 for line in t.get_text().split("\n"))]


def _duplicate_ticks(fig: Figure) -> list[str]:
    out = []
    for n, ax in enumerate(_visible_axes(fig), 1):
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            labels = [t.label1.get_text() for t in _drawn_ticks(axis) if _shown(t.label1)]
            repeated = sorted({s for s in labels if labels.count(s) > 1})
            if repeated:
                out.append(f"ticks: axes {n}: the {name} tick label {repeated[0]!r} appears "
                           f"{labels.count(repeated[0])} times")
    return out


def _dashes(line: Line2D):
    if line.get_linestyle() in ("None", " ", ""):
        return "no line"
    pattern = getattr(line, "_unscaled_dash_pattern", None)
    if pattern is None or pattern[1] is None:
        return "solid" if line.get_linestyle() in ("-", "solid") else line.get_linestyle()
    return "dashes " + ",".join(f"{v:g}" for v in pattern[1])


def _hex(color) -> str:
    """``#rrggbb``, with the alpha (``#rrggbbaa``) when it is not opaque."""
    return to_hex(color, keep_alpha=to_rgba(color)[3] < 1)


def look(handle) -> tuple | None:
    """How a legend handle (a series) looks: colour, marker and its fill for a line with
    markers; colour and line style for one without; face and edge colour and hatch for a
    patch or a collection. None for what has no look of its own."""
    if isinstance(handle, ErrorbarContainer):
        handle = handle.lines[0] if handle.lines[0] is not None else handle.lines[2][0]
    elif isinstance(handle, BarContainer):
        handle = handle.patches[0] if handle.patches else None
    if isinstance(handle, Line2D):
        marker = handle.get_marker()
        color = _hex(handle.get_color())
        if marker not in (None, "None", "none", "", " ") and handle.get_markevery() != []:
            return color, f"marker {marker}", f"fill {handle.get_fillstyle()}"
        return color, "no marker", _dashes(handle)
    if isinstance(handle, Patch):
        return _hex(handle.get_facecolor()), _hex(handle.get_edgecolor()), handle.get_hatch()
    if isinstance(handle, Collection):
        faces, edges = handle.get_facecolor(), handle.get_edgecolor()
        paths = handle.get_paths()
        shape = zlib.crc32(np.round(paths[0].vertices, 3).tobytes()) if len(paths) else 0
        return (_hex(faces[0]) if len(faces) else "no face",
                _hex(edges[0]) if len(edges) else "no edge", f"shape {shape:08x}")
    return None


def _clashes(entries, where: str) -> list[str]:
    """Two different labels of ``entries`` [(label, look)] with one look."""
    first: dict[tuple, str] = {}
    out = []
    for label, key in entries:
        if key is None:
            continue
        other = first.setdefault(key, label)
        if other != label:
            out.append(f"alike: {where}: {other!r} and {label!r} look the same "
                       f"({', '.join(map(str, key))})")
    return out


def _alike(fig: Figure, legends: list[Legend]) -> list[str]:
    out = []
    looks: dict[str, set] = {}
    for n, ax in enumerate(_visible_axes(fig), 1):
        handles, labels = ax.get_legend_handles_labels()
        entries = list(dict.fromkeys((lab, look(h)) for h, lab in zip(handles, labels)))
        out += _clashes(entries, f"axes {n}")
        for lab, key in entries:
            if key is not None:
                looks.setdefault(lab, set()).add(key)
    for i, legend in enumerate(legends, 1):
        labels = [t.get_text() for t in legend.get_texts()]
        entries = [(lab, look(h)) for h, lab in zip(legend.legend_handles, labels)]
        out += _clashes(list(dict.fromkeys(entries)), f"legend {i}")
    for lab, keys in looks.items():
        if len(keys) > 1:
            out.append(f"restyled: {lab!r} is drawn in {len(keys)} looks across the panels")
    return out


def _has_data(ax: Axes) -> bool:
    """Does ``ax`` show data: a line in data coordinates with a finite point (not an
    axhline/axvline, which spans the axes), a non-empty collection, image or patch?"""
    for line in ax.get_lines():
        if not line.get_visible() or not line.get_transform().contains_branch(ax.transData):
            continue
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        if x.size and y.size and np.isfinite(x).any() and np.isfinite(y).any():
            return True
    for coll in ax.collections:
        if coll.get_visible() and (len(coll.get_offsets()) and np.isfinite(
                np.asarray(coll.get_offsets(), float)).any()
                or any(len(p.vertices) for p in coll.get_paths())):
            return True
    if any(im.get_visible() and np.isfinite(np.asarray(im.get_array(), float)).any()
           for im in ax.get_images() if isinstance(im, AxesImage)):
        return True
    return any(p.get_visible() for p in ax.patches)


def _empty(fig: Figure) -> list[str]:
    """Visible panels without data; an axes with its axis turned off is not a panel (it may
    hold a key or a note)."""
    return [f"empty: axes {n} ({_describe(ax.title) if _shown(ax.title) else 'untitled'}) "
            "shows no data" for n, ax in enumerate(_visible_axes(fig), 1)
            if ax.axison and not _has_data(ax)]
