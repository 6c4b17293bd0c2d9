"""Where the array-making functions of ``trellax.numpy`` put their results: by ``out_sharding=``
when it is given (``core/out_sharding.py``), else, under a mesh (``set_mesh``), on that mesh,
replicated -- as JAX places every array made under a mesh (``jnp.zeros(4)`` reports
``NamedSharding(mesh, P())``, committed). Without either, the
result is returned as made (the wrapper costs one call and two tests)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from trellax._src.backend.eager import ConcreteArray
from trellax._src.core import out_sharding
from trellax._src.core.basearray import Array
from trellax._src.lax import sharding_rules

F = TypeVar("F", bound=Callable[..., Any])


def placed(fn: F) -> F:
    """``fn`` placing its result (``asarray`` calls :func:`place` itself, off its hot path)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        s = kwargs.get("out_sharding")
        if s is None and sharding_rules.context_placement[0] is None:
            return out
        return place(out, s)

    return wrapper  # type: ignore[return-value]


def place(out: Any, sharding: Any, kept: bool = False) -> Any:
    """``out`` placed by ``sharding`` (an ``out_sharding=``), else on the mesh in force unless
    ``kept`` (an array passed to ``asarray`` keeps its placement, as in JAX). Callers skip the
    call when neither is set (``sharding_rules.context_placement[0] is None``)."""
    if sharding is not None:
        return out_sharding.place(out, sharding)
    if kept or sharding_rules.context_placement[0] is None:
        return out
    return sharding_rules.on_context_mesh(out)


def placed_like(a: Any, shape: Any, out: Array) -> Array:
    """``out`` laid out as ``a`` when ``a`` is a placed array of its shape: JAX's ``*_like``
    of a concrete array keep its sharding."""
    if (
        isinstance(a, ConcreteArray)
        and isinstance(out, ConcreteArray)
        and a.committed
        and tuple(a.shape) == tuple(out.shape)
    ):
        return out._with_sharding(a.sharding)
    return out
