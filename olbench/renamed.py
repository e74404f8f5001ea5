"""Old spellings of renamed parameters, still accepted for one release.

A component that renames a parameter lists the old spelling in its ``renamed_params`` (a
tuple of :class:`Renamed`); its ``__init__`` then takes the old spelling, maps it to the
new parameter and warns with a ``DeprecationWarning`` that names the new spelling. Names,
configs and results know the new parameter only (``inspect.signature`` still reads the
class's own ``__init__``), so a run given the old spelling is the run of the new one.

Several old parameters may map to one new one together: ROMMA's ``variant="libol"`` and
``tie="libol"`` are ``libol=True``. A combination of old values that the new parameter
cannot say (``variant="libol"`` with ``tie="novikoff"``), or an old spelling that
contradicts the new parameter given beside it, is an error naming both; never a silent
other run.

>>> import warnings
>>> tie = Renamed("libol", ("tie",), {("novikoff",): False, ("libol",): True})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     translated({"tie": "libol", "eta": 2.0}, (tie,), "Perceptron", {"libol": False})
{'eta': 2.0, 'libol': True}
>>> print(caught[0].message)
Perceptron: tie='libol' is deprecated (removed in 0.3.0); write libol=True
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from olbench.component import _same

#: the release in which the old spellings stop being accepted
REMOVED_IN = "0.3.0"


@dataclass(frozen=True)
class Renamed:
    """The old parameters ``old`` (taken together) that the parameter ``new`` replaces.

    ``values`` maps the old values (in the order of ``old``; one left out counts at its old
    default, ``old_defaults``) to the new value; None when the value is kept as it is (one
    old name, the same meaning under a new name: CW's ``eta`` is ``confidence``)."""

    new: str
    old: tuple[str, ...]
    values: Mapping[tuple, Any] | None = None
    old_defaults: tuple = field(default=())

    def spelled(self, given: Mapping[str, Any]) -> str:
        return ", ".join(f"{name}={given[name]!r}" for name in self.old if name in given)

    def new_value(self, given: Mapping[str, Any], owner: str) -> Any:
        if self.values is None:
            return given[self.old[0]]
        defaults = dict(zip(self.old, self.old_defaults))
        combination = tuple(given.get(name, defaults.get(name)) for name in self.old)
        if combination not in self.values:
            accepted = "; ".join(
                f"{', '.join(f'{n}={v!r}' for n, v in zip(self.old, old))} -> "
                f"{self.new}={new!r}" for old, new in self.values.items())
            spelled = ", ".join(f"{n}={v!r}" for n, v in zip(self.old, combination))
            raise ValueError(f"{owner}: {spelled} has no equivalent in {self.new} (the old "
                             f"spellings it replaces: {accepted})")
        return self.values[combination]


def translated(params: Mapping[str, Any], renamed: tuple[Renamed, ...], owner: str,
               defaults: Mapping[str, Any], warn: bool = True) -> dict[str, Any]:
    """``params`` with every old spelling replaced by its new parameter, each warned about
    (unless ``warn`` is false: a name read from an older results table). A new parameter
    given beside its old spelling must agree with it, unless it is at its default
    (``defaults``): a config file lists every parameter at its default, and a grid entry's
    ``params`` written with the old spelling update that config."""
    out = dict(params)
    for rename in renamed:
        given = {name: out.pop(name) for name in rename.old if name in out}
        if not given:
            continue
        value = rename.new_value(given, owner)
        if rename.new in out and not _same(out[rename.new], value) \
                and not _same(out[rename.new], defaults.get(rename.new, object())):
            raise ValueError(f"{owner}: {rename.spelled(given)} (the old spelling of "
                             f"{rename.new}={value!r}) contradicts {rename.new}="
                             f"{out[rename.new]!r}; write {rename.new} only")
        if warn:
            warnings.warn(f"{owner}: {rename.spelled(given)} is deprecated (removed in "
                          f"{REMOVED_IN}); write {rename.new}={value!r}", DeprecationWarning,
                          stacklevel=4)
        out[rename.new] = value
    return out


def old_spellings(cls: type) -> set[str]:
    """The old parameter names a class still accepts (none for a class without renames)."""
    return {name for rename in getattr(cls, "renamed_params", ()) for name in rename.old}


def accepting_renamed(init):
    """A class's ``__init__`` that also takes the old spellings of its ``renamed_params``
    (the signature seen by ``inspect`` stays the class's own)."""
    @functools.wraps(init)
    def wrapped(self, *args, **params):
        renamed = type(self).renamed_params
        if renamed and any(name in params for rename in renamed for name in rename.old):
            params = translated(params, renamed, type(self).__name__,
                                type(self).param_defaults())
        init(self, *args, **params)
    return wrapped
