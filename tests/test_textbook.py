"""The study textbook_sugiyama: its experiment composes into the book's recipes (and the
control of Fig. 31.8: the same points without the outliers), and the figure module draws one
panel per listing and the control from a small grid, with the curves and lines the listings
would draw from the runs' final weights, readable (no text collides or leaves the figure); the
separation counts of Fig. 31.8 and its control agree with the listing's AROW and PA
transcribed in tests/naive/textbook.py. The figure is the study's own
(experiments/textbook_sugiyama/textbook.py) and draws from the table and the runs' side
tables alone."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import naive
import numpy as np
import pytest
from hydra import compose, initialize_config_dir
from hydra.utils import instantiate
from in_memory import run_tasks
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.legend import Legend
from matplotlib.text import Text

from olbench import schema as col
from olbench.harness.experiment import build_tasks
from olbench.harness.studies import study_module

CONF = Path(__file__).resolve().parents[1] / "conf"
textbook = study_module("experiments/textbook_sugiyama/textbook.py")
PANELS, separation_counts, textbook_figure = (textbook.PANELS, textbook.separation_counts,
                                               textbook.textbook_figure)


@pytest.fixture(scope="module")
def small_study():
    """The study's grid with two seeds, run without comparators (the figure needs none):
    its table, its side tables and its tasks."""
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        cfg = compose(config_name="config",
                      overrides=["experiment=textbook_sugiyama", "grid.seeds=[0,1]"])
    _, tasks = build_tasks(cfg, ["experiment=textbook_sugiyama"])
    tasks = [dataclasses.replace(t, comparators=(), checkpoints=2) for t in tasks]
    return (*run_tasks(tasks), tasks)


def _final_w(side, run_id) -> np.ndarray:
    weights = side["final_weights"]
    return weights.loc[weights[col.RUN_ID].eq(run_id), "w"].to_numpy()


def _class(spec: dict) -> str:
    return spec["_target_"].rsplit(".", 1)[1]


def test_the_experiment_is_the_listings_recipes(small_study):
    table, _, tasks = small_study
    assert len(tasks) == 2 * 7 and set(table[col.STATUS]) == {col.OK}
    n = {(_class(t.stream), t.stream.get("n_outliers"), _class(t.learner)):
         instantiate(t.stream).meta.n for t in tasks if t.seed == 0}
    assert n == {("SugiyamaClusters", 0, "PA"): 200, ("SugiyamaOutliers", 2, "PA"): 50,
                 ("SugiyamaOutliers", 2, "AROW"): 50, ("SugiyamaOutliers", 0, "PA"): 50,
                 ("SugiyamaOutliers", 0, "AROW"): 50, ("Passes", None, "PARegressor"): 50,
                 ("Passes", None, "RLS"): 50 * 100}
    lam = 1.0
    pa = [t.learner for t in tasks if t.learner["_target_"].endswith(".PA")]
    assert all(s["variant"] == "pa2" and s["C"] == 1 / (2 * lam) for s in pa)
    rls = next(t.learner for t in tasks if t.learner["_target_"].endswith(".RLS"))
    assert (rls["r"], rls["a"], rls["init"]) == (lam, 1.0, "randn")


def test_the_control_is_fig_31_8s_points_without_the_outliers(small_study):
    """Seed by seed, the control stream holds the outlier stream's points in the same order,
    the two outliers (class +1, moved by +10 along x1 in the listing) where they were drawn."""
    _, _, tasks = small_study
    for seed in (0, 1):
        streams = {t.stream["n_outliers"]: instantiate(t.stream) for t in tasks
                   if t.seed == seed and _class(t.stream) == "SugiyamaOutliers"}
        (X_out, y_out), (X_ctl, y_ctl) = streams[2].materialize(), streams[0].materialize()
        moved = streams[2].meta.extra["outliers"]
        assert moved.sum() == 2 and np.all(y_out[moved] == 1)
        np.testing.assert_array_equal(y_out, y_ctl)
        np.testing.assert_array_equal(X_out[~moved], X_ctl[~moved])
        np.testing.assert_allclose(X_out[moved, 0] - X_ctl[moved, 0], 10.0, rtol=1e-12)
        np.testing.assert_array_equal(X_out[moved, 1:], X_ctl[moved, 1:])
        assert not streams[0].meta.extra["outliers"].any()


def _boundary_line(ax):
    return [ln for ln in ax.get_lines() if ln.get_color() == "k"][0]


def test_the_figure_draws_one_panel_per_listing_and_the_control(small_study):
    table, side, _ = small_study
    fig = textbook_figure(table, side)
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == [p.title for p in PANELS] + [
        "Fig. 31.8's data over 2 seeds"]
    for ax, panel in zip(axes, PANELS):
        assert (*ax.get_xlim(), *ax.get_ylim()) == panel.axis
    first = table[table[col.SEED] == 0].drop_duplicates(col.RUN_ID)
    # Listing of Fig. 31.9: the green curve is the listing's F = K m over X = linspace(-3, 3,
    # 1000)
    rls = first[first[col.LEARNER].str.startswith("RLS")]
    m = _final_w(side, rls[col.RUN_ID].iloc[0])
    x = np.linspace(-3, 3, 50)
    X = np.linspace(-3, 3, 1000)
    F = np.exp(-(X[:, None] - x[None, :]) ** 2 / (2 * 0.3 ** 2)) @ m
    curve = axes[6].get_lines()[0]
    np.testing.assert_allclose(curve.get_xdata(), X, rtol=1e-14)
    np.testing.assert_allclose(curve.get_ydata(), F, rtol=1e-10, atol=1e-12)
    # Fig. 31.4: the black line is x2 = -(t3 + x1 t1) / t2 at x1 = -10, 10
    pa = first[first[col.STREAM].str.startswith("SugiyamaClusters")]
    t = _final_w(side, pa[col.RUN_ID].iloc[0])
    np.testing.assert_allclose(_boundary_line(axes[0]).get_ydata(),
                               -(t[2] + np.array([-10, 10]) * t[0]) / t[1])
    # the control panels: the boundaries of the runs without outliers, over their points
    for ax, learner in ((axes[4], "PA["), (axes[5], "AROW[")):
        run = first[first[col.STREAM].str.startswith("SugiyamaOutliers[")
                    & first[col.STREAM].str.contains("n_outliers=0,")
                    & first[col.LEARNER].str.startswith(learner)]
        assert run[col.RUN_ID].nunique() == 1
        w = _final_w(side, run[col.RUN_ID].iloc[0])
        np.testing.assert_allclose(_boundary_line(ax).get_ydata(),
                                   -(w[2] + np.array([-20, 0]) * w[0]) / w[1])
        assert ax.get_legend() is not None


def _text_boxes(fig):
    """Window extents of every visible text outside legends, and of every legend."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)   # the layout engine places everything before anything is measured
    legends = [a for a in fig.findobj(Legend) if a.get_visible()]
    skipped = {id(t) for lg in legends for t in lg.findobj(Text)}
    for ax in fig.axes:   # labels of ticks beyond the limits exist but are not drawn
        for axis, limits in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            lo, hi = sorted(limits)
            skipped |= {id(tick.label1) for tick in axis.get_major_ticks()
                        if not lo - 1e-9 <= tick.get_loc() <= hi + 1e-9}
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()
             and id(t) not in skipped]
    return [(t.get_text(), t.get_window_extent(renderer)) for t in texts] + [
        (f"legend {i}", lg.get_window_extent(renderer)) for i, lg in enumerate(legends)]


def test_the_figure_is_readable(small_study):
    """At most ~10 x 12 inches; no text or legend past the figure's edge, none over another
    (the bar counts of Fig. 31.8 collided when the learners were many); each panel's series
    in distinct styles; no empty panel."""
    table, side, _ = small_study
    fig = textbook_figure(table, side)
    width, height = fig.get_size_inches()
    assert width <= 10 and height <= 12
    boxes = _text_boxes(fig)
    edge = fig.bbox
    for text, box in boxes:
        assert edge.x0 <= box.x0 and box.x1 <= edge.x1 and edge.y0 <= box.y0 \
            and box.y1 <= edge.y1, f"{text!r} extends past the figure"
    for i, (text, box) in enumerate(boxes):
        for other, other_box in boxes[i + 1:]:
            assert not box.overlaps(other_box), f"{text!r} overlaps {other!r}"
    for ax in fig.axes:
        styles = [(ln.get_color(), ln.get_marker(), ln.get_linestyle()) for ln in ax.get_lines()]
        assert len(styles) == len(set(styles)), ax.get_title()
        assert ax.get_lines() or ax.patches, f"empty panel {ax.get_title()!r}"


def test_several_learners_of_a_panel_get_their_own_style(small_study):
    """A grid with PA-I and PA-II beside PA-II's textbook form (as pa_vs_arow_outliers runs):
    one line per learner in each Fig. 31.8 panel, no two alike, each learner alike in the
    panels with and without outliers; one count bar per learner and stream."""
    table, _, tasks = small_study
    extra = [dataclasses.replace(t, learner={**t.learner, "variant": "pa1"}) for t in tasks
             if _class(t.stream) == "SugiyamaOutliers" and _class(t.learner) == "PA"]
    table, side = run_tasks(tasks + extra)
    fig = textbook_figure(table, side)
    panels = {ax.get_title(): ax for ax in fig.axes}
    styles = {}
    for title in ("Fig. 31.8 (a) (listing of Fig. 31.7): PA",
                  "Control of (a): the same points, no outliers"):
        lines = {ln.get_label().split(" (outside")[0]: (ln.get_color(), ln.get_linestyle())
                 for ln in panels[title].get_lines() if not ln.get_label().startswith("y =")}
        assert set(lines) == {"PA-I (C=0.5)", "PA-II (C=0.5)"}
        assert len(set(lines.values())) == 2
        styles[title] = lines
    assert len({tuple(sorted(v.items())) for v in styles.values()}) == 1
    counts = panels["Fig. 31.8's data over 2 seeds"]
    assert [t.get_text() for t in counts.get_yticklabels()] == [
        "PA-II (C=0.5), 2 outliers", "PA-II (C=0.5), no outliers",
        "AROW (r=1), 2 outliers", "AROW (r=1), no outliers",
        "PA-I (C=0.5), 2 outliers", "PA-I (C=0.5), no outliers"]
    test_the_figure_is_readable((table, side, tasks + extra))


def test_separation_counts_agree_with_the_listings(small_study):
    """With the outliers, the clean clusters are all points but the two moved; in the control
    (no outliers), all points."""
    table, side, tasks = small_study
    expected = {(name, k): 0 for name in ("PA-II (C=0.5)", "AROW (r=1)") for k in (2, 0)}
    for task in tasks:
        if _class(task.stream) != "SugiyamaOutliers" or _class(task.learner) != "AROW":
            continue
        stream = instantiate(task.stream)
        X, y = stream.materialize()
        k = int(task.stream["n_outliers"])
        clean = ~stream.meta.extra["outliers"]
        assert clean.sum() == 50 - k
        arow = naive.textbook.sugiyama_arow_classification(X, y, lam=1.0)
        pa = naive.textbook.sugiyama_pa_classification(X, y, lam=1.0)
        expected["AROW (r=1)", k] += bool(np.all(y[clean] * (X[clean] @ arow) > 0))
        expected["PA-II (C=0.5)", k] += bool(np.all(y[clean] * (X[clean] @ pa) > 0))
    counts = separation_counts(table, side)
    assert list(zip(counts["learner"], counts["outliers"])) == [
        ("PA-II (C=0.5)", 2), ("PA-II (C=0.5)", 0), ("AROW (r=1)", 2), ("AROW (r=1)", 0)]
    assert counts["runs"].tolist() == [2, 2, 2, 2]
    assert dict(zip(zip(counts["learner"], counts["outliers"]), counts["separated"])) \
        == expected


def test_no_textbook_figure_for_other_grids(small_study):
    table, side, _ = small_study
    others = table.assign(stream=table[col.STREAM].str.replace("Sugiyama", "Other", regex=False)
                          .str.replace("Passes[", "Other[", regex=False))
    assert textbook_figure(others, side) is None
    assert textbook_figure(table, {}) is None    # a folder written before the side tables
