"""A study's own sections of report.md, and the files it writes beside them, computed from
the summary: registered with :func:`report_section` by a file under ``experiments/<study>/``
that the experiment's config names in ``modules:`` (:mod:`olbench.harness.studies`), and
asked for by the config's ``sections:`` block, each by name with its options::

    # conf/experiment/libol_table.yaml
    modules: [experiments/libol_table/selection.py, experiments/libol_table/published.py]
    sections:
      libol_selection: {}                                         # no options
      libol_published: {file: experiments/libol_table/published.csv}

A section is ``write(inputs) -> list[str]``: Markdown lines, put after the summary in the
order of ``sections:``, from :class:`SectionInputs` (the summary, the results folder, which
it may write files of its own into, its options, the selection stage's result). Registered
with ``check=``, a function ``check(options) -> list[str]`` finds the problems of its options
before anything runs (a file that is not there, say), each said from the option it is about
(``file=...: no file ...``, reported as ``sections.<name>.file=...``); registered with
``needs_selection=True``, it reads the selection stage (:mod:`olbench.harness.selection`),
which the experiment must then have (a single cell, which has none, leaves it out).

>>> section_problems({"sections": {"no_such_section": None}})  # doctest: +ELLIPSIS
['sections.no_such_section: unknown report section; registered: ...']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from olbench.harness.selection import Selection
from olbench.harness.studies import same_code
from olbench.harness.tasks import _plain


@dataclass(frozen=True)
class SectionInputs:
    """What a section is written from: the run's ``summary``
    (:func:`olbench.analysis.summary.summary_table`: full names, mean and std columns), the
    results ``folder`` (a section's own files go there), its ``options`` (``sections.<name>``
    of the config; ``{}`` for none) and the ``selection`` stage's result (None without
    one)."""

    summary: pd.DataFrame
    folder: Path
    options: dict = field(default_factory=dict)
    selection: Selection | None = None


@dataclass(frozen=True)
class StudySection:
    """A registered section: its ``name`` (its key in ``sections:``), ``write``, ``check``
    (of its options; None: any options) and whether it ``needs_selection``."""

    name: str
    write: Callable[[SectionInputs], list[str]]
    check: Callable[[dict], list[str]] | None = None
    needs_selection: bool = False


#: every registered section, by name
STUDY_SECTIONS: dict[str, StudySection] = {}


def report_section(name: str, *, check: Callable[[dict], list[str]] | None = None,
                   needs_selection: bool = False) -> Callable:
    """Register the decorated ``write(inputs) -> list[str]`` as the report section ``name``
    (module docs); the function is returned unchanged."""
    def register(write: Callable) -> Callable:
        known = STUDY_SECTIONS.get(name)
        if known is not None and not same_code(known.write, write):
            raise ValueError(f"report section {name!r} is registered twice")
        STUDY_SECTIONS[name] = StudySection(name, write, check, needs_selection)
        return write
    return register


def _asked(cfg: Any) -> dict[str, Any]:
    sections = _plain(cfg.get("sections"))
    return {} if sections is None else sections


def section_problems(cfg: Any) -> list[str]:
    """The problems of the config's ``sections:`` (the files of ``modules:`` imported
    before this is asked): a name no study file registered, options that are not a mapping,
    a section that reads a selection stage the experiment does not have, and what each
    section's own check finds in its options."""
    sections = _asked(cfg)
    if not isinstance(sections, Mapping):
        return [f"sections={sections!r}: must be a mapping of report section names to their "
                "options"]
    registered = (", ".join(sorted(STUDY_SECTIONS)) or "none") + (
        " (a study registers its own with @report_section in a file its config names in "
        "modules:)")
    problems = []
    for name, options in sections.items():
        section = STUDY_SECTIONS.get(name)
        if section is None:
            problems.append(f"sections.{name}: unknown report section; registered: {registered}")
        elif options is not None and not isinstance(options, Mapping):
            problems.append(f"sections.{name}={options!r}: its options must be a mapping")
        elif section.needs_selection and cfg.get("select") is None:
            problems.append(f"sections.{name}: reads the parameter-selection stage, and this "
                            "experiment has none (no select: block)")
        elif section.check is not None:
            problems += [f"sections.{name}.{p}" for p in section.check(dict(options or {}))]
    return problems


def study_sections(cfg: Any, summary: pd.DataFrame, folder: Path,
                   selection: Selection | None) -> list[str]:
    """The Markdown lines of the sections the config asks for, in its order (a section that
    needs the selection stage is left out when none ran: a single cell)."""
    lines = []
    for name, options in _asked(cfg).items():
        section = STUDY_SECTIONS[name]
        if section.needs_selection and selection is None:
            continue
        lines += section.write(SectionInputs(summary, Path(folder), dict(options or {}),
                                             selection))
    return lines
