"""Symbolic zeros seen by custom rules (``symbolic_zeros=True``), as in
``jax.custom_derivatives``.

A ``custom_jvp`` rule defined with ``symbolic_zeros=True`` receives a :class:`SymbolicZero` for
the tangent of every argument that is not being differentiated (instead of an array of zeros)
and may return one for an output whose tangent is zero; the machinery then never materializes
it. A ``custom_vjp`` whose ``defvjp`` has ``symbolic_zeros=True`` gets its ``fwd`` arguments as
:class:`CustomVJPPrimal` records (the value and whether it is perturbed), its ``bwd`` gets a
:class:`SymbolicZero` for each output cotangent that is zero, and ``bwd`` may return one.
"""

from __future__ import annotations

from typing import Any

from trellax._src.core import core
from trellax._src.core.core import ShapedArray
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import tangent_aval, zeros
from trellax._src.tree.tree_util import tree_map


class SymbolicZero:
    """A zero tangent or cotangent known by its type only (``.aval``; ``.shape``, ``.dtype``
    and the other attributes of the abstract value are read through)."""

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return "SymbolicZero"

    def __getattr__(self, name: str) -> Any:
        if name == "aval":  # not yet set (copying an instance)
            raise AttributeError(name)
        if name in ("size", "ndim"):
            n = 1
            for d in self.aval.shape:
                n *= d
            return n if name == "size" else len(self.aval.shape)
        try:
            return getattr(self.aval, name)
        except AttributeError:
            raise AttributeError(f"SymbolicZero has no attribute {name}") from None

    @staticmethod
    def from_primal_value(val: Any) -> SymbolicZero:
        """The symbolic zero tangent of a primal value."""
        return SymbolicZero(tangent_aval(core.get_aval(asarray(val))))


def zero_from_primal(val: Any, symbolic_zeros: bool = False) -> Any:
    """Zero tangents for the primal tree ``val``: symbolic ones, or arrays of zeros."""

    def one(x: Any) -> Any:
        t = tangent_aval(core.get_aval(asarray(x)))
        return SymbolicZero(t) if symbolic_zeros else zeros(t)

    return tree_map(one, val)


class CustomVJPPrimal:
    """An argument of a ``custom_vjp`` forward rule with ``symbolic_zeros=True``: the primal
    ``value`` and whether it is ``perturbed`` (differentiated)."""

    __slots__ = ("perturbed", "value")

    def __init__(self, value: Any, perturbed: bool) -> None:
        self.value = value
        self.perturbed = perturbed

    def __repr__(self) -> str:
        return f"CustomVJPPrimal(value={self.value!r}, perturbed={self.perturbed})"


def custom_vjp_primal_tree_values(tree: Any) -> Any:
    """``tree`` with every :class:`CustomVJPPrimal` leaf replaced by its value."""

    def value(leaf: Any) -> Any:
        if type(leaf) is not CustomVJPPrimal:
            raise TypeError(f"unexpected leaf type {type(leaf)}")
        return leaf.value

    return tree_map(value, tree)
