"""A study's own selection procedure and report sections, registered by a file of its own
(olbench.harness.selection, olbench.analysis.study_sections): the mechanism, with a toy study
written here, apart from LIBOL's (tests/test_libol_table.py)."""

from __future__ import annotations

import pytest
from omegaconf import OmegaConf

import olbench
from olbench.analysis.study_sections import STUDY_SECTIONS, section_problems, study_sections
from olbench.harness.selection import (
    SELECTION_PROCEDURES,
    select_grid,
    selection_problems,
)
from olbench.harness.studies import study_module
from olbench.harness.tasks import GridError

#: a study file: a procedure that keeps the last value of each searched list (every candidate
#: a row), a section with a checked option that writes a file, one that reads the selection
TOY_STUDY = '''
from olbench.analysis.study_sections import report_section
from olbench.harness.selection import Choice, selection_procedure


@selection_procedure("toy_last", columns=("param", "value"))
def toy_last(stream, learners, options):
    searched = [(e.get("select") or {}).items() for e in learners]
    return Choice(f"n={stream['n']}", [{p: values[-1] for p, values in s} for s in searched],
                  [[(p, v) for p, values in s for v in values] for s in searched])


def needs_a_title(options):
    return [] if options.get("title") else ["title: missing"]


@report_section("toy_rows", check=needs_a_title)
def toy_rows(inputs):
    (inputs.folder / "toy.txt").write_text(str(len(inputs.summary)))
    return [f"## {inputs.options['title']}", "", f"{len(inputs.summary)} summary rows", ""]


@report_section("toy_chosen", needs_selection=True)
def toy_chosen(inputs):
    return ["## Chosen", "", *sorted(inputs.selection.algorithms.values()), ""]
'''
NAMES = {"procedures": ("toy_last",), "sections": ("toy_rows", "toy_chosen")}


@pytest.fixture
def toy_study(tmp_path):
    """The toy study's file, imported (its registrations removed after the test)."""
    path = tmp_path / "toy_study.py"
    path.write_text(TOY_STUDY)
    study_module(path)
    yield path
    for name in NAMES["procedures"]:
        SELECTION_PROCEDURES.pop(name, None)
    for name in NAMES["sections"]:
        STUDY_SECTIONS.pop(name, None)


GRID = {"streams": [{"key": "noisy", "params": {"n": 30, "d": 2}},
                    {"key": "noisy", "params": {"n": 40, "d": 2}}],
        "learners": [{"key": "pa", "name": "PA-I", "params": {"variant": "pa1"},
                      "select": {"C": [0.5, 2.0]}}, "perceptron"]}


def test_the_stage_puts_a_procedures_choices_into_one_grid_per_stream(toy_study):
    grids, table, algorithms = select_grid(GRID, {"procedure": "toy_last"})
    assert [g["streams"] for g in grids] == [[GRID["streams"][0]], [GRID["streams"][1]]]
    for grid in grids:    # chosen values in params, the selection fields gone
        assert grid["learners"] == [{"key": "pa", "params": {"variant": "pa1", "C": 2.0}},
                                    {"key": "perceptron", "params": {}}]
    assert list(table.columns) == ["stream", "algorithm", "param", "value"]
    assert table.values.tolist() == [["n=30", "PA-I", "C", 0.5], ["n=30", "PA-I", "C", 2.0],
                                     ["n=40", "PA-I", "C", 0.5], ["n=40", "PA-I", "C", 2.0]]
    pa1 = next(name for name in algorithms if name.startswith("PA["))
    assert "C=2.0" in pa1 and algorithms[pa1] == "PA-I"
    perceptron = next(name for name in algorithms if name.startswith("Perceptron"))
    assert algorithms[perceptron] == perceptron     # no name of the study's: its own


def test_the_select_block_must_name_a_registered_procedure(toy_study):
    assert selection_problems(None) == []
    assert selection_problems({"procedure": "toy_last", "anything": 1}) == []
    (unknown,) = selection_problems(OmegaConf.create({"procedure": "toy_lats"}))
    assert unknown.startswith("select.procedure='toy_lats': unknown selection procedure; "
                              "registered: ") and "toy_last" in unknown
    (missing,) = selection_problems({"seed": 3})
    assert missing.startswith("select: no procedure") and "toy_last" in missing
    (shape,) = selection_problems(["toy_last"])
    assert shape.startswith("select=['toy_last']: must be a mapping")
    with pytest.raises(GridError, match="'toy_lats': unknown selection procedure"):
        select_grid(GRID, {"procedure": "toy_lats"})


def test_a_procedure_or_section_of_the_same_name_is_refused(toy_study):
    from olbench.analysis.study_sections import report_section
    from olbench.harness.selection import selection_procedure

    with pytest.raises(ValueError, match="'toy_last' is registered twice"):
        selection_procedure("toy_last", columns=())(lambda stream, learners, options: None)
    with pytest.raises(ValueError, match="'toy_rows' is registered twice"):
        report_section("toy_rows")(lambda inputs: [])
    study_module(toy_study)   # the same file again: nothing registered twice


def test_the_sections_asked_for_are_checked_before_anything_runs(toy_study):
    cfg = OmegaConf.create({"select": {"procedure": "toy_last"},
                            "sections": {"toy_rows": {"title": "T"}, "toy_chosen": None}})
    assert section_problems(cfg) == []
    cfg = OmegaConf.create({"sections": {"toy_rows": {}, "toy_chosen": {}, "toy_rowz": {},
                                         "toy_rows_too": 3}})
    STUDY_SECTIONS["toy_rows_too"] = STUDY_SECTIONS["toy_rows"]
    try:
        problems = section_problems(cfg)
    finally:
        STUDY_SECTIONS.pop("toy_rows_too")
    assert problems[0] == "sections.toy_rows.title: missing"
    assert problems[1] == ("sections.toy_chosen: reads the parameter-selection stage, and this "
                           "experiment has none (no select: block)")
    assert problems[2].startswith("sections.toy_rowz: unknown report section; registered: ")
    assert "toy_chosen, toy_rows" in problems[2]
    assert problems[3] == "sections.toy_rows_too=3: its options must be a mapping"


def test_the_sections_are_written_in_the_configs_order(toy_study, tmp_path):
    import pandas as pd

    summary = pd.DataFrame({"stream": ["a", "b", "c"]})
    cfg = OmegaConf.create({"sections": {"toy_chosen": {}, "toy_rows": {"title": "T"}}})
    assert study_sections(cfg, summary, tmp_path, selection=None) == [
        "## T", "", "3 summary rows", ""]          # toy_chosen has no selection: left out
    assert (tmp_path / "toy.txt").read_text() == "3"
    selection = select_grid(GRID, {"procedure": "toy_last"})
    lines = study_sections(cfg, summary, tmp_path, selection)
    assert lines[:3] == ["## Chosen", "", "PA-I"] and lines[-4] == "## T"


def test_an_experiment_runs_its_studys_procedure_and_sections(toy_study, tmp_path):
    res = olbench.run_experiment(
        "showcase", seeds=[0], output_dir=tmp_path / "out", figures=False, n_jobs=1,
        quiet=True, overrides=[
            f"modules=[{toy_study}]", "select={procedure: toy_last}",
            "sections={toy_rows: {title: Toy rows}, toy_chosen: {}}",
            "grid.streams=[{key: noisy, params: {n: 60, d: 3}}]", "grid.comparators=[]",
            "grid.learners=[{key: pa, name: PA-I, params: {variant: pa1},"
            " select: {C: [0.5, 2.0]}}]"])
    assert res.status == 0
    assert res.table["learner"].unique().tolist() == [
        next(iter(select_grid(GRID, {"procedure": "toy_last"}).algorithms))]
    assert "C=2.0" in res.table["learner"].iloc[0]
    selection = (res.folder / "selection.csv").read_text().splitlines()
    assert selection == ["stream,algorithm,param,value", "n=60,PA-I,C,0.5", "n=60,PA-I,C,2.0"]
    assert (res.folder / "toy.txt").read_text() == "1"
    report = res.report.read_text()
    assert report.index("## Summary at the final checkpoint") < report.index("## Toy rows") \
        < report.index("## Chosen")
