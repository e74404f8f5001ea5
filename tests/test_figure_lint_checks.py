"""The figure lint's own checks (olbench/analysis/figures/lint.py): each fires on a figure that
has the defect and stays quiet on one that has not. That every registered figure passes it,
drawn from the tables of small real grids: tests/test_figure_lint.py.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from olbench.analysis.figures.lint import MAX_SIZE, lint


def test_a_clean_figure_has_no_problems():
    fig = Figure(figsize=(6, 4), layout="constrained")
    axes = fig.subplots(1, 2)
    for ax in axes:
        ax.plot([1, 2, 3], [1, 2, 3], color="C0", marker="o", label="a")
        ax.plot([1, 2, 3], [3, 2, 1], color="C1", marker="s", label="b")
        ax.set_title("panel")
        ax.set_xlabel("t")
    fig.suptitle("two panels")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=2)
    assert lint(fig) == []


def test_a_legend_past_the_edge_is_outside():
    fig = Figure(figsize=(3, 2.5), layout="constrained")
    ax = fig.subplots()
    ax.plot([1, 2], [1, 2], label="a label far too long for a figure three inches wide, cut")
    ax.legend(loc="upper left", bbox_to_anchor=(-0.4, 1.0))
    problems = lint(fig)
    assert any(p.startswith("outside: legend 1") for p in problems), problems


def test_legends_and_texts_drawn_over_each_other_overlap():
    fig = Figure(figsize=(5, 4), layout="constrained")
    ax = fig.subplots()
    ax.plot([1, 2], [1, 2], label="first")
    ax.plot([1, 2], [2, 1], label="second", linestyle="--")
    ax.legend(loc="center")
    fig.legend(loc="center")                       # a second legend over the first
    ax.text(1.5, 1.5, "a note under the legends", ha="center", va="center")
    problems = [p for p in lint(fig) if p.startswith("overlap")]
    assert any("legend 1 and legend 2" in p for p in problems), problems
    assert any("'a note under the legends'" in p for p in problems), problems


def test_a_figure_larger_than_a_page_is_too_large():
    fig = Figure(figsize=(MAX_SIZE[0] + 2, 4))
    fig.subplots().plot([1, 2], [1, 2])
    assert [p for p in lint(fig) if p.startswith("size")] == [
        f"size: {MAX_SIZE[0] + 2:.1f} × 4.0 in, larger than 10 × 12 in"]


def test_two_series_alike_in_one_axes_and_one_learner_restyled_across_panels():
    fig = Figure(figsize=(7, 3), layout="constrained")
    left, right = fig.subplots(1, 2)
    # same colour and marker; only the line style differs: still alike
    left.plot([1, 2], [1, 2], color="C0", marker="o", linestyle="-", label="ALMA")
    left.plot([1, 2], [2, 1], color="C0", marker="o", linestyle="--", label="PA-II")
    right.plot([1, 2], [1, 2], color="C1", marker="s", label="ALMA")      # another look
    right.plot([1, 2], [2, 1], color="C2", marker="^", fillstyle="none", label="PA-II")
    problems = lint(fig)
    assert any(p.startswith("alike: axes 1: 'ALMA' and 'PA-II'") for p in problems), problems
    assert {p for p in problems if p.startswith("restyled")} == {
        "restyled: 'ALMA' is drawn in 2 looks across the panels",
        "restyled: 'PA-II' is drawn in 2 looks across the panels"}
    # a hollow marker is a look of its own (a learner against a second comparator)
    fig = Figure(figsize=(4, 3), layout="constrained")
    ax = fig.subplots()
    ax.plot([1, 2], [1, 2], color="C0", marker="o", label="A vs u")
    ax.plot([1, 2], [2, 1], color="C0", marker="o", fillstyle="none", label="A vs v")
    assert lint(fig) == []


def test_a_legend_of_one_colour_for_several_series_is_alike():
    fig = Figure(figsize=(7, 3), layout="constrained")
    axes = fig.subplots(1, 2)
    for ax, name in zip(axes, ("x", "y")):    # each panel restarts the colour cycle
        ax.plot([1, 2], [1, 2], color="C0", label=f"run {name}")
    fig.legend(loc="outside lower center")
    problems = lint(fig)
    assert "alike: legend 1: 'run x' and 'run y' look the same (#1f77b4, no marker, solid)" \
        in problems


def test_an_empty_panel_is_empty_but_a_key_without_axis_is_not():
    fig = Figure(figsize=(7, 3), layout="constrained")
    full, empty, key = fig.subplots(1, 3)
    full.plot([1, 2], [1, 2])
    empty.axhline(0)                     # a reference line is not data
    empty.set_title("LinearRegression")
    empty.text(0.5, 0.5, "nothing here", transform=empty.transAxes)
    key.set_axis_off()
    assert [p for p in lint(fig) if p.startswith("empty")] == [
        "empty: axes 2 ('LinearRegression') shows no data"]


def test_repeated_tick_labels_small_fonts_long_titles_and_broken_math():
    fig = Figure(figsize=(6, 4), layout="constrained")
    ax = fig.subplots()
    ax.errorbar([0.5, 0.7], [0, 1], xerr=0.1, fmt="o")
    ax.set_yticks([0, 1], ["AROW on Drift", "AROW on Drift"])
    ax.text(0.6, 0.5, "6 pt", fontsize=6)
    ax.set_xlabel("cumulative mistake rate $M_t\n/ t$")     # wrapped inside the math
    fig.suptitle("one\ntwo\nthree")
    problems = lint(fig)
    assert "math: 'cumulative mistake rate $M_t / t$' has a line with an odd number of $" \
        in problems
    assert "ticks: axes 1: the y tick label 'AROW on Drift' appears 2 times" in problems
    assert "font: 1 text(s) below 7 pt, e.g. '6 pt' at 6 pt" in problems
    assert "font: title 'one two three' has 3 lines (at most 2)" in problems


def test_a_layout_that_does_not_fit_is_a_layout_problem():
    fig = Figure(figsize=(2, 1.2), layout="constrained")
    for ax in fig.subplots(3, 3).ravel():
        ax.plot([1, 2], [1, 2])
        ax.set_ylabel("a long label\non two lines")
        ax.set_title("a title")
    assert any(p.startswith("layout: constrained_layout not applied") for p in lint(fig))


def test_lint_keeps_the_figure_usable(tmp_path):
    fig = Figure(figsize=(4, 3), dpi=72)
    fig.subplots().plot([1, 2], [1, 2])
    lint(fig)
    assert fig.dpi == 72
    fig.savefig(tmp_path / "f.png")
    fig.savefig(tmp_path / "f.pdf")
    assert (tmp_path / "f.pdf").read_bytes()[:5] == b"%PDF-"
