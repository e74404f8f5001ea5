"""What learners, streams and comparators have in common.

A *component* is configured only by keyword-only hyper-parameters that ``__init__`` stores
unchanged under the same names (so Hydra's ``instantiate``, :meth:`Component.get_params`,
:meth:`Component.clone` and ``repr`` all work), declares the allowed values of those
parameters in a ``constraints`` table checked by :meth:`Component.validate`, and registers
itself under a short key when its class is defined::

    class PA(Learner, key="pa"):
        constraints = {"C": Interval(0, inf, low_open=True)}
        def __init__(self, *, C=1.0): self.C = C

No central list is edited to add one: importing the module is enough, and each family's
package imports all of its modules (see :func:`import_submodules`).

>>> from olbench.component import Interval
>>> Interval(0, 1, low_open=True).describe()
'a number in (0, 1]'
"""

from __future__ import annotations

import importlib
import inspect
import math
import numbers
import pkgutil
from collections.abc import Mapping
from typing import Any, ClassVar


class InvalidParameterError(ValueError):
    """A hyper-parameter outside its declared range; the message names both."""


class UnknownNameError(KeyError):
    """A registry key that does not exist; the message lists the known keys."""

    def __str__(self) -> str:  # KeyError would print the message in quotes
        return str(self.args[0])


# --------------------------------------------------------------------------- constraints
class Constraint:
    def check(self, value: Any) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


class Interval(Constraint):
    """A finite real (or integer) number in a closed, open or half-open interval; ``None`` if
    allowed. An infinite end is always open: ``Interval(0, inf)`` is [0, inf), so NaN and
    +-inf are never accepted (a stream with R=inf would only produce NaN data later).

    >>> Interval(0, math.inf).check(math.inf), Interval(0, math.inf).describe()
    (False, 'a number in [0, inf)')
    """

    def __init__(self, low: float = -math.inf, high: float = math.inf, *, low_open: bool = False,
                 high_open: bool = False, integer: bool = False, none_ok: bool = False):
        self.low, self.high = low, high
        self.low_open, self.high_open = low_open, high_open
        self.integer, self.none_ok = integer, none_ok

    def check(self, value: Any) -> bool:
        if value is None:
            return self.none_ok
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return False
        if self.integer and not float(value).is_integer():
            return False
        if not math.isfinite(value):
            return False
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below

    def describe(self) -> str:
        kind = "an integer" if self.integer else "a number"
        lo = "(" if self.low_open or math.isinf(self.low) else "["
        hi = ")" if self.high_open or math.isinf(self.high) else "]"
        text = f"{kind} in {lo}{_fmt(self.low)}, {_fmt(self.high)}{hi}"
        return text + " or None" if self.none_ok else text


class OneOf(Constraint):
    """One of a fixed set of values (compared with ``==``)."""

    def __init__(self, *values: Any):
        self.values = values

    def check(self, value: Any) -> bool:
        return any(value == v and type(value) is type(v) for v in self.values)

    def describe(self) -> str:
        return "one of " + ", ".join(repr(v) for v in self.values)


class IsInstance(Constraint):
    def __init__(self, *types: type, none_ok: bool = False):
        self.types, self.none_ok = types, none_ok

    def check(self, value: Any) -> bool:
        return (value is None and self.none_ok) or isinstance(value, self.types)

    def describe(self) -> str:
        names = " or ".join(t.__name__ for t in self.types)
        return f"of type {names}" + (" or None" if self.none_ok else "")


# --------------------------------------------------------------------------- registry
class Registry:
    """Maps short keys (``"pa"``) to component classes of one family (``"learner"``)."""

    def __init__(self, family: str, package: str):
        self.family, self.package = family, package
        self._classes: dict[str, type] = {}

    def add(self, key: str, cls: type) -> None:
        if key in self._classes and self._classes[key] is not cls:
            raise ValueError(f"{self.family} key {key!r} is registered twice: "
                             f"{self._classes[key].__qualname__} and {cls.__qualname__}")
        self._classes[key] = cls

    def _load(self) -> None:
        importlib.import_module(self.package)

    def keys(self) -> list[str]:
        self._load()
        return sorted(self._classes)

    def get(self, key: str) -> type:
        self._load()
        try:
            return self._classes[key]
        except KeyError:
            raise UnknownNameError(
                f"unknown {self.family} {key!r}; known {self.family}s: "
                + ", ".join(sorted(self._classes))) from None

    def make(self, key: str, *args: Any, **params: Any):
        """An instance of ``key`` with hyper-parameters given by name (keyword-only)."""
        cls = self.get(key)
        names = cls.param_names()
        if args:
            raise TypeError(f"{self.family} {key!r}: hyper-parameters are passed by name, "
                            f"e.g. {key}({names[0] if names else 'name'}={args[0]!r}), not "
                            f"by position; {_param_list(names)}")
        unknown = sorted(set(params) - set(names))
        if unknown:
            raise TypeError(f"{self.family} {key!r} has no parameter "
                            f"{', '.join(unknown)}; {_param_list(names)}")
        return cls(**params)

    def items(self):
        self._load()
        return sorted(self._classes.items())


def _param_list(names: list[str]) -> str:
    return "its parameters: " + (", ".join(sorted(names)) if names else "none")


def import_submodules(package_name: str, package_path) -> None:
    """Import every module of a package so that its components register themselves."""
    for info in pkgutil.iter_modules(package_path):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package_name}.{info.name}")


# --------------------------------------------------------------------------- component
def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "(" + ",".join(_fmt(v) for v in value) + ")"
    return str(value)


class Component:
    """Base class: keyword-only hyper-parameters, constraints, a name, and a registry key."""

    registry: ClassVar[Registry]
    key: ClassVar[str | None] = None
    constraints: ClassVar[Mapping[str, Constraint]] = {}

    def __init_subclass__(cls, key: str | None = None, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        cls.key = key
        if key is not None:
            cls.registry.add(key, cls)

    @classmethod
    def param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]

    def get_params(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.param_names()}

    def clone(self, **overrides: Any):
        """A fresh, unfitted copy with the same (or overridden) hyper-parameters."""
        return type(self)(**{**self.get_params(), **overrides})

    @property
    def name(self) -> str:
        """Deterministic name, e.g. ``PA[C=1.0,variant=pa1]``: the join key in results."""
        inner = ",".join(f"{k}={_fmt(v)}" for k, v in self.get_params().items())
        return f"{type(self).__name__}[{inner}]"

    def __repr__(self) -> str:
        return self.name

    def validate(self) -> None:
        """Check every hyper-parameter against its declared constraint."""
        for param, constraint in self.constraints.items():
            value = getattr(self, param)
            if not constraint.check(value):
                raise InvalidParameterError(
                    f"{type(self).__name__}: invalid {param}={value!r}; "
                    f"{param} must be {constraint.describe()}")
