"""``jax._src.deprecations``: JAX's registry of deprecations that an "acceleration" turns from
warnings into errors. trellax has no such switch: every deprecation it shares with JAX (the
implicit array-to-dtype conversion, ``jax-array-numpy-dtype``) warns, so none is accelerated.
"""

from __future__ import annotations

#: the deprecations trellax knows by JAX's names (each warns; none is accelerated)
KNOWN: frozenset[str] = frozenset({"jax-array-numpy-dtype"})


def is_accelerated(deprecation_id: str) -> bool:
    """Whether the deprecation ``deprecation_id`` raises instead of warning: never here.

    >>> is_accelerated("jax-array-numpy-dtype")
    False
    """
    if not isinstance(deprecation_id, str):
        raise TypeError(f"deprecation ids are strings, got {deprecation_id!r}")
    return False
