"""The house's layout, enforced: olbench has three wings and a front door, and each imports
only downward (README, "How olbench is built").

* the engine: the protocol loop and everything a single run needs (``olbench.protocol``,
  learners, streams, comparators, bounds, rules, datasets, features, labels, losses,
  checkpoints, metrics, schema, component);
* ``olbench.harness``: from a configuration to the results table (tasks, grid, run files);
* ``olbench.analysis``: from the results table to what a reader sees (views, report,
  statistics, figures);
* the front door: ``olbench.cli`` and ``olbench.api``, which call the pipeline.

An import from a lower wing into a higher one (even inside a function) is a cycle waiting
to happen: the test names each one. Above all of them are the studies (``experiments/``):
a study's own code may import anything of olbench, and olbench never imports a study (its
files are imported by the path its config names, :mod:`olbench.harness.studies`).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "olbench"
FRONT = {"olbench.cli", "olbench.api", "olbench.pipeline", "olbench.__main__"}
RANKS = {"engine": 0, "harness": 1, "analysis": 2, "front": 3}


def wing(module: str) -> str:
    if module in FRONT:
        return "front"
    for name in ("harness", "analysis"):
        if module == f"olbench.{name}" or module.startswith(f"olbench.{name}."):
            return name
    return "engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> list[tuple[int, str]]:
    """Every olbench module ``path`` imports, with its line (imports inside functions too;
    ``from olbench import x`` counts as ``olbench.x``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("olbench")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.startswith("olbench"):
            if node.module == "olbench":
                found += [(node.lineno, f"olbench.{a.name}") for a in node.names]
            else:
                found.append((node.lineno, node.module))
    return sorted(found)


def upward_imports() -> list[str]:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = module_name(path)
        if here == "olbench":   # the package's lazy door names the front; it imports the engine
            continue
        for line, target in imported(path):
            if RANKS[wing(target)] > RANKS[wing(here)]:
                problems.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {wing(here)} "
                                f"module {here} imports {target} ({wing(target)})")
    return problems


def test_wings_classify_as_documented():
    assert wing("olbench.protocol") == "engine"
    assert wing("olbench.rules.loop") == "engine"
    assert wing("olbench.harness.grid") == "harness"
    assert wing("olbench.analysis.figures.regret") == "analysis"
    assert wing("olbench.cli") == "front"


def test_the_check_sees_an_upward_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from olbench.analysis.views import display_name\n"
                      "from olbench import schema\n")
    assert imported(module) == [(2, "olbench.analysis.views"), (3, "olbench.schema")]


def test_no_import_runs_upward():
    problems = upward_imports()
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def study_imports(path: Path) -> list[tuple[int, str]]:
    """Every import of a study's code in ``path``: of ``experiments...``, or a study file
    named by a literal path (``study_module("experiments/...")``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names
                      if a.name.split(".")[0] == "experiments"]
        elif isinstance(node, ast.ImportFrom) and node.module \
                and node.module.split(".")[0] == "experiments":
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                node.func, "attr", None)) in ("study_module", "module_problems"):
            found += [(node.lineno, arg.value) for arg in node.args
                      if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    return sorted(found)


def test_the_check_sees_an_import_of_a_study(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import experiments.libol_table.selection\n"
                      "def f():\n    from experiments.libol_table import published\n"
                      "    return study_module('experiments/libol_table/published.py')\n"
                      "from olbench.harness.studies import study_module\n")
    assert study_imports(module) == [(1, "experiments.libol_table.selection"),
                                     (3, "experiments.libol_table"),
                                     (4, "experiments/libol_table/published.py")]


def test_olbench_never_imports_a_study():
    problems = [f"{path.relative_to(PACKAGE.parent)}:{line}: imports the study code {target}"
                for path in sorted(PACKAGE.rglob("*.py")) for line, target in study_imports(path)]
    assert not problems, "olbench imports a study's own code:\n" + "\n".join(problems)
