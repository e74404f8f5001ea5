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
to happen: the test names each one.
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
