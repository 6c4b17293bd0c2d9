"""Module-level settings of a private module, readable and settable through a public module.

``trellax.flax.serialization`` only re-exports, but Flax's programs and tests set
``serialization.MAX_CHUNK_SIZE`` on it. :func:`forward_settings` makes such names of the
public module read from and write to the private module that uses them, so the setting takes
effect instead of shadowing a copy.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable
from typing import Any


class _ForwardingModule(types.ModuleType):
    """A module whose forwarded names live in another module."""

    _forwarded_to: dict[str, types.ModuleType]

    def __getattr__(self, name: str) -> Any:
        target = self.__dict__.get("_forwarded_to", {}).get(name)
        if target is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        return getattr(target, name)

    def __setattr__(self, name: str, value: Any) -> None:
        target = self.__dict__.get("_forwarded_to", {}).get(name)
        if target is None:
            super().__setattr__(name, value)
        else:
            setattr(target, name, value)


def forward_settings(public_name: str, target: types.ModuleType, names: Iterable[str]) -> None:
    """Makes ``names`` of module ``public_name`` live in ``target`` (reads and writes)."""
    module = sys.modules[public_name]
    forwarded = dict(module.__dict__.get("_forwarded_to", {}))
    for name in names:
        module.__dict__.pop(name, None)
        forwarded[name] = target
    module.__class__ = _ForwardingModule
    module.__dict__["_forwarded_to"] = forwarded
