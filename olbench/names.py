"""Names of components, as tables and legends show them: the engine's side of naming.

A component's full name (:attr:`olbench.component.Component.name`, e.g.
``PA[C=1.0,variant=pa1]``) is the key in every table; the short name of a figure legend or a
report row comes from the class itself (``display_label``, ``display_params``). These
functions live in the engine, below the streams that name their inner stream and the
analysis that names rows, so that neither imports upward.
"""

from __future__ import annotations

import functools
import re

import pandas as pd

from olbench import schema as col


def drop_param(name: str, param: str = col.SEED) -> str:
    """``name`` without its ``param=value`` entry (the seed is a replicate, not a setting).

    >>> drop_param("X[seed=1]"), drop_param("X[a=1,seed=2]"), drop_param("X[a=1]")
    ('X', 'X[a=1]', 'X[a=1]')
    """
    out = re.sub(rf"(?<=[\[,]){re.escape(param)}=[^,\]]*(,|(?=\]))", "", str(name))
    return out.replace(",]", "]").replace("[]", "")


@functools.cache
def classes_by_name() -> dict[str, type]:
    from olbench.comparators import Comparator
    from olbench.learners import Learner
    from olbench.streams import Stream

    return {cls.__name__: cls for family in (Comparator, Stream, Learner)
            for _, cls in family.registry.items()}


def display_name(name: str) -> str:
    """The short name of a full component name, for tables and legends; the full name stays
    the key in the data. Each class declares its short form (``display_label``,
    ``display_params``, :meth:`~olbench.component.Component.display`); a name of no known
    class comes back unchanged.

    >>> display_name("PA[C=1.0,variant=pa1]"), display_name("AROW[r=0.1,a=1.0,diagonal=False]")
    ('PA-I (C=1)', 'AROW (r=0.1)')
    >>> display_name("Perceptron[eta=1.0,libol=False]"), display_name("?")
    ('Perceptron', '?')
    """
    from olbench.component import parse_name

    title, params = parse_name(name)
    cls = classes_by_name().get(title)
    return str(name) if cls is None else cls.display(params)


def display_names(names) -> dict[str, str]:
    """``{full name: short name}`` for the distinct names given; where two names would share a
    short name (parameters that print alike), those keep their full names.

    >>> list(display_names(["PA[C=1.0,variant=pa1]", "PA[C=1.0000001,variant=pa1]",
    ...                     "Perceptron[eta=1.0,libol=False]"]).values())
    ['PA[C=1.0,variant=pa1]', 'PA[C=1.0000001,variant=pa1]', 'Perceptron']
    """
    short = {str(n): display_name(n) for n in dict.fromkeys(names)}
    taken = pd.Series(list(short.values())).value_counts()
    return {n: s if taken[s] == 1 else n for n, s in short.items()}


def natural_key(name) -> tuple:
    """Sort key that orders the numbers inside names by value (k=25 before k=100).

    >>> sorted(["S[k=100]", "S[k=25]", "S[g=0.1]", "S[g=0.05]"], key=natural_key)
    ['S[g=0.05]', 'S[g=0.1]', 'S[k=25]', 'S[k=100]']
    """
    parts = re.split(r"(\d+(?:\.\d+)?(?:e[-+]?\d+)?)", str(name))
    return tuple(float(p) if i % 2 else p for i, p in enumerate(parts))
