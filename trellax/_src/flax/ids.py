"""``flax.ids``: unique, hashable ids (``uuid()``) that a copy renews."""

from __future__ import annotations

import itertools
import threading
from typing import Any

_COUNTER = itertools.count()
_LOCK = threading.Lock()


class FlaxId:
    """An id equal only to itself; ``copy.copy`` and ``copy.deepcopy`` make new ones (as Flax's)."""

    def __init__(self, rawid: int) -> None:
        self.id = rawid

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlaxId) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"FlaxId({self.id})"

    def __deepcopy__(self, memo: Any) -> FlaxId:
        return uuid()

    def __copy__(self) -> FlaxId:
        return uuid()


def uuid() -> FlaxId:
    """A new id, different from every id made before."""
    with _LOCK:
        return FlaxId(next(_COUNTER))
