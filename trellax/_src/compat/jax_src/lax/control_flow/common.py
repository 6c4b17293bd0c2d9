"""``jax._src.lax.control_flow.common``: JAX memoizes two steps of turning traced bodies into
loop equations (de-duplicating constants, padding constant variables), and its tests clear
those caches between tests. trellax has no such caches (a body's constants are hoisted when it
is traced), so clearing them is clearing nothing."""

from __future__ import annotations


class _NoCache:
    """The ``cache_clear`` of a memoized JAX helper trellax does not have."""

    def __init__(self, name: str) -> None:
        self.__name__ = name

    def cache_clear(self) -> None:
        """Nothing is cached, so nothing is cleared."""

    def __repr__(self) -> str:
        return f"<no cache {self.__name__}>"


_dedup_consts = _NoCache("_dedup_consts")
_pad_constvars = _NoCache("_pad_constvars")
