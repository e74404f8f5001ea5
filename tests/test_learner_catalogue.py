"""The README's learner table, parameter glossary and list of traits are the registry's:
generated from it (olbench.learners.catalogue) and checked here, so that none can drift."""

from __future__ import annotations

import re
from pathlib import Path

from olbench.learners import Learner
from olbench.learners.catalogue import (
    GLOSSARY,
    learner_table,
    parameter_glossary,
    parameter_users,
)
from olbench.learners.traits import Traits

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def _section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_readme_learner_table_is_the_registrys():
    assert learner_table() in _section("Learners"), \
        "README's learner table is stale: paste olbench.learners.catalogue.learner_table()"


def test_the_learner_table_lists_every_learner_once_with_its_row():
    table = learner_table()
    for key, cls in Learner.registry.items():
        assert cls.summary and cls.source, f"{key}: declare summary and source (its row)"
        rows = [line for line in table.splitlines() if f"`{key}`" in line.split(" | ")[0]]
        assert len(rows) == 1 and f"| {cls.summary} | {cls.source} |" in rows[0], key


def test_readme_parameter_glossary_is_the_registrys():
    assert parameter_glossary() in _section("Parameters"), \
        "README's glossary is stale: paste olbench.learners.catalogue.parameter_glossary()"


def test_every_parameter_has_one_meaning_in_the_glossary_and_every_entry_is_used():
    names = set(parameter_users()) | set(Learner.optional_params)
    assert names - set(GLOSSARY) == set(), "parameters without a meaning in GLOSSARY"
    assert set(GLOSSARY) - names == set(), "GLOSSARY entries no learner takes"


def test_every_trait_is_listed_in_add_a_learner():
    traits = [name for name in vars(Traits) if not name.startswith("_")]
    section = _section("Add a learner")
    missing = [name for name in traits if not re.search(rf"`{name}`", section)]
    assert not missing, f"traits not listed in README's 'Add a learner': {missing}"
