"""Arguments of traced functions as the tracer sees them: each leaf's abstract value (a Python
scalar is weak), the NumPy value a compiled program takes, copies of outputs that would alias a
caller's NumPy buffer, and :class:`ShapeDtypeStruct` (an abstract value users hold).

``api.py`` (``jit``, ``eval_shape``) and ``stages.py`` (``jit(f).lower(...).compile()``) both use
these; ``api`` re-exports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend.array import ArrayImpl, EArray, ExplicitArray
from trellax._src.config import settings as _config
from trellax._src.core.basearray import Array
from trellax._src.core.core import Placeholder, ShapedArray, Tracer, get_aval
from trellax._src.dtypes import dtypes
from trellax._src.lax._base import JAX_ARRAY_REFUSED, asarray
from trellax._src.tree.keys import keystr
from trellax._src.tree.tree_util import tree_flatten_with_path

_PY_KIND = {int: "i", float: "f", complex: "c"}


class ShapeDtypeStruct(Placeholder):
    """The abstract value of an array, as ``eval_shape`` returns it (and accepts it as input).

    >>> ShapeDtypeStruct((3,), "float32")
    ShapeDtypeStruct(shape=(3,), dtype=float32)
    """

    __slots__ = ("dtype", "shape", "sharding", "weak_type")

    def __init__(
        self, shape: Sequence[int], dtype: Any, weak_type: bool = False, *, sharding: Any = None
    ) -> None:
        if dtype is None:
            raise ValueError("ShapeDtypeStruct: dtype must be specified.")
        self.shape = tuple(int(s) for s in shape)
        # an extended dtype (typed keys, key<fry>) is kept as it is
        self.dtype = dtype if dtypes._extended_type(dtype) else dtypes._to_np_dtype(dtype)
        self.weak_type = bool(weak_type)
        self.sharding = sharding

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    @classmethod
    def like(cls, x: Any) -> ShapeDtypeStruct:
        """The shape, dtype and weak flag of an array or scalar."""
        d, weak = dtypes.dtype_and_weak_type(x)
        return cls(np.shape(x) if not hasattr(x, "shape") else x.shape, d, weak_type=weak)

    def update(self, **kwargs: Any) -> ShapeDtypeStruct:
        """A copy with some of ``shape``, ``dtype``, ``sharding``, ``weak_type`` replaced."""
        fields = {
            "shape": self.shape,
            "dtype": self.dtype,
            "sharding": self.sharding,
            "weak_type": self.weak_type,
        }
        unknown = set(kwargs) - set(fields)
        if unknown:
            raise TypeError(f"ShapeDtypeStruct.update got unexpected fields {sorted(unknown)}")
        fields.update(kwargs)
        return ShapeDtypeStruct(
            fields["shape"],
            fields["dtype"],
            sharding=fields["sharding"],
            weak_type=fields["weak_type"],
        )

    def __repr__(self) -> str:
        sharding = f", sharding={self.sharding!r}" if self.sharding is not None else ""
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{sharding}{weak})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShapeDtypeStruct) and (
            self.shape,
            self.dtype,
            self.weak_type,
            self.sharding,
        ) == (other.shape, other.dtype, other.weak_type, other.sharding)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type, self.sharding))


ShapeDtypeStruct.__module__ = "trellax"


# -- leaves to abstract values ---------------------------------------------------------------------


def _leaf_aval(leaf: Any, path: Callable[[], str], duck: bool = False) -> ShapedArray:
    """``leaf``'s abstract value; ``path()`` names the argument in errors (only computed then:
    it inspects the function's signature). With ``duck`` (functions that only trace, as
    ``eval_shape`` and ``make_jaxpr``), any object with ``shape`` and ``dtype`` stands for an
    array of that type, as in JAX."""
    t = type(leaf)
    if t is ArrayImpl:
        return ShapedArray._fast(leaf.shape, leaf.dtype, leaf.weak_type)
    if t is int or t is float or t is complex:
        st = _config.state()
        if t is int:
            lo, hi = dtypes.DEFAULT_INT_RANGE[st.x64]
            if not lo <= leaf <= hi:
                raise OverflowError(
                    "An overflow was encountered while parsing an argument to a jitted "
                    f"computation, whose argument path is {path()}. Got {t} with value {leaf}"
                )
        return ShapedArray._fast((), dtypes._DEFAULTS[st.x64][_PY_KIND[t]], True)
    if t is bool or isinstance(leaf, np.bool_):
        return ShapedArray._fast((), dtypes.bool_, False)
    if isinstance(leaf, (np.ndarray, np.generic)):
        if isinstance(leaf, np.ma.MaskedArray):
            raise ValueError(
                "numpy masked arrays are not supported as direct inputs to trellax (JAX) "
                "functions. Use arr.filled() to convert the value to a standard numpy array."
            )
        if leaf.dtype.kind == "V" and leaf.dtype.names == ("float0",):
            # a float0 array (a cotangent of an integer output): no data, only its shape
            return ShapedArray(tuple(np.shape(leaf)), leaf.dtype, False)
        try:
            d, _ = dtypes.dtype_and_weak_type(leaf)
        except TypeError:  # a dtype arrays cannot have (str, object...)
            raise _not_abstract(leaf, path) from None
        return ShapedArray._fast(tuple(np.shape(leaf)), d, False)
    if isinstance(leaf, ShapeDtypeStruct):
        return ShapedArray._fast(leaf.shape, leaf.dtype, leaf.weak_type)
    if type(leaf) is ExplicitArray:  # its sharding is part of its type
        return leaf.aval
    if isinstance(leaf, Tracer):  # with the sharding its type may carry
        return get_aval(leaf)
    if isinstance(leaf, Array):
        return ShapedArray._fast(tuple(leaf.shape), leaf.dtype, leaf.weak_type)
    if (plain := dtypes.python_scalar_value(leaf)) is not None:  # an IntEnum member...
        return _leaf_aval(plain, path)
    if hasattr(t, "__jax_array__"):  # JAX no longer converts such leaves when tracing
        raise ValueError(JAX_ARRAY_REFUSED)
    if duck and hasattr(leaf, "shape") and hasattr(leaf, "dtype"):
        d = dtypes.canonicalize_dtype(np.dtype(leaf.dtype))
        return ShapedArray(tuple(leaf.shape), d, bool(getattr(leaf, "weak_type", False)))
    raise _not_abstract(leaf, path)


def _not_abstract(leaf: Any, path: Callable[[], str]) -> TypeError:
    return TypeError(
        f"Error interpreting argument to a traced function as an abstract array. The "
        f"problematic value is of type {type(leaf)} and was passed to the function at path "
        f"{path()}. Arguments "
        "must be arrays, scalars or pytrees of them; mark other arguments static "
        "(static_argnums/static_argnames)."
    )


def _leaf_value(leaf: Any, aval: ShapedArray) -> Any:
    """A leaf as the NumPy value the compiled program takes."""
    if type(leaf) is ArrayImpl or type(leaf) is EArray or type(leaf) is ExplicitArray:
        # an EArray's physical buffer
        return leaf._value
    return np.asarray(leaf, dtype=aval.dtype if aval.dtype.kind != "V" else None).astype(
        aval.dtype, copy=False
    )


def _unalias(outs: tuple[Any, ...], leaves: list[Any], values: list[Any]) -> tuple[Any, ...]:
    """``outs`` with a copy of every output that shares memory with a caller's buffer.

    A compiled program returns views where NumPy does (``x``, ``x.T``, ``x[1:]``, a reshape, a
    same-dtype ``astype``), so an output can alias an argument. That is harmless for a trellax
    array (its buffer is immutable), but a NumPy argument stays the caller's to mutate: an output
    viewing it is copied, as JAX copies arguments to the device. Only those outputs pay.
    """
    foreign = [
        v
        for x, v in zip(leaves, values)
        if type(x) is not ArrayImpl and isinstance(x, np.ndarray) and np.may_share_memory(v, x)
    ]
    if not foreign:
        return outs
    return tuple(
        o.copy()
        if isinstance(o, np.ndarray) and any(np.may_share_memory(o, v) for v in foreign)
        else o
        for o in outs
    )


# -- results of traced functions -------------------------------------------------------------------


def check_traced_outputs(fun: Callable[..., Any], out: Any, leaves: Sequence[Any]) -> None:
    """Refuses a result leaf of a function traced for ``jit`` (or ``eval_shape``,
    ``make_jaxpr``) that is not an array, a scalar or a NumPy value of a supported dtype, with
    JAX's message naming the function, where it is defined and the leaf's place in the result."""
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, Array) or type(leaf) in (int, float, complex, bool):
            continue
        if isinstance(leaf, np.ndarray) and (leaf.dtype in dtypes._KIND or leaf.dtype.kind == "V"):
            continue  # a NumPy result (float0 and the narrow types included)
        try:
            asarray(leaf)
        except TypeError:
            pass
        else:
            continue
        code = getattr(fun, "__code__", None)
        where = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "<unknown>"
        path = tree_flatten_with_path(out)[0][i][0]
        at = f" at output component {keystr(path)}" if path else ""
        raise TypeError(
            f"function {getattr(fun, '__name__', 'fun')} at {where} traced for jit returned a "
            f"value of type {type(leaf)}{at}, which is not a valid JAX type"
        )


def placeholder_argument_error(
    names: Sequence[str], dyn_args: Sequence[Any], dyn_kwargs: dict[str, Any]
) -> TypeError | None:
    """JAX's error for a ``ShapeDtypeStruct`` passed to a ``jit``-wrapped function called
    outside any staging trace (it has no value to compute with), naming it by the parameter
    (``names``) and the path inside it (``a[1]``, ``b['z']``); ``None`` if there is none."""
    for path, leaf in tree_flatten_with_path((tuple(dyn_args), dyn_kwargs))[0]:
        if isinstance(leaf, ShapeDtypeStruct):
            where = path[1]
            pos = getattr(where, "idx", None)
            if path[0].idx == 0 and pos is not None:
                top = names[pos] if pos < len(names) else f"args[{pos}]"
            else:
                top = str(getattr(where, "key", where))
            shape = f"{np.dtype(leaf.dtype).name}[{','.join(map(str, leaf.shape))}]"
            return TypeError(
                f"Argument '{top}{keystr(path[2:])}' of shape {shape} of type "
                f"{type(leaf)} is not a valid JAX type."
            )
    return None
