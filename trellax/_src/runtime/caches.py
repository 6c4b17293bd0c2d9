"""``clear_caches``, ``live_arrays`` and ``effects_barrier``."""

from __future__ import annotations

import gc
from typing import Any

from trellax._src.api import api
from trellax._src.backend import eager
from trellax._src.backend.array import ArrayImpl
from trellax._src.interpreters import program_cache
from trellax._src.runtime.device import _check_backend


def clear_caches() -> None:
    """Empties every compilation cache: each jitted function's traced programs, the eager
    control-flow and composite-function programs, and the memo of abstract evaluation. The next
    call of a jitted function traces it again."""

    for f in list(api.ALL_JITTED):
        f.clear_cache()
    api._PROGRAMS.clear()
    program_cache.clear()
    eager._ABSTRACT_EVAL_MEMO.clear()


def live_arrays(platform: str | None = None) -> list[Any]:
    """Every concrete trellax array alive in this process (found through the garbage
    collector, so slow: for debugging memory, as in JAX)."""

    _check_backend(platform)
    return [o for o in gc.get_objects() if type(o) is ArrayImpl]


def effects_barrier() -> None:
    """Waits for pending callbacks: none here (callbacks run synchronously)."""
    return None
