"""Primitives defined by users, and the rule tables JAX exposes for them.

JAX lets a program define its own primitive (``jax.extend.core.Primitive``) and give it rules by
assigning into tables (``jax.interpreters.ad.primitive_jvps[p] = rule``,
``batching.primitive_batchers[p] = rule``, ``ad.primitive_transposes[p] = rule``) or with helpers
(``ad.defjvp``, ``ad.deflinear2``, ``batching.defvectorized``, ...). This module is trellax's
counterpart; ``trellax.extend.core`` and ``trellax.interpreters`` re-export it.

A user primitive differs from trellax's own in what its rules see, as in JAX:

- eagerly, ``bind`` calls the user's impl with the arguments as given (Python scalars, NumPy or
  trellax arrays) and returns what it returns, untouched;
- under a trace, the arguments become arrays, and the abstract-evaluation rule sees
  :class:`~trellax._src.core.core.ShapedArray` values and must return one (a sequence of them for
  ``multiple_results``);
- inside a compiled (``jit``) program, where JAX would run the primitive's MLIR lowering, trellax
  runs its impl on NumPy values and casts the result to the abstract rule's dtype; a lowering given
  as ``mlir.lower_fun(fun)`` is run instead of a missing impl. A lowering written in MLIR is
  recorded and never run (trellax has no compiler), so a primitive with only that raises.

The rules a user registers have JAX's signatures, which are trellax's too; their results may be
NumPy values or Python scalars, which become arrays here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping, Sequence
from typing import Any

import numpy as np

from trellax._src.core import core
from trellax._src.core.basearray import Array
from trellax._src.core.core import ShapedArray
from trellax._src.interpreters import batching
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import UndefinedPrimal, Zero, add_any_p, instantiate, zeros
from trellax._src.lax.shapes import bdim_at_front as _bdim_at_front
from trellax._src.lax.shapes import moveaxis as _moveaxis
from trellax._src.lax.structural import broadcast_in_dim


def _as_array(x: Any) -> Any:
    """A rule's result as an array (tracers, arrays and symbolic zeros pass through)."""
    if isinstance(x, (Array, Zero)) or x is None:
        return x
    return asarray(x)


def _aval_of(x: Any) -> ShapedArray:
    aval = core.get_aval(x)
    return ShapedArray(aval.shape, aval.dtype, aval.weak_type)


def _check_aval(name: str, out: Any) -> ShapedArray:
    if not (hasattr(out, "shape") and hasattr(out, "dtype")):
        raise TypeError(
            f"the abstract evaluation rule of primitive {name!r} must return a ShapedArray "
            f"(shape and dtype), got {out!r}"
        )
    return ShapedArray(out.shape, out.dtype, bool(getattr(out, "weak_type", False)))


def _signature(avals: Sequence[ShapedArray], params: dict[str, Any]) -> Any:
    """A hashable key of operand shapes, dtypes and parameters (None if a parameter is not
    hashable)."""
    key = (tuple((a.shape, a.dtype) for a in avals), tuple(sorted(params.items())))
    try:
        hash(key)
    except TypeError:
        return None
    return key


class LoweredFun:
    """What ``mlir.lower_fun(fun)`` gives: a lowering that is a trellax function of the operands
    (trellax runs ``fun`` where JAX would trace it into MLIR)."""

    __slots__ = ("fun", "multiple_results")

    def __init__(self, fun: Callable[..., Any], multiple_results: bool) -> None:
        self.fun = fun
        self.multiple_results = multiple_results

    def __repr__(self) -> str:
        return f"lower_fun({getattr(self.fun, '__name__', self.fun)!r})"


class Primitive(core.Primitive):
    """A primitive defined by a program (JAX's ``jax.extend.core.Primitive``).

    >>> import numpy as np, trellax
    >>> twice_p = Primitive("twice")
    >>> _ = twice_p.def_impl(lambda x: np.multiply(x, 2))
    >>> _ = twice_p.def_abstract_eval(lambda x: ShapedArray(x.shape, x.dtype))
    >>> trellax.jit(lambda x: twice_p.bind(x))(3.0)
    Array(6., dtype=float32)
    """

    __slots__ = ("_avals", "lowerings", "user_abstract_eval", "user_impl")

    def __init__(self, name: str) -> None:
        # the registry of trellax's own primitives (core.primitives()) is not told: a user's name
        # may be one of them
        self.name = name
        self.multiple_results = False
        self.impl: Any = self._program_impl
        self.impl_fp_free = False
        self.abstract_eval_rule: Any = self._abstract_eval
        self.jvp_rule = None
        self.transpose_rule = None
        self.batch_rule = None
        self.elementwise_dtypes = None
        self.elementwise = False
        self.fusable = False
        self.user_impl: Callable[..., Any] | None = None
        self.user_abstract_eval: Callable[..., Any] | None = None
        #: platform (None: every platform) -> the lowering registered with mlir.register_lowering
        self.lowerings: dict[str | None, Any] = {}
        #: (operand shapes and dtypes, parameters) -> the abstract rule's answer at trace time,
        #: so that a compiled program need not ask the rule again (JAX asks it only when tracing)
        self._avals: dict[Any, Any] = {}

    def def_impl(self, rule: Any, *, fp_free: bool = False) -> Any:
        """Registers the eager implementation (called with the arguments as given)."""
        self.user_impl = rule
        return rule

    def def_abstract_eval(self, rule: Any) -> Any:
        """Registers ``rule(*avals, **params) -> ShapedArray`` (a sequence of them for
        ``multiple_results``)."""
        self.user_abstract_eval = rule
        return rule

    def def_effectful_abstract_eval(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        """Registers ``rule(*avals, **params) -> (avals, effects)``; trellax records no effects
        (its programs run in order), so only the avals are used."""
        self.user_abstract_eval = lambda *avals, **params: rule(*avals, **params)[0]
        return rule

    # -- what trellax's machinery calls ----------------------------------------------------------

    def _lowered(self) -> LoweredFun | None:
        for low in self.lowerings.values():
            if isinstance(low, LoweredFun):
                return low
        return None

    def _eager(self, args: Sequence[Any], params: dict[str, Any]) -> Any:
        if self.user_impl is not None:
            return self.user_impl(*args, **params)
        lowered = self._lowered()
        if lowered is not None:
            return lowered.fun(*args, **params)
        raise NotImplementedError(f"Evaluation rule for '{self.name}' not implemented")

    def _abstract_eval(self, *args: Any, **params: Any) -> Any:
        rule = self.user_abstract_eval
        if rule is None:
            raise NotImplementedError(f"Abstract evaluation for '{self.name}' not implemented")
        avals = [_aval_of(a) for a in args]
        out = rule(*avals, **params)
        if self.multiple_results:
            result: Any = tuple(_check_aval(self.name, o) for o in out)
        else:
            result = _check_aval(self.name, out)
        key = _signature(avals, params)
        if key is not None:
            self._avals[key] = result
        return result

    def _program_impl(self, *values: Any, **params: Any) -> Any:
        """The primitive inside a compiled program: NumPy values in and out."""
        if not self.lowerings:
            raise NotImplementedError(
                f"MLIR translation rule for primitive '{self.name}' not found for platform cpu "
                "(as in JAX, a primitive needs a lowering to run inside jit: register one with "
                "trellax.interpreters.mlir.register_lowering; trellax runs the impl, or the "
                "function given to mlir.lower_fun, in its place)"
            )
        if self.user_impl is None and self._lowered() is None:
            raise NotImplementedError(
                f"primitive '{self.name}' has only an MLIR lowering, which trellax cannot run "
                "(it has no compiler): give it an impl with def_impl, or register "
                "mlir.lower_fun(fun) as its lowering"
            )
        operands = [ShapedArray(np.shape(v), np.result_type(v)) for v in values]
        key = _signature(operands, params)
        avals = self._avals.get(key) if key is not None else None
        if avals is None:
            avals = self._abstract_eval(*operands, **params)
        out = self._eager(values, params)
        if self.multiple_results:
            return tuple(np.asarray(o, dtype=a.dtype) for o, a in zip(out, avals))
        return np.asarray(out, dtype=avals.dtype)

    def bind(self, *args: Any, **params: Any) -> Any:
        """Applies the primitive: its impl eagerly, else the current trace's rules."""
        trace = core.current_trace()
        if isinstance(trace, core.EvalTrace):
            return self._eager(args, params)
        out = trace.process_primitive(self, [_as_array(a) for a in args], params)
        return list(out) if self.multiple_results else out

    def bind_multi(self, *args: Any, **params: Any) -> Any:
        return tuple(self.bind(*args, **params))

    def eval_eager(self, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """The evaluation trace's answer (used when a transformation hands the primitive down):
        the impl's results as arrays."""
        out = self._eager(args, params)
        if self.multiple_results:
            return tuple(_as_array(o) for o in out)
        return _as_array(out)


# -- rule tables ---------------------------------------------------------------------------------


def _jvp_adapter(rule: Callable[..., Any], multiple: Callable[[], bool]) -> Callable[..., Any]:
    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> Any:
        p_out, t_out = rule(tuple(primals), tuple(tangents), **params)
        if multiple():
            return [_as_array(p) for p in p_out], [_as_array(t) for t in t_out]
        return _as_array(p_out), _as_array(t_out)

    jvp.user_rule = rule  # type: ignore[attr-defined]
    return jvp


def _transpose_adapter(rule: Callable[..., Any]) -> Callable[..., Any]:
    def transpose(ct: Any, *args: Any, **params: Any) -> list[Any]:
        cts = rule(ct, *args, **params)
        return [None if type(c) is Zero else _as_array(c) for c in cts]

    transpose.user_rule = rule  # type: ignore[attr-defined]
    return transpose


def _batch_adapter(rule: Callable[..., Any], multiple: Callable[[], bool]) -> Callable[..., Any]:
    def batch(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> Any:
        out, out_dim = rule(tuple(args), tuple(dims), **params)
        if multiple():
            return [_as_array(o) for o in out], out_dim
        return _as_array(out), out_dim

    batch.user_rule = rule  # type: ignore[attr-defined]
    return batch


class RuleTable(MutableMapping[core.Primitive, Callable[..., Any]]):
    """A view of one rule slot of every primitive (``ad.primitive_jvps`` and its siblings):
    assigning registers the rule (results adapted as this module's docstring says), reading gives
    the rule as it was registered."""

    def __init__(self, slot: str, adapt: Callable[[Callable[..., Any], core.Primitive], Any]):
        self._slot = slot
        self._adapt = adapt
        self._known: dict[core.Primitive, None] = {}

    def __getitem__(self, prim: core.Primitive) -> Callable[..., Any]:
        rule = getattr(prim, self._slot)
        if rule is None:
            raise KeyError(prim)
        return getattr(rule, "user_rule", rule)  # type: ignore[no-any-return]

    def __setitem__(self, prim: core.Primitive, rule: Callable[..., Any]) -> None:
        if not isinstance(prim, core.Primitive):
            raise TypeError(f"rules are registered for primitives, got {type(prim).__name__}")
        setattr(prim, self._slot, self._adapt(rule, prim))
        self._known[prim] = None

    def __delitem__(self, prim: core.Primitive) -> None:
        if getattr(prim, self._slot) is None:
            raise KeyError(prim)
        setattr(prim, self._slot, None)
        self._known.pop(prim, None)

    def _all(self) -> list[core.Primitive]:
        prims = [*core.primitives().values(), *self._known]
        return [p for p in dict.fromkeys(prims) if getattr(p, self._slot) is not None]

    def __iter__(self) -> Iterator[core.Primitive]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __contains__(self, prim: object) -> bool:
        return isinstance(prim, core.Primitive) and getattr(prim, self._slot) is not None


primitive_jvps = RuleTable(
    "jvp_rule", lambda rule, p: _jvp_adapter(rule, lambda: p.multiple_results)
)
primitive_transposes = RuleTable("transpose_rule", lambda rule, p: _transpose_adapter(rule))
primitive_batchers = RuleTable(
    "batch_rule", lambda rule, p: _batch_adapter(rule, lambda: p.multiple_results)
)


def _with_axis(rule: Callable[..., Any], axis_first: bool) -> Callable[..., Any]:
    """A rule that is also told the batch axis: ``rule(axis_data, args, dims, **params)``
    (``fancy_primitive_batchers``) or ``rule(size, name, None, args, dims, **params)``
    (``axis_primitive_batchers``), as the ``primitive_batchers`` signature."""

    def with_axis(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> Any:
        axis = batching.current_axis()
        if axis_first:
            return rule(axis, list(args), list(dims), **params)
        return rule(axis.size, axis.name, None, list(args), list(dims), **params)

    return with_axis


def _fancy_adapter(rule: Callable[..., Any], p: core.Primitive) -> Any:
    adapted = _batch_adapter(_with_axis(rule, True), lambda: p.multiple_results)
    adapted.user_rule = rule  # type: ignore[attr-defined]
    return adapted


def _axis_adapter(rule: Callable[..., Any], p: core.Primitive) -> Any:
    adapted = _batch_adapter(_with_axis(rule, False), lambda: p.multiple_results)
    adapted.user_rule = rule  # type: ignore[attr-defined]
    return adapted


#: rules told the batch axis (``axis_data.size``, ``axis_data.name``): JAX's current signature
fancy_primitive_batchers = RuleTable("batch_rule", _fancy_adapter)
#: rules told the axis size and name first: JAX's older signature, still accepted
axis_primitive_batchers = RuleTable("batch_rule", _axis_adapter)


# -- helpers of jax.interpreters.ad ------------------------------------------------------------


def is_undefined_primal(x: Any) -> bool:
    """Whether ``x`` is the placeholder of a linear input in a transpose rule."""
    return type(x) is UndefinedPrimal


def instantiate_zeros(t: Any) -> Any:
    """A tangent as an array (a symbolic :class:`Zero` becomes zeros)."""
    return instantiate(t)


def zeros_like_aval(aval: Any) -> Any:
    """An array of zeros of ``aval``'s shape and dtype."""
    return zeros(_aval_of_shaped(aval))


def _aval_of_shaped(aval: Any) -> ShapedArray:
    return ShapedArray(aval.shape, aval.dtype, bool(getattr(aval, "weak_type", False)))


def add_tangents(x: Any, y: Any) -> Any:
    """The sum of two tangents, either of which may be a symbolic zero."""
    if type(x) is Zero:
        return y
    if type(y) is Zero:
        return x
    return add_any_p.bind(_as_array(x), _as_array(y))


def defjvp(prim: core.Primitive, *rules: Callable[..., Any] | None) -> None:
    """One rule per operand, ``rule(tangent, *primals, **params) -> tangent contribution``
    (``None``: the output does not depend on that operand); the contributions are summed."""

    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> Any:
        out = prim.bind(*primals, **params)
        total: Any = Zero(_aval_of(out))
        for rule, t in zip(rules, tangents):
            if rule is not None and type(t) is not Zero:
                total = add_tangents(total, rule(t, *primals, **params))
        return out, total

    primitive_jvps[prim] = jvp


def defjvp2(prim: core.Primitive, *rules: Callable[..., Any] | None) -> None:
    """As :func:`defjvp`, with the primal output first: ``rule(tangent, out, *primals)``."""

    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> Any:
        out = prim.bind(*primals, **params)
        total: Any = Zero(_aval_of(out))
        for rule, t in zip(rules, tangents):
            if rule is not None and type(t) is not Zero:
                total = add_tangents(total, rule(t, out, *primals, **params))
        return out, total

    primitive_jvps[prim] = jvp


def deflinear(prim: core.Primitive, transpose_rule: Callable[..., Sequence[Any]]) -> None:
    """A primitive linear in all its operands: its JVP applies it to the tangents, its transpose
    is ``transpose_rule(ct, **params) -> cotangents of the operands``."""
    deflinear2(prim, lambda ct, *args, **params: transpose_rule(ct, **params))


def deflinear2(prim: core.Primitive, transpose_rule: Callable[..., Sequence[Any]]) -> None:
    """As :func:`deflinear`, the transpose seeing the operands: ``rule(ct, *args, **params)``."""

    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> Any:
        out = prim.bind(*primals, **params)
        if all(type(t) is Zero for t in tangents):
            return out, Zero(_aval_of(out))
        return out, prim.bind(*[instantiate(t) for t in tangents], **params)

    primitive_jvps[prim] = jvp
    primitive_transposes[prim] = transpose_rule


def defbilinear(
    prim: core.Primitive, lhs_rule: Callable[..., Any], rhs_rule: Callable[..., Any]
) -> None:
    """A primitive linear in each of its two operands separately (a product):
    ``lhs_rule(ct, x, y, **params)`` / ``rhs_rule(ct, x, y, **params)`` transpose it in the
    undefined operand."""

    def jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> Any:
        x, y = primals
        tx, ty = tangents
        out = prim.bind(x, y, **params)
        total: Any = Zero(_aval_of(out))
        if type(tx) is not Zero:
            total = add_tangents(total, prim.bind(tx, y, **params))
        if type(ty) is not Zero:
            total = add_tangents(total, prim.bind(x, ty, **params))
        return out, total

    def transpose(ct: Any, x: Any, y: Any, **params: Any) -> list[Any]:
        if is_undefined_primal(x):
            return [lhs_rule(ct, x, y, **params), None]
        return [None, rhs_rule(ct, x, y, **params)]

    primitive_jvps[prim] = jvp
    primitive_transposes[prim] = transpose


# -- helpers of jax.interpreters.batching ----------------------------------------------------------

#: The batch dimension of an unbatched operand (``None``, as in JAX).
not_mapped = None


def bdim_at_front(x: Any, bdim: int | None, size: int) -> Any:
    """``x`` with its batch dimension first (broadcast to ``size`` when it has none)."""
    return _bdim_at_front(_as_array(x), bdim, size)


def broadcast(x: Any, size: int, axis: int) -> Any:
    """``x`` with a new axis of length ``size`` at position ``axis``."""
    x = _as_array(x)
    shape = list(x.shape)
    shape.insert(axis, size)
    dims = tuple(d if d < axis else d + 1 for d in range(x.ndim))
    return broadcast_in_dim(x, tuple(shape), dims)


def defvectorized(prim: core.Primitive) -> None:
    """A unary primitive that acts elementwise: batched by applying it as it is."""

    def rule(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> Any:
        (x,) = args
        (d,) = dims
        return prim.bind(x, **params), d

    primitive_batchers[prim] = rule


def defbroadcasting(prim: core.Primitive) -> None:
    """An n-ary elementwise primitive: every batched operand gets its batch dimension first,
    unbatched ones broadcast against it."""

    def rule(args: Sequence[Any], dims: Sequence[Any], **params: Any) -> Any:
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        ndim = max(_as_array(a).ndim - (d is not None) for a, d in zip(args, dims))
        moved = []
        for a, d in zip(args, dims):
            a = _as_array(a)
            if d is None:
                moved.append(a.reshape((1,) * (ndim + 1 - a.ndim) + a.shape))
            else:
                a = _moveaxis(a, d, 0)
                moved.append(a.reshape((size,) + (1,) * (ndim + 1 - a.ndim) + a.shape[1:]))
        return prim.bind(*moved, **params), 0

    primitive_batchers[prim] = rule


# -- jax.interpreters.mlir -----------------------------------------------------------------------


def register_lowering(
    prim: core.Primitive,
    rule: Any,
    platform: str | None = None,
    *,
    inline: bool = True,
    cacheable: bool = True,
) -> Any:
    """Records ``rule`` as ``prim``'s lowering. trellax compiles nothing: a rule made by
    :func:`lower_fun` runs where the impl would, any other is kept and never called."""
    if isinstance(prim, Primitive):
        prim.lowerings[platform] = rule
    return rule


def lower_fun(fun: Callable[..., Any], multiple_results: bool = True) -> LoweredFun:
    """A lowering that is the trellax function ``fun`` of the operands (and parameters)."""
    return LoweredFun(fun, multiple_results)
