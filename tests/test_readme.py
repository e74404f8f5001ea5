"""The README's Python examples run as written; its two commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_python_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", README, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_the_two_commands_and_ci():
    assert 'pip install -e ".[test]" && olbench' in README
    assert 'pip install -e ".[test]" && pytest' in README
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'pip install --quiet --disable-pip-version-check -e ".[test]"' in ci
    assert "\npytest\n" in ci and '"$rc" -eq 5' in ci
