"""``jax.lax`` names for XLA tokens, compiler hints and sharding, with their meaning on one CPU
device computed by NumPy.

* ``create_token``/``after_all``: tokens order side effects in XLA; trellax runs operations in
  program order, so a token is an inert value (``after_all`` checks its arguments, as JAX). A
  token is a pytree node without leaves, so it passes into and out of ``jit``, ``vmap`` and
  ``grad`` (coming out as a new token, as in JAX); unlike JAX's, ``tree_leaves(token)`` is
  ``[]``.
* ``platform_dependent``: the platform is ``"cpu"``: calls the ``cpu`` branch, else ``default``.
* ``with_sharding_constraint``: places concrete arrays by their shardings (one buffer: only
  ``.sharding`` changes) and refuses what JAX refuses; ``stage``: an identity that turns a value
  into an array.
* ``dce_sink``: keeps a value alive against dead-code elimination; trellax eliminates nothing
  the user can observe, so it returns ``None`` as JAX does.
* ``shape_as_value``: a shape as a NumPy int32 array, as JAX returns it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from trellax._src.core.basearray import Array
from trellax._src.core.typing import ArrayLike
from trellax._src.lax._base import asarray
from trellax._src.tree.registry import register_pytree_node
from trellax._src.tree.tree_util import tree_flatten, tree_map

_T = TypeVar("_T")

#: The platform trellax runs on, as ``platform_dependent`` names it.
PLATFORM = "cpu"


class Token:
    """An XLA token: orders side effects. It carries no value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Token()"


# A token carries no value: a node with no children, rebuilt as a new token on unflattening.
register_pytree_node(Token, lambda t: ((), None), lambda aux, children: Token())


def create_token(_: Any = None) -> Token:
    """A new token (the argument is ignored, as in JAX)."""
    return Token()


def after_all(*operands: Any) -> Token:
    """A token that follows all ``operands`` (tokens)."""
    if not all(isinstance(t, Token) for t in operands):
        raise TypeError("Arguments to after_all must be tokens")
    return Token()


def platform_dependent(
    *args: Any, default: Callable[..., _T] | None = None, **per_platform: Callable[..., _T]
) -> _T:
    """Calls the branch for the current platform (``cpu``), or ``default`` without one."""
    branch = per_platform.get(PLATFORM, default)
    if branch is None:
        names = tuple(sorted(per_platform))
        raise NotImplementedError(
            f"platform_dependent: no branch for platform {PLATFORM!r} and no default "
            f"(branches for {names}); trellax runs on {PLATFORM!r} only"
        )
    return branch(*args)


#: Places concrete arrays by a pytree prefix of shardings (set by ``runtime.device``, which this
#: layer may not import); until then, leaves are only converted to arrays.
place_eagerly: list[Callable[..., Any]] = [lambda x, s, reshard=False: tree_map(asarray, x)]

#: Refuses a sharding ``with_sharding_constraint`` may not take (set by ``runtime.sharding``: a
#: ``NamedSharding`` naming an Explicit or Manual mesh axis, JAX's ``ValueError``).
check_constraint: list[Callable[[Any], None]] = [lambda s: None]


def with_sharding_constraint(x: Any, shardings: Any) -> Any:
    """``x``, each concrete array placed by its sharding (a pytree prefix of ``x``; the data are
    one buffer, so only ``.sharding`` changes), traced values unchanged. ``None`` shardings are
    refused, as JAX."""
    leaves, _ = tree_flatten(shardings, is_leaf=lambda s: s is None)
    if shardings is None or any(s is None for s in leaves):
        raise ValueError(
            "One of with_sharding_constraint arguments got sharding None which is not allowed. "
            "Please only pass `Sharding` instances."
        )
    for sharding in leaves:
        check_constraint[0](sharding)
    return place_eagerly[0](x, shardings)  # traced leaves: sharding_rules.traced_constraint


def stage(x: ArrayLike, /) -> Array:
    """``x`` as an array of the current trace (an identity on arrays)."""
    return asarray(x)


def dce_sink(val: Any, *, prevent_mlir_dce: bool = False) -> None:
    """Marks ``val`` as used; returns ``None``."""
    tree_map(asarray, val)


def shape_as_value(shape: Sequence[int]) -> np.ndarray[Any, np.dtype[Any]]:
    """``shape`` as a 1-d NumPy int32 array (int32 with x64 on too, as JAX); a size that is not
    an integer (a float, a float array's element) is JAX's ``TypeError``."""
    return np.asarray(tuple(operator.index(d) for d in shape), dtype=np.int32)
