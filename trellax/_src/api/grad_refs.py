"""Where the cotangents of ``vjp(...)[1].with_refs(...)`` go: JAX's ``jax.ad`` markers.

``f_vjp.with_refs(*specs)(ct)`` computes the same cotangents as ``f_vjp(ct)`` and delivers each
primal argument's (or each subtree's, the specs being pytree prefixes of the arguments) as its
spec asks:

- ``DontWant()``: not returned; the result holds a ``DidntWant()`` there;
- an array reference (``new_ref``): the cotangent is *added* to the reference's value (gradient
  accumulation); the result holds a ``GradRef()`` there;
- ``GradValue()`` (or any other object, as in JAX): the cotangent itself.

``DidntWant`` and ``GradRef`` are pytrees without leaves, so results can cross ``jit``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.api.ref_frames import RefBase
from trellax._src.tree.registry import register_pytree_node
from trellax._src.tree.tree_util import tree_map


class _Marker:
    """Markers compare equal by type and print as their constructor call."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class DontWant(_Marker):
    """A spec of ``with_refs``: this argument's cotangent is not wanted."""


class GradValue(_Marker):
    """A spec of ``with_refs``: this argument's cotangent is returned as a value."""


class DidntWant(_Marker):
    """What ``with_refs`` returns for an argument whose spec was ``DontWant()``."""


class GradRef(_Marker):
    """What ``with_refs`` returns for an argument whose cotangent was added to a reference."""


for _cls in (DidntWant, GradRef):
    register_pytree_node(_cls, lambda m: ((), type(m)), lambda cls, _: cls())


def _is_spec(x: Any) -> bool:
    return isinstance(x, (_Marker, RefBase))


def _deliver(spec: Any, ct: Any) -> Any:
    if isinstance(spec, DontWant):
        return DidntWant()
    if isinstance(spec, RefBase):
        ref: Any = spec  # an array reference (trellax.numpy's Ref): indexable
        ref[...] = ref[...] + ct
        return GradRef()
    return ct


def deliver_cotangents(
    cts: tuple[Any, ...], specs: tuple[Any, ...], fun_name: str
) -> tuple[Any, ...]:
    """Each primal's cotangent delivered as its spec asks (see the module docstring)."""
    if len(specs) != len(cts):
        raise TypeError(
            f"with_refs of the VJP of {fun_name} takes one spec per primal argument: "
            f"{len(cts)} expected, {len(specs)} given"
        )
    return tuple(tree_map(_deliver, spec, ct, is_leaf=_is_spec) for spec, ct in zip(specs, cts))


def with_refs(
    vjp_fun: Callable[[Any], tuple[Any, ...]], fun_name: str, specs: tuple[Any, ...]
) -> Callable[[Any], tuple[Any, ...]]:
    """``vjp_fun`` whose results are delivered as ``specs`` ask."""

    def apply(ct: Any) -> tuple[Any, ...]:
        return deliver_cotangents(vjp_fun(ct), specs, fun_name)

    return apply
