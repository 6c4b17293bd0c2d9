"""The one place where ``trellax.numpy`` promotes: ``promote_args`` and its variants.

Every promoting function passes its array arguments through one of these. They compute
``(dtype, weak_type)`` of the join on the promotion lattice (``dtypes.lattice_result_type``; strict
mode raises there), convert every operand to it — Python scalars become arrays of the promoted
dtype, arrays are cast with ``convert_element_type`` (visible in jaxprs) — and then give the
operands equal ranks (:func:`promote_shapes`), because ``trellax.lax`` broadcasts only size-1 axes
and 0-d operands, as JAX does.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np

from trellax._src.backend import eager
from trellax._src.backend.eager import ConcreteArray
from trellax._src.config import settings as _config
from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.dtypes import dtypes
from trellax._src.lax._base import JAX_ARRAY_REFUSED, asarray, scalar_to_array
from trellax._src.lax.structural import _convert, broadcast_in_dim
from trellax._src.tree import registry as _tree_registry

DType = np.dtype[Any]
_PY_SCALARS = (int, float, complex)
_PY_KIND = {int: "i", float: "f", complex: "c"}


def check_arraylike(fun_name: str, *args: Any) -> None:
    """Refuses lists, tuples, strings and other non-arrays with JAX's message."""
    for i, a in enumerate(args):
        if not _is_arraylike(a):
            raise TypeError(
                f"{fun_name} requires ndarray or scalar arguments, got {type(a)} at position {i}."
            )


def _is_arraylike(a: Any) -> bool:
    t = type(a)
    return (
        t is ConcreteArray
        or t in _PY_SCALARS
        or t is bool
        or isinstance(a, (Array, np.ndarray, np.generic))
        or dtypes.python_scalar_value(a) is not None
        or hasattr(t, "__jax_array__")
    )


def jax_array_operand(a: Any) -> Any:
    """The array an operand with a ``__jax_array__`` method stands for.

    As in JAX, a function that promotes its operands calls ``__jax_array__`` only on an object
    whose type is a registered pytree node (JAX's jitted functions flatten such an object and
    convert it inside the trace); any other such object raises JAX's ``ValueError``. Explicit
    conversions (``asarray``, ``array``, ``stack``...) accept any such object.
    """
    if _tree_registry.classify(type(a)) is None:
        raise ValueError(JAX_ARRAY_REFUSED)
    return a.__jax_array__()


def abstract(fun_name: str, i: int, a: Any) -> tuple[DType, bool]:
    """(dtype, weak_type) of one argument, or the TypeError for non-arrays."""
    t = type(a)
    if t is ConcreteArray:
        return a.dtype, a.weak_type
    if t is int or t is float or t is complex:
        return dtypes._DEFAULTS[_config.state().x64][_PY_KIND[t]], True
    if t is bool:
        return dtypes.bool_, False
    if isinstance(a, (Array, np.ndarray, np.generic)):
        return dtypes.dtype_and_weak_type(a)
    if (plain := dtypes.python_scalar_value(a)) is not None:  # an IntEnum member...
        return abstract(fun_name, i, plain)
    if hasattr(t, "__jax_array__"):
        return abstract(fun_name, i, jax_array_operand(a))
    raise TypeError(
        f"{fun_name} requires ndarray or scalar arguments, got {type(a)} at position {i}."
    )


def convert(fun_name: str, a: Any, dtype: DType, weak_type: bool) -> Array:
    """One operand of ``fun_name`` as an array of ``(dtype, weak_type)``: an implicit promotion
    when it casts an array."""
    t = type(a)
    if t is int or t is float or t is complex:
        return scalar_to_array(a, dtype, weak_type)
    if t is not ConcreteArray and not isinstance(a, Array):
        a = asarray(jax_array_operand(a) if hasattr(t, "__jax_array__") else a)
    if a.dtype == dtype and a.weak_type == weak_type:
        same: Array = a
        return same
    return promote_to(fun_name, a, dtype, weak_type)


def promote_to(fun_name: str, x: Array, dtype: DType, weak_type: bool = False) -> Array:
    """``x`` cast to ``(dtype, weak_type)`` as an *implicit* promotion made by ``fun_name``.

    Under a trace the cast's equation records ``fun_name`` as its provenance, which is how
    ``explain_promotions`` tells the casts a function chose (``mean(int8)`` -> float32) from the
    ones a user asked for (``asarray(x, dtype=...)``, ``x.astype(...)``), which go through
    ``lax.convert_element_type`` directly and are never marked. Eagerly this costs nothing.
    """
    out = _convert(x, dtype, weak_type)
    mark_promotion(fun_name, x, out)
    return out


def mark_promotion(fun_name: str, x: Array, out: Array) -> None:
    """Records ``fun_name`` as the provenance of the cast that just made ``out`` from ``x``
    (under a trace; eagerly, and when nothing was cast, it does nothing)."""
    if out is not x and type(out) is not ConcreteArray:
        eqns = getattr(core.current_trace(), "eqns", None)
        if eqns and eqns[-1].primitive.name == "convert_element_type":
            eqns[-1].api = fun_name


def promote_shapes(args: list[Array], fun_name: str | None = None) -> list[Array]:
    """Gives array operands of different ranks equal ranks by adding leading axes of size 1
    (``broadcast_in_dim``), as NumPy's broadcasting would align them. 0-d operands stay 0-d: lax
    broadcasts them. With ``fun_name`` (elementwise functions) the ``numpy_rank_promotion``
    flag may warn about or refuse the rank change."""
    rank = 0
    uneven = False
    for a in args:
        n = len(a.shape)
        if n:
            if rank and n != rank:
                uneven = True
            if n > rank:
                rank = n
    if not uneven:
        return args
    if fun_name is not None:
        _check_rank_promotion(fun_name, args)
    _check_broadcastable(args, rank)
    return [_to_rank(a, rank) for a in args]


_RANK_DOC = "https://docs.jax.dev/en/latest/rank_promotion_warning.html"
#: Functions that JAX broadcasts explicitly, so the rank-promotion flag never stops them.
_BROADCAST_EXPLICITLY = frozenset({"where", "heaviside"})


def _check_rank_promotion(fun_name: str, args: list[Array]) -> None:
    """JAX's ``jax_numpy_rank_promotion`` check, with its texts."""
    mode = _config.state().rank_promotion
    if mode == "allow" or fun_name in _BROADCAST_EXPLICITLY:
        return
    shapes = " ".join(str(tuple(a.shape)) for a in args)
    if mode == "raise":
        raise ValueError(
            f"Operands could not be broadcast together for {fun_name} on shapes {shapes} and "
            "with the config option jax_numpy_rank_promotion='raise'. For more information, "
            f"see {_RANK_DOC}."
        )
    warnings.warn(
        f"Following NumPy automatic rank promotion for {fun_name} on shapes {shapes}. Set the "
        "jax_numpy_rank_promotion config option to 'allow' to disable this warning; for more "
        f"information, see {_RANK_DOC}.",
        stacklevel=_user_stacklevel(),
    )


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the innermost frame outside trellax (the user's line)."""
    package = __file__.rsplit("/_src/", 1)[0]
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


def _check_broadcastable(args: list[Array], rank: int) -> None:
    """JAX's rank promotion refuses shapes that cannot broadcast with a ``ValueError`` (operands
    of equal ranks reach lax, whose error is a ``TypeError``)."""
    for i in range(1, rank + 1):
        sizes = {a.shape[-i] for a in args if len(a.shape) >= i} - {1}
        if len(sizes) > 1:
            shapes = [tuple(a.shape) for a in args]
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}")


def _to_rank(a: Array, rank: int) -> Array:
    n = len(a.shape)
    if n == 0 or n == rank:
        return a
    lead = rank - n
    shape = (1,) * lead + tuple(a.shape)
    if type(a) is ConcreteArray:  # eagerly a view of the immutable buffer (as basic indexing is)
        return eager.reshape_view(a, shape)
    return broadcast_in_dim(a, shape, tuple(range(lead, rank)))


def promote_dtypes(fun_name: str, *args: Any) -> tuple[DType, bool]:
    """The promoted ``(dtype, weak_type)`` of the arguments (the lattice join), canonicalized:
    with x64 off, a 64-bit array made while x64 was on computes in 32 bits when it meets another
    type (as in JAX: ``a64 + a64`` and ``a64 @ a64`` stay 64-bit, ``a64 * 2`` is 32-bit)."""
    avals = [abstract(fun_name, i, a) for i, a in enumerate(args)]
    dtype, weak = dtypes.lattice_result_type(*avals)
    if (
        dtype in _WIDE
        and not _config.keeps_x64(_config.state())
        and any(d != dtype for d, _ in avals)
    ):
        dtype = dtypes.canonicalize_dtype(dtype)
    return dtype, weak


_WIDE = frozenset([dtypes.int64, dtypes.uint64, dtypes.float64, dtypes.complex128])


_SCALAR_JOIN: dict[_config.State, dict[tuple[Any, ...], tuple[DType, bool]]] = {}


def promote_args(fun_name: str, *args: Any) -> list[Array]:
    """Converts every argument to the join of their abstract types.

    A single array is returned unchanged (JAX's ``promote_dtypes``), tracers included, so a weak
    bool or a non-canonical weak type keeps its flag under ``jit`` exactly as it does eagerly.
    """
    if len(args) == 1 and isinstance(args[0], Array):
        return [args[0]]
    if len(args) == 2:
        x, y = args
        tx, ty = type(x), type(y)
        if tx is ConcreteArray:
            if ty is ConcreteArray:
                # equal abstract types join to themselves, except two weak bools: their join is
                # a strong bool (the lattice has no weak bool), left to the general path
                if (
                    x.dtype == y.dtype
                    and x.weak_type == y.weak_type
                    and (not x.weak_type or x.dtype is not dtypes.bool_)
                ):
                    if x.shape == y.shape:
                        return [x, y]
                    return promote_shapes([x, y], fun_name)
            elif ty is int or ty is float or ty is complex:
                dtype, weak = _join_scalar(x, ty)
                return [convert(fun_name, x, dtype, weak), scalar_to_array(y, dtype, weak)]
        elif ty is ConcreteArray and (tx is int or tx is float or tx is complex):
            dtype, weak = _join_scalar(y, tx)
            return [scalar_to_array(x, dtype, weak), convert(fun_name, y, dtype, weak)]
    dtype, weak = promote_dtypes(fun_name, *args)
    return promote_shapes([convert(fun_name, a, dtype, weak) for a in args], fun_name)


def promote_args_keep_shapes(fun_name: str, *args: Any) -> list[Array]:
    """:func:`promote_args` without the rank change, for functions that are not elementwise
    (``matmul``, ``concatenate``, set operations...): only dtypes are promoted."""
    dtype, weak = promote_dtypes(fun_name, *args)
    return [convert(fun_name, a, dtype, weak) for a in args]


def _join_scalar(x: Any, scalar_type: type) -> tuple[DType, bool]:
    """The join of an array's abstract type and a Python scalar type (cached per config)."""
    st = _config._local_state.get() or _config._global_state[0]  # config.state(), inlined
    try:
        return _SCALAR_JOIN[st][x.dtype, x.weak_type, scalar_type]
    except KeyError:
        pass
    out = dtypes.lattice_result_type(
        (x.dtype, x.weak_type), (dtypes._DEFAULTS[st.x64][_PY_KIND[scalar_type]], True)
    )
    if out[0] in _WIDE and not _config.keeps_x64(st):
        out = (dtypes.canonicalize_dtype(out[0]), out[1])
    _SCALAR_JOIN.setdefault(st, {})[x.dtype, x.weak_type, scalar_type] = out
    return out


def to_numeric_dtype(d: DType) -> DType:
    """bool becomes int32 (always int32, even with x64 on, as in JAX)."""
    return dtypes.int32 if d == dtypes.bool_ else d


_TO_INEXACT: dict[DType, DType] = {
    dtypes.bool_: dtypes.float32,
    dtypes.int8: dtypes.float32,
    dtypes.uint8: dtypes.float32,
    dtypes.int16: dtypes.float32,
    dtypes.uint16: dtypes.float32,
    dtypes.int32: dtypes.float32,
    dtypes.uint32: dtypes.float32,
    dtypes.int64: dtypes.float64,
    dtypes.uint64: dtypes.float64,
    **{d: dtypes.float32 for n, d in dtypes.LOW_INTS.items() if n in ("int4", "uint4")},
}


def to_inexact_dtype(d: DType) -> DType:
    """JAX's int -> float map, independent of x64: <=32-bit ints give float32, 64-bit float64.

    int1/int2/uint1/uint2 are not in the map (they stay integers, and inexact functions refuse
    them), as in JAX.
    """
    return _TO_INEXACT.get(d, d)


def promote_args_numeric(fun_name: str, *args: Any) -> list[Array]:
    dtype, weak = promote_dtypes(fun_name, *args)
    return promote_shapes(
        [convert(fun_name, a, to_numeric_dtype(dtype), weak) for a in args], fun_name
    )


def promote_args_inexact(fun_name: str, *args: Any) -> list[Array]:
    if len(args) == 1 and type(args[0]) is ConcreteArray:
        x = args[0]
        target = _TO_INEXACT.get(x.dtype, x.dtype)
        if target is x.dtype:
            return [x]
        # a weak bool (a comparison of weak values) promotes as a strong bool: float32, strong
        return [convert(fun_name, x, target, x.weak_type and x.dtype != dtypes.bool_)]
    return _promote_args_inexact(fun_name, *args)


def promote_args_inexact_keep_shapes(fun_name: str, *args: Any) -> list[Array]:
    """:func:`promote_args_inexact` without the rank change (for non-elementwise functions)."""
    dtype, weak = promote_dtypes(fun_name, *args)
    return [convert(fun_name, a, to_inexact_dtype(dtype), weak) for a in args]


def _promote_args_inexact(fun_name: str, *args: Any) -> list[Array]:
    """Promotes, then maps integers and bool to floats (``sqrt(int8)`` is float32).

    The weak flag is kept: ``sqrt(2)`` is a weak float32 (float64 with x64 on, since the weak int
    is then int64).
    """
    dtype, weak = promote_dtypes(fun_name, *args)
    target = to_inexact_dtype(dtype)  # int2 & co. stay integers: the primitive refuses them
    return promote_shapes([convert(fun_name, a, target, weak) for a in args], fun_name)


def promote_args_complex(fun_name: str, *args: Any) -> list[Array]:
    dtype, weak = promote_dtypes(fun_name, *args)
    inexact = to_inexact_dtype(dtype)
    target = (
        dtypes.complex128 if inexact in (dtypes.float64, dtypes.complex128) else dtypes.complex64
    )
    return promote_shapes([convert(fun_name, a, target, weak) for a in args], fun_name)


def ensure_array(fun_name: str, x: Any) -> Array:
    """A single array argument (Python scalars stay weak, NumPy values strong)."""
    if type(x) is ConcreteArray:
        return x
    abstract(fun_name, 0, x)
    if hasattr(type(x), "__jax_array__") and not isinstance(x, Array):
        x = jax_array_operand(x)
    return asarray(x)


def canonical_operand(fun_name: str, x: Array) -> Array:
    """``x``, or, with x64 off, a 64-bit ``x`` (made while x64 was on, or unpickled) cast to
    32 bits: reductions compute in canonical dtypes, as in JAX."""
    if x.dtype in _WIDE and not _config.keeps_x64(_config.state()):
        return promote_to(fun_name, x, dtypes.canonicalize_dtype(x.dtype), x.weak_type)
    return x
