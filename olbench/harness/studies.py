"""A study's own code, kept with the study: Python files under ``experiments/<study>/`` that
the experiment's config names in ``modules:`` and that register what belongs to that study
alone (its figures: :func:`olbench.analysis.figures.figure`; its parameter-selection
procedure: :func:`olbench.harness.selection.selection_procedure`; its report sections:
:func:`olbench.analysis.study_sections.report_section`), as benchopt keeps a benchmark's own
plots with the benchmark. One folder, one config, no central list: the config says which
files, this module imports them before the config is checked (so ``run.figures`` may name
what they register) and before the figures are drawn::

    # conf/experiment/textbook_sugiyama.yaml
    modules: [experiments/textbook_sugiyama/textbook.py]

A path is relative to the repository (the folder holding ``conf/`` and ``experiments/``,
found from the installed package), or absolute. This works for the
documented install, ``pip install -e .`` from a clone: the package, ``conf/`` and
``experiments/`` are the clone's. A non-editable install (a wheel) ships neither ``conf/`` nor
``experiments/``: ``olbench`` then stops saying so before any of this, and the API can only
name a study module by an absolute path. A file is imported once per process, under the
dotted name of its path (``experiments.textbook_sugiyama.textbook``), so importing it again,
by path or by that name, gives the same module and registers nothing twice.

>>> module_problems(["experiments/no_such_study/figures.py"])[0]  # doctest: +ELLIPSIS
'modules: no file experiments/no_such_study/figures.py (relative to the repository ...)'
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from olbench.harness.tasks import CONF_DIR

#: the folder holding ``conf/`` and ``experiments/`` (a clone, for an editable install)
REPOSITORY = CONF_DIR.parent


def module_path(path: str | Path) -> Path:
    """``path`` as a file: relative ones are taken from the repository."""
    path = Path(path)
    return path if path.is_absolute() else REPOSITORY / path


def module_name(path: Path) -> str:
    """The dotted name a study file is imported under: its path from the repository
    (``experiments.<study>.<stem>``), or for a file elsewhere ``olbench_study_<stem>_<hash>``.

    >>> module_name(REPOSITORY / "experiments" / "regret" / "figures.py")
    'experiments.regret.figures'
    """
    path = path.resolve()
    try:
        parts = path.relative_to(REPOSITORY.resolve()).with_suffix("").parts
    except ValueError:
        import hashlib

        digest = hashlib.sha256(str(path).encode()).hexdigest()[:8]
        return f"olbench_study_{path.stem}_{digest}"
    return ".".join(parts)


def study_module(path: str | Path) -> ModuleType:
    """The study file at ``path`` (:func:`module_path`), imported once per process
    (:func:`module_name`); a file that is not there is a :class:`FileNotFoundError` naming
    it."""
    file = module_path(path)
    if not file.is_file():
        raise FileNotFoundError(f"no file {path} (relative to the repository {REPOSITORY}, "
                                "found from the installed olbench: pip install -e . from a "
                                "clone; or an absolute path)")
    name = module_name(file)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # before running it: its own imports may ask for it
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def same_code(old: Callable, new: Callable) -> bool:
    """Is ``new`` the registered ``old`` again, imported a second time: another function
    object from the same definition in the same file (a study file run by pytest's doctests
    under another module name, say)? A registry lets such a second registration pass and
    refuses any other under the same name, the very same function registered twice too (a
    name given twice in one file).

    >>> import importlib.util
    >>> spec = importlib.util.spec_from_file_location("again", __file__)
    >>> again = importlib.util.module_from_spec(spec)
    >>> spec.loader.exec_module(again)
    >>> same_code(module_path, again.module_path), same_code(module_path, module_path)
    (True, False)
    >>> same_code(module_path, again.module_name)
    False
    """
    return old is not new and (getattr(old, "__qualname__", None) == new.__qualname__
                               and getattr(old, "__code__", None) is not None
                               and old.__code__.co_filename == new.__code__.co_filename)


def experiment_modules() -> list[str]:
    """Every study file the experiments' configs name (``conf/experiment/*.yaml``,
    ``modules:``), each once, in the configs' order.

    >>> "experiments/textbook_sugiyama/textbook.py" in experiment_modules()
    True
    """
    from omegaconf import OmegaConf

    found: dict[str, None] = {}
    for config in sorted((CONF_DIR / "experiment").glob("*.yaml")):
        modules = OmegaConf.load(config).get("modules") or []
        found.update(dict.fromkeys([modules] if isinstance(modules, str) else modules))
    return list(found)


def module_problems(paths: Iterable[str] | str | None) -> list[str]:
    """Import the study files ``paths`` (an experiment's ``modules:``); the problems, as the
    other problems of a configuration are said (none when all were imported)."""
    if paths is None:
        return []
    if isinstance(paths, str):
        paths = [paths]
    problems = []
    for path in paths:
        try:
            study_module(path)
        except FileNotFoundError as error:
            problems.append(f"modules: {error}")
        except Exception as error:   # the study's own code failed: say where
            problems.append(f"modules: {path}: {type(error).__name__}: {error}")
    return problems
