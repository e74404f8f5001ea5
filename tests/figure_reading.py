"""How the figure tests read a drawn figure: the learners' labelled lines (the synthetic
table's learners as figures name them), and a figure drawn on a canvas for its renderer."""

from __future__ import annotations

from synthetic_table import LEARNERS

from olbench.analysis import views

#: the learners as figures name them (display names; the data keeps the full names)
SHORT = {key: views.display_name(name) for key, name in LEARNERS.items()}


def labelled_lines(ax) -> list:
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


def learner_lines(ax) -> dict[str, object]:
    return {ln.get_label().split("  slope")[0]: ln for ln in labelled_lines(ax)
            if not ln.get_label().startswith(("Novikoff", "reference"))
            and ": bound" not in ln.get_label()}


def drawn(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    return fig.canvas.get_renderer()
