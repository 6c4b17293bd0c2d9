"""``flax.linen.kw_only_dataclasses``: dataclasses whose keyword-only fields come last in
``__init__``, and where a field that a base class made keyword-only stays keyword-only when a
subclass declares it again (Python's own ``kw_only`` makes the redeclared field positional)."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar

T = TypeVar("T")

#: The marker after which a class's fields are keyword-only (``_: KW_ONLY``).
KW_ONLY = dataclasses.KW_ONLY


def field(*, kw_only: Any = dataclasses.MISSING, **kwargs: Any) -> Any:
    """``dataclasses.field``; ``kw_only=True`` makes the field keyword-only."""
    return dataclasses.field(kw_only=kw_only, **kwargs)


def _kw_only_in_bases(cls: type) -> set[str]:
    names: set[str] = set()
    for base in cls.__mro__[1:]:
        for f in getattr(base, "__dataclass_fields__", {}).values():
            if f.kw_only is True and f._field_type is dataclasses._FIELD:  # type: ignore[attr-defined]
                names.add(f.name)
    return names


def dataclass(cls: type[T] | None = None, extra_fields: Any = None, **kwargs: Any) -> Any:
    """``dataclasses.dataclass`` with keyword-only fields kept keyword-only in subclasses.

    ``extra_fields`` is a sequence of ``(name, type, field)`` added to the class first."""

    def wrap(cls: type[T]) -> type[T]:
        annotations = dict(inspect.get_annotations(cls))
        for name, annotation, value in extra_fields or ():
            if name not in annotations:
                annotations[name] = annotation
                setattr(cls, name, value)
        cls.__annotations__ = annotations
        for name in _kw_only_in_bases(cls) & set(annotations):
            value = cls.__dict__.get(name, dataclasses.MISSING)
            if isinstance(value, dataclasses.Field):
                if value.kw_only is dataclasses.MISSING:
                    value.kw_only = True
            else:
                setattr(cls, name, dataclasses.field(default=value, kw_only=True))
        return dataclasses.dataclass(cls, **kwargs)

    return wrap if cls is None else wrap(cls)
