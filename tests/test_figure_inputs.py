"""Figures see only the table: no figure module (``olbench/analysis/figures/`` and the studies'
own figure files under ``experiments/``) imports what builds streams, learners or comparators
(Hydra, the engine's components, the harness beyond its readers of the results folder) or
calls what runs them (the protocol, ``materialize``, ``instantiate`` ...). What a figure needs
of a run besides the table, the run writes into a side table (olbench/harness/outputs.py);
a figure that rebuilds it fails here, naming the file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

from olbench.harness.studies import experiment_modules, module_path, study_module

REPOSITORY = Path(__file__).resolve().parents[1]
FIGURES = REPOSITORY / "olbench" / "analysis" / "figures"

#: imports a figure module may not make: what builds or runs components
FORBIDDEN_IMPORTS = ("hydra", "olbench.streams", "olbench.learners", "olbench.comparators",
                     "olbench.protocol", "olbench.rules", "olbench.datasets", "olbench.metrics",
                     "olbench.checkpoints", "olbench.bounds", "olbench.harness", "olbench.cli",
                     "olbench.api", "olbench.pipeline")
#: ... except the harness's readers of a results folder and its importer of study files
ALLOWED_IMPORTS = ("olbench.harness.results", "olbench.harness.side", "olbench.harness.studies")
#: calls that build a component, read a stream or run a learner
FORBIDDEN_CALLS = {"instantiate", "get_class", "materialize", "chunks", "first_rows",
                   "load_stream", "make_stream", "make_learner", "make_comparator", "run_task",
                   "run_grid", "run_streamed", "run_experiment", "fit", "fit_stream"}


def registers_a_figure(path: str) -> bool:
    """Does the study file ``path`` (imported) register a figure? A study's other files (its
    selection procedure, which runs learners) are not figures."""
    from olbench.analysis.figures import FIGURES as REGISTERED

    name = study_module(path).__name__
    return any(getattr(kind.build, "func", kind.build).__module__ == name
               for kind in REGISTERED.values())


def figure_files() -> list[Path]:
    """The package's figure modules, and every study file that registers a figure: those
    the experiments' configs name that do, and any that imports ``olbench.analysis.figures``
    and calls ``figure(...)``."""
    files = sorted(FIGURES.glob("*.py"))
    studies = {module_path(path).resolve() for path in experiment_modules()
               if registers_a_figure(path)}
    for path in sorted((REPOSITORY / "experiments").rglob("*.py")):
        if "olbench.analysis.figures" in path.read_text() and "figure(" in path.read_text():
            studies.add(path.resolve())
    return files + sorted(studies)


def _forbidden(module: str) -> bool:
    if module.startswith(ALLOWED_IMPORTS):
        return False
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN_IMPORTS)


def problems_of(path: Path) -> list[str]:
    """Each forbidden import (inside functions too) and call of the file, with its line."""
    where = path.relative_to(REPOSITORY) if path.is_relative_to(REPOSITORY) else path
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" if node.module == "olbench" else node.module
                     for alias in node.names]
        found += [f"{where}:{node.lineno}: imports {name}" for name in names if _forbidden(name)]
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called in FORBIDDEN_CALLS:
                found.append(f"{where}:{node.lineno}: calls {called}()")
            if isinstance(func, ast.Attribute) and func.attr == "run" \
                    and isinstance(func.value, ast.Name) and func.value.id == "olbench":
                found.append(f"{where}:{node.lineno}: calls olbench.run() (the protocol)")
    return found


def test_the_check_sees_what_rebuilds_a_run(tmp_path):
    planted = tmp_path / "figure.py"
    planted.write_text("import olbench\n"
                       "from olbench.harness.side import side_table\n"
                       "from olbench.harness.results import read_results\n"
                       "def draw(table, tasks):\n"
                       "    from hydra.utils import instantiate\n"
                       "    from olbench.streams.synthetic import Drift\n"
                       "    from olbench import learners\n"
                       "    stream = instantiate(tasks[0].stream)\n"
                       "    X, y = stream.materialize()\n"
                       "    return olbench.run(None, X, y)\n")
    assert problems_of(planted) == [
        f"{planted}:5: imports hydra.utils", f"{planted}:6: imports olbench.streams.synthetic",
        f"{planted}:7: imports olbench.learners", f"{planted}:8: calls instantiate()",
        f"{planted}:9: calls materialize()", f"{planted}:10: calls olbench.run() (the protocol)"]


def test_the_figures_and_the_studies_figures_are_checked():
    files = {path.relative_to(REPOSITORY).as_posix() for path in figure_files()}
    assert {f"olbench/analysis/figures/{name}.py" for name in (
        "boundaries", "regression", "drift", "regret_shifting", "registry")} <= files
    assert {"experiments/textbook_sugiyama/textbook.py",
            "experiments/pa_vs_arow_outliers/outlier_heatmap.py",
            "experiments/libol_table/figures.py"} <= files
    # the study's selection procedure runs learners: it is a study file, not a figure
    assert "experiments/libol_table/selection.py" not in files


def test_no_figure_rebuilds_a_stream_or_a_learner():
    problems = [p for path in figure_files() for p in problems_of(path)]
    assert problems == []
