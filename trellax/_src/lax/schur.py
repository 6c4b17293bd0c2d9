"""``schur`` and ``hessenberg`` primitives (impls: ``backend/schur.py``, written here since NumPy
has neither decomposition).

``schur(x)`` returns ``(T, Z)`` with ``x = Z T Z^H``: ``T`` upper triangular for complex input,
quasi-triangular (standardized 2x2 blocks for complex-conjugate pairs) for real input, as
LAPACK's gees. ``hessenberg(x)`` returns LAPACK's gehrd output: ``H`` on and above the first
subdiagonal, the Householder vectors below it, and their ``n - 1`` taus. Both map over leading
batch axes; neither is differentiable (JAX defines no derivative for them either).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trellax._src.backend import schur as schur_kernels
from trellax._src.core.basearray import Array
from trellax._src.core.core import AbstractValue, ShapedArray
from trellax._src.core.typing import ArrayLike
from trellax._src.lax._base import asarray, check_dtype, inexact
from trellax._src.lax.linalg import _aval, _prim
from trellax._src.lax.shapes import leading_rule


def _square(name: str, x: AbstractValue) -> tuple[int, ...]:
    check_dtype(name, x.dtype, inexact, 0)
    shape = tuple(x.shape)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"The input to {name} must be a square matrix. Got shape {shape}.")
    return shape


def _not_differentiable(name: str) -> Callable[..., Any]:
    def jvp(primals: Any, tangents: Any, **params: Any) -> Any:
        raise NotImplementedError(f"{name} is not differentiable (JAX defines no derivative)")

    return jvp


schur_p = _prim("schur", schur_kernels.schur, multiple_results=True)


@schur_p.def_abstract_eval
def _schur_abstract_eval(x: AbstractValue, *, compute_schur_vectors: bool) -> Any:
    shape = _square("schur", x)
    t = _aval(shape, x.dtype)
    return (t, _aval(shape, x.dtype)) if compute_schur_vectors else (t,)


schur_p.def_jvp(_not_differentiable("schur"))
schur_p.def_batch(leading_rule(schur_p))


def schur(
    x: ArrayLike,
    *,
    compute_schur_vectors: bool = True,
    sort_eig_vals: bool = False,
    select_callable: Callable[..., Any] | None = None,
) -> tuple[Array, Array]:
    """``(T, Z)`` with ``x = Z T Z^H`` and ``Z`` unitary; ``(T,)`` without
    ``compute_schur_vectors``. Sorting eigenvalues is not supported (``NotImplementedError``)."""
    if sort_eig_vals or select_callable is not None:
        raise NotImplementedError("schur: sorting eigenvalues (sort_eig_vals) is not supported")
    out = schur_p.bind_multi(asarray(x), compute_schur_vectors=bool(compute_schur_vectors))
    return tuple(out)  # type: ignore[return-value]


hessenberg_p = _prim("hessenberg", schur_kernels.hessenberg, multiple_results=True)


@hessenberg_p.def_abstract_eval
def _hessenberg_abstract_eval(x: AbstractValue) -> tuple[ShapedArray, ShapedArray]:
    shape = _square("hessenberg", x)
    n = shape[-1]
    return _aval(shape, x.dtype), _aval((*shape[:-2], max(n - 1, 0)), x.dtype)


hessenberg_p.def_jvp(_not_differentiable("hessenberg"))
hessenberg_p.def_batch(leading_rule(hessenberg_p))


def hessenberg(a: ArrayLike) -> tuple[Array, Array]:
    """``(packed, taus)``: the upper Hessenberg form ``H`` of ``a`` (on and above the first
    subdiagonal) with the Householder vectors of ``Q`` below it, ``a = Q H Q^H``; ``Q`` is
    ``householder_product`` of the vectors (LAPACK's gehrd/orghr)."""
    h, taus = hessenberg_p.bind_multi(asarray(a))
    return h, taus
