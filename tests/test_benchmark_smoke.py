"""Keeps benchmarks/throughput.py from rotting: a tiny run must produce a row for every
learner, with the hand-written loops and the peers computing what olbench computes.
Timings are not checked (the benchmark itself is not part of the suite)."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("river")
pytest.importorskip("sklearn")

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(monkeypatch):
    # the module name "throughput" is the one the script runs under (see its __main__ block):
    # numba's on-disk cache records it
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("throughput")


def test_throughput_smoke(capsys, monkeypatch, tmp_path):
    bench = _load(monkeypatch)
    figure = tmp_path / "throughput.png"
    rows = bench.main(["--quick", "--n", "300", "--dims", "5", "9", "--numpy-rows", "60",
                       "--river-rows", "60", "--figure", str(figure)])
    assert figure.stat().st_size > 10_000
    assert [r.rule for r in rows] == list(bench.RULES) * 2
    for r in rows:
        assert set(r.ns) == set(bench.COLUMNS)
        assert r.match["hand"].startswith("yes")
        assert r.match["numpy"] == "yes"
        has_peer = r.rule in ("perceptron", "pa1", "ogd")
        assert r.match["river"] == ("yes" if has_peer else "n/a")
        assert r.match["sklearn"] == ("yes" if has_peer else "n/a")
    out = capsys.readouterr().out
    for label in bench.LABEL.values():
        assert label in out


def test_sparse_smoke(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("sparse")
    vw = importlib.util.find_spec("vowpalwabbit") is not None
    rows = bench.main(["--n", "400", "--dims", "5000", "--nnz", "9", "--repeats", "1",
                       "--vw-repeats", "1", *([] if vw else ["--no-vw"])])
    assert [r["rule"] for r in rows] == ["perceptron", "pa1"]
    for r in rows:  # the hand loop's weights were asserted equal inside; sklearn's here
        assert r["sklearn_match"] == "yes"
        assert ("vw_cache" in r) == vw


def test_comparators_benchmark_smoke(monkeypatch, capsys):
    """benchmarks/comparators.py: every case returns a certified row at a tiny size."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("comparators")
    rows = bench.main(["--n", "300", "--d", "5"])
    assert [r["case"] for r in rows] == list(bench.GRID)
    for r in rows:
        assert r["solver"] != "skip" and float(r["gap"]) <= 1e-9, r
    assert "| max_margin | 300 | 5 |" in capsys.readouterr().out


def test_comparators_growth_smoke(monkeypatch, capsys):
    """benchmarks/comparators.py --growth: best_fixed, its cached refit on permuted rows and
    prefix_best return a fit (no skip) for every loss at a tiny size."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("comparators")
    rows = bench.growth(d=4, sizes=[200], repeats=1)
    assert [r["loss"] for r in rows] == [label for label, _ in bench.GROWTH_LOSSES]
    for r in rows:
        assert "skip" not in r["solver"], r
        assert r["cached"] >= 0 and r["prefix_best"] > 0
    assert "| squared | 200 | 4 |" in capsys.readouterr().out


def test_comparators_lp_smoke(monkeypatch, capsys):
    """benchmarks/comparators.py --lp: the dual and the epigraph LP certify one optimum."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("comparators")
    rows = bench.lp([("noisy", *bench.data("hinge+ridge", 300, 5))])
    assert [r["lp"] for r in rows] == ["dual LP", "epigraph LP"]
    assert all(r["gap"] <= 1e-9 for r in rows), rows
    assert rows[0]["objective"] == pytest.approx(rows[1]["objective"], rel=1e-9)
    assert "| noisy | 300 | 5 | dual LP |" in capsys.readouterr().out

