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

import ast
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
    """An allowed set of values; ``str`` and ``repr`` are its description.

    >>> print(Interval(0, 1, low_open=True)); OneOf("pa", "pa1")
    a number in (0, 1]
    <one of 'pa', 'pa1'>
    """

    def check(self, value: Any) -> bool:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return f"<{self.describe()}>"


class Interval(Constraint):
    """A finite real (or integer) number in a closed, open or half-open interval; ``None`` if
    allowed. An infinite end is always open: ``Interval(0, inf)`` is [0, inf), so NaN and
    +-inf are never accepted (a stream with R=inf would only produce NaN data later).

    ``reason`` says why a finite end is where it is (typically where a quantity the rule
    computes from the parameter leaves float64); it is part of the description, hence of the
    error and of ``olbench --list``.

    >>> Interval(0, math.inf).check(math.inf), Interval(0, math.inf).describe()
    (False, 'a number in [0, inf)')
    >>> Interval(1e-153, 1e153, reason="2 h^2 must be a finite float64").describe()
    'a number in [1e-153, 1e+153] (2 h^2 must be a finite float64)'
    """

    def __init__(self, low: float = -math.inf, high: float = math.inf, *, low_open: bool = False,
                 high_open: bool = False, integer: bool = False, none_ok: bool = False,
                 reason: str = ""):
        self.low, self.high = low, high
        self.low_open, self.high_open = low_open, high_open
        self.integer, self.none_ok = integer, none_ok
        self.reason = reason

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
        text = text + " or None" if self.none_ok else text
        return f"{text} ({self.reason})" if self.reason else text


#: The smallest power of ten whose reciprocal is a finite float64 (1/x <= 1.8e308 needs
#: x >= 5.6e-309; 1/(2x) too): the low end of a parameter a rule divides by.
RECIPROCAL_LOW = 1e-308


def reciprocal_range(why: str) -> Interval:
    """The positive numbers a rule can divide by, ``why`` naming the quotient: below 1e-308
    the quotient is inf and the rule stops learning (PA-II's step loss / (||x||^2 + 1/(2C))
    was 0 for C = 5e-324) or divides inf by inf.

    >>> reciprocal_range("1/C must be a finite float64").describe()
    'a number in [1e-308, inf) (1/C must be a finite float64)'
    """
    return Interval(RECIPROCAL_LOW, math.inf, reason=why)


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
                            f"by position; {_param_list(names, tuple(cls.optional_params))}")
        old = {n for r in getattr(cls, "renamed_params", ()) for n in r.old}  # olbench.renamed
        unknown = sorted(set(params) - set(names) - old)
        if unknown:
            raise TypeError(f"{self.family} {key!r} has no parameter "
                            f"{', '.join(unknown)}; "
                            f"{_param_list(names, tuple(cls.optional_params))}")
        return cls(**params)

    def items(self):
        self._load()
        return sorted(self._classes.items())


def _param_list(names: list[str], options=()) -> str:
    own = sorted(n for n in names if n not in options)
    text = "its parameters: " + (", ".join(own) if own else "none")
    return text + (f" (and the options {', '.join(options)})" if options else "")


def import_submodules(package_name: str, package_path) -> None:
    """Import every module of a package so that its components register themselves."""
    for info in pkgutil.iter_modules(package_path):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package_name}.{info.name}")


# --------------------------------------------------------------------------- component
def _same(a: Any, b: Any) -> bool:
    """Equal as parameter values: 1 and 1.0 are, True and 1 are not."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, numbers.Real) and isinstance(b, numbers.Real):
        return float(a) == float(b)
    equal = a == b
    # an array compared with a value answers elementwise: one answer for the whole value
    return equal if isinstance(equal, bool) else bool(getattr(equal, "all", lambda: equal)())


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "(" + ",".join(_fmt(v) for v in value) + ")"
    return str(value)


def _short(value: Any) -> str:
    """A parameter value as a display name shows it: numbers in ``%g`` form (1.0 -> 1).

    >>> _short(1.0), _short(0.1), _short(1e-05), _short(True), _short("pa1"), _short((1.0, 2))
    ('1', '0.1', '1e-05', 'True', 'pa1', '(1,2)')
    """
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "(" + ",".join(_short(v) for v in value) + ")"
    return str(value)


def _split_top(text: str) -> list[str]:
    """``text`` split at the commas outside brackets and parentheses."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def _parse_value(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    try:
        return float(text)   # inf, nan (repr of a float that literal_eval does not read)
    except ValueError:
        return text


def parse_name(name: str) -> tuple[str, dict[str, Any]]:
    """The class name and parameters of a :attr:`Component.name` (its inverse, for names of
    numbers, booleans, None, tuples and plain strings).

    >>> parse_name("PA[C=1.0,variant=pa1]")
    ('PA', {'C': 1.0, 'variant': 'pa1'})
    >>> parse_name("X[shape=(2,3),b=None]"), parse_name("Perceptron")
    (('X', {'shape': (2, 3), 'b': None}), ('Perceptron', {}))
    """
    name = str(name)
    head, bracket, rest = name.partition("[")
    if not bracket or not rest.endswith("]"):
        return name, {}
    params = {}
    for item in _split_top(rest[:-1]):
        key, eq, value = item.partition("=")
        if eq:
            params[key] = _parse_value(value)
    return head, params


class Component:
    """Base class: keyword-only hyper-parameters, constraints, a name, and a registry key."""

    registry: ClassVar[Registry]
    key: ClassVar[str | None] = None
    constraints: ClassVar[Mapping[str, Constraint]] = {}
    #: The short label of display names (default: the class name), e.g. ``"aROMMA"``.
    display_label: ClassVar[str | None] = None
    #: Parameters a display name always shows; the others show when not at their default.
    display_params: ClassVar[tuple[str, ...]] = ()
    #: Options a whole family accepts besides each class's own parameters (e.g. a learner's
    #: ``init``): ``{name: (default, constraint)}``. At their default they are left out of
    #: :meth:`get_params`, names and configs, so adding one changes no existing name or run.
    optional_params: ClassVar[Mapping[str, tuple[Any, Constraint]]] = {}

    def __init_subclass__(cls, key: str | None = None, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        cls.key = key
        if key is not None:
            cls.registry.add(key, cls)

    @classmethod
    def param_names(cls) -> list[str]:
        """The class's own keyword-only parameters, then the family's ``optional_params``."""
        sig = inspect.signature(cls.__init__)
        own = [p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]
        return own + [name for name in cls.optional_params if name not in own]

    def get_params(self) -> dict[str, Any]:
        """Every parameter by name; an optional one only when it is not at its default."""
        return {name: getattr(self, name) for name in self.param_names()
                if name not in self.optional_params
                or not _same(getattr(self, name), self.optional_params[name][0])}

    def clone(self, **overrides: Any):
        """A fresh, unfitted copy with the same (or overridden) hyper-parameters."""
        return type(self)(**{**self.get_params(), **overrides})

    @property
    def name(self) -> str:
        """Deterministic name, e.g. ``PA[C=1.0,variant=pa1]``: the join key in results."""
        inner = ",".join(f"{k}={_fmt(self.param_label(k, v))}"
                         for k, v in self.get_params().items())
        return f"{type(self).__name__}[{inner}]"

    def __repr__(self) -> str:
        return self.name

    # -- display names: short labels for tables and legends ------------------------------
    @classmethod
    def param_defaults(cls) -> dict[str, Any]:
        """The default of each keyword-only hyper-parameter that has one."""
        sig = inspect.signature(cls.__init__)
        own = {p.name: p.default for p in sig.parameters.values()
               if p.kind is p.KEYWORD_ONLY and p.default is not p.empty}
        return {**own, **{k: v[0] for k, v in cls.optional_params.items() if k not in own}}

    @classmethod
    def param_label(cls, name: str, value: Any) -> Any:
        """How names show parameter ``name``'s ``value``: the value itself, unless the family
        shortens it (a learner's given initial vector: a hash of its numbers)."""
        return value

    @classmethod
    def display_title(cls, params: Mapping[str, Any]) -> str:
        """The label before the parentheses (a subclass may derive it from ``params``)."""
        return cls.display_label or cls.__name__

    @classmethod
    def display_shown(cls, params: Mapping[str, Any]) -> list[str]:
        """The parameters a display name shows: ``display_params``, and any other not at its
        default (never the seed, a replicate rather than a setting)."""
        defaults = cls.param_defaults()
        return [k for k in params if k != "seed" and (
            k in cls.display_params or k not in defaults or not _same(params[k], defaults[k]))]

    @classmethod
    def display(cls, params: Mapping[str, Any]) -> str:
        """The short name of a component with ``params``, e.g. ``AROW (r=0.1)``."""
        shown = ", ".join(f"{k}={_short(cls.param_label(k, params[k]))}"
                          for k in cls.display_shown(params)
                          if k in params)
        title = cls.display_title(params)
        return f"{title} ({shown})" if shown else title

    @property
    def display_name(self) -> str:
        """Short name for tables and legends; :attr:`name` stays the key in the data."""
        return self.display(self.get_params())

    def validate(self) -> None:
        """Check every hyper-parameter against its declared constraint."""
        optional = {k: v[1] for k, v in self.optional_params.items()}
        for param, constraint in {**optional, **self.constraints}.items():
            value = getattr(self, param)
            if not constraint.check(value):
                raise InvalidParameterError(
                    f"{type(self).__name__}: invalid {param}={value!r}; "
                    f"{param} must be {constraint.describe()}")
