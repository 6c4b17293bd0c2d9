"""The primitive core: abstract values, primitives, traces and ``bind``.

An operation in trellax is a :class:`Primitive` applied with :meth:`Primitive.bind`. ``bind`` hands
the primitive to the *current trace*. The bottom trace, :class:`EvalTrace`, evaluates eagerly: it
runs the primitive's abstract-evaluation rule (which checks operand dtypes and computes the result's
shape, dtype and weak flag) and then its impl rule (NumPy, in ``backend/numpy.py``). Tracing
transformations (``jit``, later ``grad`` and ``vmap``) install their own trace for the extent of a
function call, so the same ``bind`` records equations or computes tangents instead; nothing here
changes when they are added.

Rule signatures, fixed once:

* ``impl(*values: np.ndarray, **params) -> np.ndarray | tuple[np.ndarray, ...]``
* ``abstract_eval(*avals: AbstractValue, **params) -> ShapedArray | tuple[ShapedArray, ...]``
  where an abstract value is anything with ``shape``, ``dtype`` and ``weak_type`` (a
  :class:`ShapedArray`, a concrete array, or a tracer).

Arrays are positional arguments; parameters (axes, dtypes, shapes) are keyword arguments and must
be hashable, because they become parts of jaxpr equations and cache keys.

Transformation rules (registered with ``def_jvp`` / ``def_transpose`` / ``def_batch``):

* ``jvp(primals, tangents, **params) -> (primal_out, tangent_out)``: ``primals`` are values of
  the parent trace, ``tangents`` values of the tangent space or ``ad.Zero`` (symbolic zeros);
  see ``trellax._src.interpreters.ad`` for the helpers most rules are built from.
* ``transpose(ct, *args, **params) -> list of cotangents``, one per operand (``None`` for a
  zero cotangent or a non-linear operand); linear operands arrive as ``ad.UndefinedPrimal``.
* ``batch(args, dims, **params) -> (out, out_dim)`` (for ``vmap``).

Traces nest: every trace but the bottom :class:`EvalTrace` has a ``parent`` to which it hands
the underlying (primal) work, and :func:`using_trace` installs one for the extent of a call.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeAlias

import numpy as np

from trellax._src.core import errors
from trellax._src.core.basearray import Array
from trellax._src.core.devices import DEFAULT_SHARDING
from trellax._src.dtypes import dtypes
from trellax._src.dtypes.extended import ExtendedDType, physical_element

Shape: TypeAlias = tuple[int, ...]
DType: TypeAlias = np.dtype[Any]


class AbstractValue(Protocol):
    """What abstract evaluation needs of a value: its shape, dtype and weak flag."""

    @property
    def shape(self) -> Shape: ...
    @property
    def dtype(self) -> DType: ...
    @property
    def weak_type(self) -> bool: ...


_SHORT = {
    "bool": "bool",
    "bfloat16": "bf16",
    **{f"int{b}": f"i{b}" for b in (1, 2, 4, 8, 16, 32, 64)},
    **{f"uint{b}": f"u{b}" for b in (1, 2, 4, 8, 16, 32, 64)},
    **{f"float{b}": f"f{b}" for b in (16, 32, 64)},
    "complex64": "c64",
    "complex128": "c128",
}


def short_dtype_name(d: DType) -> str:
    """``f32`` for float32, ``bf16`` for bfloat16; other names unchanged."""
    name: str = d.name
    return _SHORT.get(name, name)


class ShapedArray:
    """The abstract value of an array: shape, dtype and weak flag, never data; under a mesh with
    Explicit axes also its sharding (a ``NamedSharding`` over the abstract mesh, JAX's
    "sharding in types": ``float32[2@X,4]``)."""

    __slots__ = ("_sharding", "dtype", "shape", "weak_type")
    shape: Shape
    dtype: DType
    weak_type: bool
    _sharding: Any

    def __init__(
        self, shape: Sequence[int], dtype: Any, weak_type: bool = False, sharding: Any = None
    ) -> None:
        self.shape = tuple(int(s) for s in shape)
        # an extended dtype (``dtypes/extended.py``) is kept as it is: it is no NumPy dtype
        self.dtype = dtype if isinstance(dtype, ExtendedDType) else np.dtype(dtype)  # type: ignore[assignment]
        self.weak_type = bool(weak_type)
        self._sharding = (
            sharding._abstract(len(self.shape))
            if sharding is not None and getattr(sharding, "_typed", False)
            else None
        )

    @classmethod
    def _fast(cls, shape: Shape, dtype: DType, weak_type: bool) -> ShapedArray:
        """Builds without validation (inside abstract-eval rules, where inputs are checked)."""
        a = object.__new__(cls)
        a.shape = shape
        a.dtype = dtype
        a.weak_type = weak_type
        a._sharding = None
        return a

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def update(
        self,
        shape: Shape | None = None,
        dtype: DType | None = None,
        weak_type: bool | None = None,
        sharding: Any = None,
    ) -> ShapedArray:
        out = ShapedArray._fast(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
        )
        # the sharding is kept while the shape is
        typed = (self._sharding if shape is None else None) if sharding is None else sharding
        if typed is not None and getattr(typed, "_typed", False):
            out._sharding = typed._abstract(len(out.shape))
        return out

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ShapedArray)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
            and self._sharding == other._sharding
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type, self._sharding))

    @property
    def sharding(self) -> Any:
        """The sharding in the type (a ``NamedSharding`` over the abstract mesh) for an array on
        a mesh with Explicit axes; else the one-device sharding (programs pass it on as
        ``out_sharding=``)."""
        typed = getattr(self, "_sharding", None)  # (a subclass may skip __init__)
        return DEFAULT_SHARDING if typed is None else typed

    def _dims(self) -> str:
        """``2@X,4``: each size, with the mesh axes its dimension is split over."""
        typed = typed_sharding(self)
        if typed is None:
            return ",".join(map(str, self.shape))
        spec = tuple(typed.spec) + (None,) * (len(self.shape) - len(typed.spec))
        return ",".join(f"{d}{axes_suffix(e)}" for d, e in zip(self.shape, spec))

    def str_short(self) -> str:
        """``f32[3]``, or ``~f32[3]`` when weak: the form jaxprs print."""
        return f"{'~' if self.weak_type else ''}{short_dtype_name(self.dtype)}[{self._dims()}]"

    def __str__(self) -> str:
        return f"{'~' if self.weak_type else ''}{self.dtype.name}[{self._dims()}]"

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        # JAX's: float32[2,8], no space
        return f"ShapedArray({self.dtype.name}[{self._dims()}]{weak})"


def typed_sharding(aval: Any) -> Any:
    """The sharding carried in ``aval``'s type (under a mesh with Explicit axes), else None."""
    return getattr(aval, "_sharding", None)


def axes_suffix(entry: Any) -> str:
    """``@X`` or ``@(X,Y)`` for a ``PartitionSpec`` entry naming mesh axes; ``""`` for None."""
    if entry is None or not isinstance(entry, str | tuple):
        return ""
    if isinstance(entry, tuple):
        return f"@({','.join(entry)})" if len(entry) > 1 else (f"@{entry[0]}" if entry else "")
    return f"@{entry}"


def physical_aval(aval: ShapedArray) -> ShapedArray:
    """The abstract value of the array that stores ``aval``: for a user-defined extended dtype,
    its physical element dtype, the element's storage shape appended; else ``aval`` itself."""
    d = aval.dtype
    if not isinstance(d, ExtendedDType) or getattr(d, "_rules", None) is None:
        return aval
    elem_shape, elem_dtype = physical_element(d)
    return ShapedArray((*aval.shape, *elem_shape), elem_dtype)


def get_aval(x: AbstractValue) -> ShapedArray:
    """The :class:`ShapedArray` of anything with shape, dtype and weak flag."""
    if type(x) is ShapedArray:
        return x
    if type(x) in typed_array_classes:  # a concrete array with a sharding in its type
        return x.aval  # type: ignore[attr-defined, no-any-return]
    a = ShapedArray._fast(tuple(x.shape), x.dtype, bool(x.weak_type))
    if isinstance(x, Tracer):  # a sharding in its type stays there (sub-jaxprs trace with it)
        a._sharding = getattr(x.aval, "_sharding", None)
    return a


#: classes of concrete arrays whose ``aval`` carries a sharding (``ExplicitArray``)
typed_array_classes: set[type] = set()


# -- primitives ---------------------------------------------------------------------------------

ImplRule: TypeAlias = Callable[..., Any]
AbstractEvalRule: TypeAlias = Callable[..., Any]


class Primitive:
    """A named operation with rules registered next to its definition.

    >>> neg_p = Primitive("neg")
    >>> _ = neg_p.def_impl(lambda x: -x)
    >>> _ = neg_p.def_abstract_eval(lambda x: get_aval(x))
    """

    __slots__ = (
        "abstract_eval_rule",
        "batch_rule",
        "elementwise",
        "elementwise_dtypes",
        "fusable",
        "impl",
        "impl_fp_free",
        "jvp_rule",
        "linearize_only",
        "multiple_results",
        "name",
        "transpose_rule",
    )

    def __init__(self, name: str, *, multiple_results: bool = False) -> None:
        self.name = name
        self.multiple_results = multiple_results
        self.impl: ImplRule | None = None
        #: the impl only moves or selects data, so NumPy's error state need not be switched
        self.impl_fp_free = False
        self.abstract_eval_rule: AbstractEvalRule | None = None
        # Slots for later transformations (autodiff and batching); None until registered.
        self.jvp_rule: Callable[..., Any] | None = None
        #: the JVP rule serves reverse mode only (``grad``, ``vjp``, ``linearize``); forward
        #: mode (``jvp``) reports the rule missing, as JAX does for a primitive that has a
        #: linearization rule and no JVP rule (``reduce_or``)
        self.linearize_only = False
        self.transpose_rule: Callable[..., Any] | None = None
        self.batch_rule: Callable[..., Any] | None = None
        # A memo {operand dtype: result dtype} for elementwise primitives whose rule is "operands
        # of one dtype; result dtype a function of it; weak iff all operands are weak" (set to a
        # dict by ``lax.naryop.naryop``; None for every other primitive). See eval_primitive.
        self.elementwise_dtypes: dict[DType, DType] | None = None
        #: acts elementwise on operands of equal rank (0-d operands and size-1 axes broadcast):
        #: its batch rule is ``lax.shapes.elementwise_rule`` (set with ``lax.shapes.def_elementwise``)
        self.elementwise = False
        #: an elementwise primitive whose impl the jit compiler may run chunk by chunk inside a
        #: fused region (``interpreters/fusion.py``)
        self.fusable = False
        _REGISTRY[name] = self

    def __repr__(self) -> str:
        return self.name

    def def_impl(self, rule: ImplRule, *, fp_free: bool = False) -> ImplRule:
        """Registers the NumPy impl; ``fp_free`` says it can never raise a NumPy floating-point
        error (it only moves or selects data), so it may run without switching the error state."""
        self.impl = rule
        self.impl_fp_free = fp_free
        return rule

    def def_abstract_eval(self, rule: AbstractEvalRule) -> AbstractEvalRule:
        self.abstract_eval_rule = rule
        return rule

    def def_jvp(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Registers ``rule(primals, tangents, **params) -> (primal_out, tangent_out)``."""
        self.jvp_rule = rule
        return rule

    def def_transpose(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Registers ``rule(ct, *args, **params) -> [ct_arg or None, ...]`` (linear only)."""
        self.transpose_rule = rule
        return rule

    def def_batch(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Registers ``rule(args, dims, **params) -> (out, out_dim)``."""
        self.batch_rule = rule
        return rule

    def abstract_eval(self, *avals: AbstractValue, **params: Any) -> Any:
        rule = self.abstract_eval_rule
        if rule is None:
            raise NotImplementedError(f"Abstract evaluation for '{self.name}' not implemented")
        return rule(*avals, **params)

    def bind(self, *args: Any, **params: Any) -> Array:
        """Applies the primitive to ``args`` in the current trace (one result)."""
        trace = _current_trace.get()
        if trace is eval_trace:  # eager: straight to the evaluation, one call less
            try:
                out: Array = eval_primitive(self, args, params)
            except AttributeError:
                # an array of an extended dtype (a key array: no buffer of its own) ...
                if EXTENDED_TYPES and any(isinstance(a, EXTENDED_TYPES) for a in args):
                    return extended_bind[0](self, args, params)  # type: ignore[no-any-return]
                # ... or an operand that is not an array (a NumPy value or Python scalar, as a
                # jaxpr interpreter written for JAX passes): evaluate on arrays of them
                if all(isinstance(a, Array) for a in args):
                    raise
                out = eval_primitive(self, [operand_array(a) for a in args], params)
            return out
        if EXTENDED_TYPES:  # a plain loop: this runs for every traced bind
            for a in args:
                if type(a) in EXTENDED_TYPES:
                    return extended_bind[0](self, args, params)  # type: ignore[no-any-return]
        try:
            out = trace.process_primitive(self, args, params)
        except AttributeError:
            if all(isinstance(a, Array) for a in args):
                raise
            out = trace.process_primitive(self, [operand_array(a) for a in args], params)
        return out

    def bind_multi(self, *args: Any, **params: Any) -> tuple[Array, ...]:
        """Applies a primitive with ``multiple_results`` (a tuple of results)."""
        trace = _current_trace.get()
        try:
            out: tuple[Array, ...] = trace.process_primitive(self, args, params)
        except AttributeError:  # an operand that is not an array: see bind
            if all(isinstance(a, Array) for a in args):
                raise
            out = trace.process_primitive(self, [operand_array(a) for a in args], params)
        return out


_REGISTRY: dict[str, Primitive] = {}

#: Array types of an extended dtype (typed key arrays) and the function that binds a primitive
#: on them (it rewrites the primitive to one on their key data): filled by the layer that
#: defines them (``random/key_primitives.py``).
EXTENDED_TYPES: tuple[type, ...] = ()


def _no_extended(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
    raise TypeError(f"{prim.name} does not accept arrays of extended dtypes")


extended_bind: list[Callable[[Primitive, Sequence[Any], dict[str, Any]], Any]] = [_no_extended]


def register_extended(types: tuple[type, ...], rule: Callable[..., Any]) -> None:
    """Makes ``bind`` hand primitives with an operand of one of ``types`` to ``rule``."""
    global EXTENDED_TYPES
    EXTENDED_TYPES = types
    extended_bind[0] = rule


# -- converting an array to a Python scalar: what the shape and dtype allow (JAX's errors) -----


def check_bool_size(shape: tuple[int, ...]) -> None:
    """``bool(x)`` needs exactly one element (any rank), as in NumPy and JAX."""
    n = math.prod(shape)
    if n == 0:
        raise ValueError(
            "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that "
            "an array is not empty."
        )
    if n > 1:
        raise ValueError(
            "The truth value of an array with more than one element is ambiguous. Use a.any() "
            f"or a.all() (an array of shape {shape})."
        )


def check_scalar_rank(shape: tuple[int, ...]) -> None:
    """``int``/``float``/``complex`` of an array need a 0-d array (even one element is refused)."""
    if shape:
        raise TypeError(
            f"Only scalar arrays can be converted to Python scalars; got arr.ndim={len(shape)} "
            f"(an array of shape {shape}). Use .item() on a size-1 array, or index it first."
        )


def check_index_operand(shape: tuple[int, ...], dtype: np.dtype[Any]) -> None:
    """``operator.index`` (and ``hex``, ``oct``, slicing) needs a 0-d integer array."""
    if shape or dtypes.kind(dtype) not in ("i", "u"):
        raise TypeError(
            "Only integer scalar arrays can be converted to a scalar index. (got an array of "
            f"shape {shape} and dtype {dtype.name})"
        )


def primitives() -> dict[str, Primitive]:
    """Every primitive defined so far, by name (the coverage test walks this)."""
    return dict(_REGISTRY)


# -- traces -------------------------------------------------------------------------------------


class Trace:
    """Where primitives go. Subclasses decide what applying a primitive means.

    ``parent`` is the trace this one hands its underlying work to (``None`` only for the
    evaluation trace); ``active`` turns False when the transformation that owns it returns, after
    which its tracers are leaked values.
    """

    parent: Trace | None = None
    active: bool = True

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        raise NotImplementedError

    def placeholder_tracer(self, x: Placeholder) -> Tracer:
        """A tracer standing for ``x`` (a type without data) in the staging trace below this
        one, which makes it a constant without a value; ``TypeError`` when nothing is staged."""
        if self.parent is None:
            raise TypeError(
                f"{type(x).__name__} {x!r} has no value: it stands for an array only while a "
                "function is traced (eval_shape, make_jaxpr, jit(...).trace())"
            )
        return self.parent.placeholder_tracer(x)


class EvalTrace(Trace):
    """The bottom of the stack: evaluate eagerly with NumPy (``trellax._src.backend.eager``)."""

    def __repr__(self) -> str:
        return "EvalTrace"

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        if type(prim) is not Primitive:  # a user's primitive (trellax.extend.core.Primitive)
            return prim.eval_eager(args, params)  # type: ignore[attr-defined]
        return eval_primitive(prim, args, params)


def _no_eval(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
    raise RuntimeError("trellax._src.backend.eager has not been imported")


#: Evaluates a primitive on concrete arrays: ``trellax._src.backend.eager.eval_primitive``, installed
#: when that module is imported (with ``trellax._src.backend.array``).
eval_primitive: Callable[[Primitive, Sequence[Any], dict[str, Any]], Any] = _no_eval

#: Called once, when the first array whose sharding is part of its type (a mesh with an Explicit
#: axis) is made: ``lax/sharding_rules.py`` then starts computing results' shardings.
typed_sharding_hooks: list[Callable[[], None]] = []


def _no_array_type(value: Any, dtype: DType, weak_type: bool) -> Any:
    raise RuntimeError("trellax._src.backend.array has not been imported")


#: Builds a concrete array from (NumPy value, dtype, weak_type); set by ``trellax._src.backend.array``
#: (layer 3), which the evaluation trace must not import.
new_array: Callable[[Any, DType, bool], Any] = _no_array_type


def _no_operand_array(x: Any) -> Any:
    raise RuntimeError("trellax._src.lax._base has not been imported")


#: Makes an array of a primitive's operand given as a NumPy value or Python scalar (weak, as in
#: ``lax``); set by ``trellax._src.lax._base`` to its ``asarray``.
operand_array: Callable[[Any], Any] = _no_operand_array

eval_trace = EvalTrace()
_current_trace: ContextVar[Trace] = ContextVar("trellax_current_trace", default=eval_trace)


def current_trace() -> Trace:
    return _current_trace.get()


def set_current_trace(trace: Trace) -> Any:
    """Installs ``trace``; returns a token for :func:`reset_current_trace`."""
    return _current_trace.set(trace)


def reset_current_trace(token: Any) -> None:
    _current_trace.reset(token)


@contextmanager
def using_trace(trace: Trace) -> Iterator[Trace]:
    """Installs ``trace`` as the current trace for the extent of a ``with`` block."""
    token = _current_trace.set(trace)
    try:
        yield trace
    finally:
        _current_trace.reset(token)


def eval_context() -> Any:
    """A ``with`` block in which operations compute eagerly, even inside a transformation
    (JAX's ``core.eval_context``): for constants a traced function computes for itself."""
    return using_trace(eval_trace)


# -- tracers --------------------------------------------------------------------------------------


class Placeholder:
    """A type without data (``ShapeDtypeStruct``): a staging trace (``make_jaxpr``,
    ``eval_shape``, ``jit(...).trace()``) takes one given to a ``jit``-wrapped function as a
    constant of its jaxpr that has no value, as JAX does; running such a jaxpr raises
    :func:`placeholder_error`."""

    __slots__ = ()


def placeholder_error(x: Placeholder) -> TypeError:
    return TypeError(
        f"A {type(x).__name__} does not have a value and cannot be used as a constant in a "
        "JAX function."
    )


class Tracer(Array):
    """An array that belongs to a trace: its abstract value, and whatever the trace keeps.

    Every transformation's tracer subclasses this. It is a ``trellax.Array``, so ``isinstance``
    and annotations work inside transformations, and its operators run the same
    ``trellax.numpy`` code as concrete arrays do. A tracer has no NumPy buffer: ``_value`` raises
    (reached when a tracer leaked out of its transformation into eager code). Python conversions
    (``bool``, ``int``) work when :meth:`to_concrete_value` knows the value (a JVP tracer of a
    concrete primal), as in JAX.
    """

    __slots__ = ("_trace", "aval")
    _trace: Trace
    aval: ShapedArray

    @property
    def dtype(self) -> DType:
        return self.aval.dtype

    @property
    def shape(self) -> Shape:
        return self.aval.shape

    @property
    def weak_type(self) -> bool:
        return self.aval.weak_type

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        return self.aval.size

    def __repr__(self) -> str:
        return f"Traced<{self.aval}>with<{type(self._trace).__name__}>"

    def __str__(self) -> str:
        return repr(self)

    def to_concrete_value(self) -> np.ndarray[Any, Any] | None:
        """The value, when this tracer's trace knows it without computing; else ``None``."""
        return None

    @property
    def sharding(self) -> Any:
        """Not available on a traced value (JAX's error): read its type's sharding."""
        raise AttributeError(
            "The 'sharding' attribute is not available on tracers; use "
            "trellax.typeof(x).sharding instead (one device: SingleDeviceSharding)."
        )

    # -- what a value without data cannot do ------------------------------------------------

    @property
    def _value(self) -> Any:
        raise errors.UnexpectedTracerError(self)

    def __bool__(self) -> bool:
        check_bool_size(self.aval.shape)
        v = self.to_concrete_value()
        if v is None:
            raise errors.TracerBoolConversionError(self)
        return bool(v)

    def __int__(self) -> int:
        check_scalar_rank(self.aval.shape)
        v = self.to_concrete_value()
        if v is None:
            raise errors.ConcretizationTypeError(self, "int()")  # JAX's error for int()
        return int(v)

    def __index__(self) -> int:
        check_index_operand(self.aval.shape, self.aval.dtype)
        v = self.to_concrete_value()
        if v is None or v.dtype.kind not in "biu":
            raise errors.TracerIntegerConversionError(self)
        return int(v)

    def __float__(self) -> float:
        check_scalar_rank(self.aval.shape)
        raise errors.ConcretizationTypeError(self, "float()")

    def __complex__(self) -> complex:
        check_scalar_rank(self.aval.shape)
        raise errors.ConcretizationTypeError(self, "complex()")

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        if not self._trace.active:  # a tracer that outlived its transformation
            raise errors.UnexpectedTracerError(self)
        raise errors.TracerArrayConversionError(self)

    def item(self, *args: Any) -> Any:
        raise errors.ConcretizationTypeError(self, ".item()")

    def tolist(self) -> Any:
        raise errors.ConcretizationTypeError(self._method_needs_values("tolist"))

    def tobytes(self, order: str = "C") -> bytes:
        raise errors.ConcretizationTypeError(self._method_needs_values("tobytes"))

    def _method_needs_values(self, method: str) -> str:
        return (
            f"The {method}() method was called on {errors._array_with_shape(self)}. Inside jit, "
            "arrays have a shape and dtype but no values; call it outside the traced function."
        )

    @property
    def itemsize(self) -> int:
        return int(np.dtype(self.aval.dtype).itemsize)

    @property
    def nbytes(self) -> int:
        return int(np.dtype(self.aval.dtype).itemsize) * math.prod(self.aval.shape)

    def __len__(self) -> int:
        if not self.aval.shape:
            raise TypeError("len() of unsized object (a 0-d array)")
        return self.aval.shape[0]

    def __setitem__(self, index: Any, value: Any) -> None:
        raise TypeError(
            "trellax arrays are immutable and do not support item assignment; use "
            "x = x.at[idx].set(y) instead of x[idx] = y"
        )

    # Arrays are immutable, so a copy may be the same value (as for concrete arrays); a tracer
    # cannot be serialized: it stands for a value that does not exist yet.
    def __copy__(self) -> Tracer:
        return self

    def __deepcopy__(self, memo: Any) -> Tracer:
        return self

    def __reduce__(self) -> Any:
        raise errors.ConcretizationTypeError(
            self, "__reduce__ (an attempt to pickle or serialize a traced value)"
        )


def is_concrete(x: Any) -> bool:
    """True for a value with data now (a concrete array, NumPy value or Python scalar); False for
    a tracer of any transformation."""
    return not isinstance(x, Tracer)


def to_concrete_value(x: Any) -> Any:
    """The NumPy value of ``x`` when it is known now (concrete, or a tracer that knows its
    value), else ``None``."""
    if isinstance(x, Tracer):
        return x.to_concrete_value()
    value = getattr(x, "_value", None)  # a concrete trellax array's buffer
    return value if value is not None else np.asarray(x)


# -- shared helpers for abstract-eval rules ----------------------------------------------------


def broadcast_shapes(*shapes: Shape) -> Shape:
    """NumPy broadcasting of shapes, with an error that names all of them."""
    if len(shapes) == 2:
        a, b = shapes
        if a == b or not b:
            return tuple(a)
        if not a:
            return tuple(b)
        if len(a) == len(b):
            out = []
            for da, db in zip(a, b):
                if da == db or db == 1:
                    out.append(da)
                elif da == 1:
                    out.append(db)
                else:
                    break
            else:
                return tuple(out)
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(
            "Incompatible shapes for broadcasting: shapes=["
            + ", ".join(str(tuple(s)) for s in shapes)
            + "]"
        ) from None


def short_str(x: Any) -> str:
    """How a tracer's repr shows a value it holds: a tracer by its repr, an array as ``str``
    (``1.0``), as JAX's tracer reprs do."""
    return repr(x) if isinstance(x, Tracer) else str(x)
