"""``explain_promotions``: where did this float64 come from?

Traces a function and lists every implicit promotion inside it — the ``convert_element_type``
equations that ``trellax.numpy`` inserted and marked with their provenance (``numpy.util.
promote_to``), in the function and in the bodies of its ``cond``/``scan``/``while_loop`` — with the user source line, the ``trellax.numpy``
function that promoted, the dtypes before and after, and flags for the ones that widen to 64 bits
or lose precision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from trellax._src.api.api import _trace_pytree
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn
from trellax._src.dtypes import dtypes


@dataclass(frozen=True)
class Promotion:
    """One implicit conversion found in a traced function."""

    source: str | None
    function: str | None
    before: ShapedArray
    after: ShapedArray
    flags: tuple[str, ...]

    def __str__(self) -> str:
        where = self.source or "<unknown>"
        what = f"{self.function}: " if self.function else ""
        flags = "".join(f"  [{f}]" for f in self.flags)
        return f"{where}  {what}{self.before} -> {self.after}{flags}"


@dataclass(frozen=True)
class PromotionReport:
    function: str
    inputs: tuple[ShapedArray, ...]
    promotions: tuple[Promotion, ...]
    jaxpr: ClosedJaxpr

    def __str__(self) -> str:
        sig = ", ".join(str(a) for a in self.inputs)
        n = len(self.promotions)
        if not n:
            return f"No implicit promotions in {self.function}({sig})."
        head = f"{n} implicit promotion{'s' if n != 1 else ''} in {self.function}({sig}):"
        return "\n".join([head, *(f"  {p}" for p in self.promotions)])

    def __iter__(self) -> Any:
        return iter(self.promotions)

    def __len__(self) -> int:
        return len(self.promotions)


def _flags(before: ShapedArray, after: ShapedArray) -> tuple[str, ...]:
    out = []
    a, b = before.dtype, after.dtype
    kb = dtypes.kind(b)
    wide = (dtypes.itemsize_bits(b) >= 64 and kb in ("i", "u", "f")) or b == dtypes.complex128
    if wide and dtypes.itemsize_bits(a) < dtypes.itemsize_bits(b):
        out.append("widens to 64 bits")
    # A weak value (a Python scalar) adopting the other operand's dtype is the point of weak
    # typing, not a loss worth flagging.
    lossy = None if before.weak_type else _precision_loss(a, b)
    if lossy:
        out.append(lossy)
    return tuple(out)


def _precision_loss(a: np.dtype[Any], b: np.dtype[Any]) -> str | None:
    ka, kb = dtypes.kind(a), dtypes.kind(b)
    if ka in ("i", "u") and kb in ("f", "c"):
        real = dtypes.float32 if b == dtypes.complex64 else dtypes.float64 if kb == "c" else b
        mant = int(dtypes.finfo(real).nmant) + 1
        bits = dtypes.itemsize_bits(a) - (1 if ka == "i" else 0)
        if bits > mant:
            return f"loses precision: {a.name} values above 2**{mant} are not exact in {b.name}"
    if ka == "f" and kb in ("f", "c"):
        real = dtypes.float32 if b == dtypes.complex64 else dtypes.float64 if kb == "c" else b
        if int(dtypes.finfo(real).nmant) < int(dtypes.finfo(a).nmant):
            return f"loses precision: {a.name} -> {b.name}"
    if ka == "c" and kb != "c":
        return "drops the imaginary part"
    return None


def explain_promotions(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> PromotionReport:
    """Traces ``fun(*args, **kwargs)`` and lists its implicit promotions.

    >>> import trellax, trellax.numpy as tnp
    >>> def f(x, y):
    ...     return x * y
    >>> print(trellax.explain_promotions(f, tnp.ones(3, "int32"), tnp.ones(3, "float16")))
    ... # doctest: +ELLIPSIS
    1 implicit promotion in f(int32[3], float16[3]):
      ...  multiply: int32[3] -> float16[3]  [loses precision: int32 values above 2**11 ...]
    """
    closed, _ = _trace_pytree(fun, args, kwargs)
    found = [
        Promotion(eqn.source, eqn.api, before, after, _flags(before, after))
        for eqn in _equations(closed.jaxpr)
        if eqn.primitive.name == "convert_element_type" and eqn.api is not None
        for before, after in [(eqn.invars[0].aval, eqn.outvars[0].aval)]
    ]
    name = getattr(fun, "__name__", "fun")
    return PromotionReport(name, tuple(closed.in_avals), tuple(found), closed)


def _equations(jaxpr: Jaxpr) -> Iterator[JaxprEqn]:
    """Every equation of ``jaxpr`` and, in order, of the sub-jaxprs its equations carry as
    parameters (``cond`` branches, ``scan``/``while_loop`` bodies)."""
    for eqn in jaxpr.eqns:
        yield eqn
        for param in eqn.params.values():
            for sub in param if isinstance(param, (tuple, list)) else (param,):
                if isinstance(sub, ClosedJaxpr):
                    yield from _equations(sub.jaxpr)
                elif isinstance(sub, Jaxpr):
                    yield from _equations(sub)
