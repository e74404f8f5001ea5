"""The figures' plumbing: make_figures writes every supported figure as valid PNG and PDF
files and leaves nothing open, build_figures skips what the table cannot support, rows of
failed runs never reach a figure, and a new figure is one registered builder."""

from __future__ import annotations

import numpy as np
import pytest
from synthetic_table import make_table

from olbench.analysis import figures
from olbench.analysis.figures import boundaries, regret

PNG_MAGIC, PDF_MAGIC = b"\x89PNG\r\n\x1a\n", b"%PDF-"


def _assert_files(paths):
    for p in paths:
        head = p.read_bytes()[:8]
        assert head.startswith(PNG_MAGIC if p.suffix == ".png" else PDF_MAGIC), p
        assert p.stat().st_size > 1000


def test_make_figures_writes_every_supported_figure(table, tmp_path):
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    paths = figures.make_figures(table, tmp_path / "figures")
    assert plt.get_fignums() == before           # nothing left open in pyplot
    stems = {p.stem for p in paths}
    assert stems == {"regret", "regret_loglog", "mistakes", "novikoff", "bounds", "libol",
                     "final_mistake_rate", "regret_vs_bound", "regret_bound_ratio",
                     "regret_exponents"}
    assert sorted(p.suffix for p in paths) == [".pdf"] * 10 + [".png"] * 10
    assert all(p.parent == tmp_path / "figures" for p in paths)
    _assert_files(paths)
    assert set(stems) <= set(figures.captions())


def test_build_figures_skips_what_the_table_cannot_support():
    t = make_table(bounds=False, seeds=(0,), n_checkpoints=8)
    t["regret"] = np.nan
    assert set(figures.build_figures(t)) == {"mistakes", "libol", "final_mistake_rate"}
    t = make_table(seeds=(0,), n_checkpoints=8)
    t["regret"] = -1.0                             # nothing to draw on log axes
    assert "regret_loglog" not in figures.build_figures(t)


def test_save_figure_returns_png_and_pdf(tmp_path):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -0.5]])
    fig = boundaries.decision_boundaries_figure(X, np.array([1.0, 1.0, -1.0]),
                                                {"PA": np.array([1.0, 1.0])})
    written = figures.save_figure(fig, tmp_path / "sub" / "d.png")
    assert [p.name for p in written] == ["d.png", "d.pdf"]
    _assert_files(written)
    empty = make_table(failures=False).assign(status="error: boom")
    assert regret.regret_figure(empty) is None
    assert figures.save_figure(regret.regret_figure(empty), tmp_path / "r") == []


# --------------------------------------------------------------------------- the table of builders
def test_a_new_figure_is_one_registered_builder(table, monkeypatch):
    """A builder registered with @figure is drawn by build_figures (in its order) and its
    caption reaches captions(); a stem is registered once."""
    from matplotlib.figure import Figure

    from olbench.analysis.figures import registry

    monkeypatch.setattr(registry, "FIGURES", dict(registry.FIGURES))

    @figures.figure("n_runs", order=55, caption="Runs per stream.")
    @figures.figure("nothing_to_show", order=56, draw=False)
    def n_runs(t, *, draw=True):
        if not draw:
            return None
        fig = Figure()
        fig.subplots().bar([0], [t["run_id"].nunique()])
        return fig

    stems = list(figures.build_figures(table))
    assert stems == ["regret", "regret_loglog", "regret_vs_bound", "regret_bound_ratio",
                     "regret_exponents", "mistakes", "novikoff", "bounds", "libol", "n_runs",
                     "final_mistake_rate"]
    assert figures.captions()["n_runs"] == "Runs per stream."
    with pytest.raises(ValueError, match="registered twice"):
        figures.figure("n_runs", order=1)(n_runs)
