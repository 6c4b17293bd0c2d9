"""Vectorization: the batching trace behind ``vmap``.

A :class:`BatchTracer` stands for a whole batch of values: ``val`` holds all of them at once,
with the batch along axis ``batch_dim`` (``None`` never appears on a tracer: an unbatched value
is simply not wrapped). :class:`BatchTrace` processes a primitive by running its batch rule with
the *parent* trace current, so the batched computation is one call of the primitive over the
whole batch, computed (or recorded, under ``jit``) where the unbatched one would have been.
Values of other traces (constants, tracers of enclosing transformations) are unbatched; trace
identity, never a level number, decides what is ours, so nested ``vmap`` and ``vmap`` inside or
around ``grad``/``jit`` compose.

Batch rules have the fixed signature ``rule(args, dims, **params) -> (out, out_dim)``: ``args``
are values of the parent trace, ``dims`` their batch axes (``None`` for an unbatched operand, at
least one is not ``None``). ``multiple_results`` primitives return sequences of both. Rules that
need the batch size or the axis name (control flow, collectives) read :func:`current_axis`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, NamedTuple

import numpy as np

from trellax._src.core import core, errors, leaks
from trellax._src.core.core import Primitive, ShapedArray, Trace
from trellax._src.core.jaxpr import ClosedJaxpr, Jaxpr
from trellax._src.dtypes import dtypes
from trellax._src.lax import sharding_rules


class BatchTracer(core.Tracer):
    """A batch of values: ``val`` holds them all, stacked along axis ``batch_dim``."""

    __slots__ = ("batch_dim", "val")

    def __init__(self, trace: BatchTrace, val: Any, batch_dim: int) -> None:
        self._trace = trace
        self.val = val
        self.batch_dim = batch_dim
        shape = val.shape
        self.aval = ShapedArray._fast(
            shape[:batch_dim] + shape[batch_dim + 1 :], val.dtype, val.weak_type
        )
        if sharding_rules.active[0]:  # an element's type keeps the other dimensions' sharding
            sharding_rules.drop_dim(self.aval, val, batch_dim)

    def __repr__(self) -> str:  # JAX's words
        blocks = _shard_blocks(self)
        if blocks is not None:
            return blocks
        return f"VmapTracer(aval={self.aval}, batched={core.get_aval(self.val)})"


dtypes.ARRAY_TYPES.add(BatchTracer)

#: The ``shard_map`` calls being traced, innermost last: (their mesh axis names, the mesh). Their
#: axes are ``vmap`` axes too; some collectives mean more there (``ppermute`` with a partial
#: permutation, ``pcast``), and a concrete block prints as each device's value, as in JAX.
SHARD_MAP_AXES: list[tuple[frozenset[Any], Any]] = []


def _shard_blocks(x: BatchTracer) -> str | None:
    """Each device's block of ``x``, when every batch level of ``x`` is a mesh axis of the
    ``shard_map`` being run eagerly (JAX prints blocks so there); else None."""
    if not SHARD_MAP_AXES:
        return None
    names, mesh = SHARD_MAP_AXES[-1]
    axes: list[Any] = []
    value: Any = x
    levels: list[tuple[Any, int]] = []
    while type(value) is BatchTracer:
        trace = value._trace
        if not isinstance(trace, BatchTrace) or trace.axis_name not in names:
            return None
        levels.append((trace.axis_name, value.batch_dim))
        value = value.val
    if isinstance(value, core.Tracer):
        return None
    whole = np.asarray(value)
    for name, dim in reversed(levels):  # outermost level first
        whole = np.moveaxis(whole, len(axes) + dim, len(axes))
        axes.append(name)
    order = [a for a in mesh.axis_names if a in axes]
    whole = np.moveaxis(whole, [axes.index(a) for a in order], list(range(len(order))))
    parts = []
    for coords in np.ndindex(*whole.shape[: len(order)]):
        full = tuple(coords[order.index(a)] if a in order else 0 for a in mesh.axis_names)
        device = mesh.devices[full]
        names_text = "(" + ", ".join(order) + ("," if len(order) == 1 else "") + ")"
        parts.append(
            f"On {device} at mesh coordinates {names_text} = {tuple(coords)}:\n{whole[coords]}\n"
        )
    return "\n".join(parts)


class AxisInfo:
    """The batch axis a rule is working on: its size and its name (``None`` if unnamed)."""

    __slots__ = ("name", "size", "trace")

    def __init__(self, size: int, name: Any, trace: BatchTrace) -> None:
        self.size = size
        self.name = name
        self.trace = trace


_current_axis: ContextVar[AxisInfo | None] = ContextVar("trellax_batch_axis", default=None)

#: (name, size) of the axes bound by the ``vmap`` calls in progress, innermost last.
_axis_env: ContextVar[tuple[tuple[Any, int], ...]] = ContextVar("trellax_axis_env", default=())


def current_axis() -> AxisInfo:
    """The batch axis of the batch rule that is running."""
    info = _current_axis.get()
    if info is None:
        raise RuntimeError("current_axis() is only available inside a batch rule")
    return info


def axis_env() -> tuple[Any, ...]:
    """The axis names bound by the ``vmap`` calls in progress."""
    return tuple(n for n, _ in _axis_env.get())


def axis_env_key() -> tuple[tuple[Any, int], ...]:
    """The bound axis names and sizes, outermost first (part of ``jit``'s cache key: a traced
    ``axis_size`` is a constant of the program)."""
    return _axis_env.get()


def axis_sizes() -> dict[Any, int]:
    """Size of each bound axis name (an inner ``vmap`` shadows an outer one of the same name)."""
    return dict(_axis_env.get())


@contextlib.contextmanager
def extend_axis_env(pairs: Sequence[tuple[Any, int]]) -> Iterator[None]:
    """Binds axis names (``[(name, size), ...]``) without mapping anything, so that collectives
    naming them can be traced (``make_jaxpr(f, axis_env=...)``)."""
    token = _axis_env.set((*_axis_env.get(), *((name, int(size)) for name, size in pairs)))
    try:
        yield
    finally:
        _axis_env.reset(token)


#: Rules for primitives whose batching depends on the axis name (collectives):
#: ``rule(trace, args, dims, **params) -> (out, out_dim)``, run even when nothing is batched.
collective_rules: dict[Primitive, Callable[..., Any]] = {}

#: Primitives holding sub-jaxprs: ``uses_axis(params, name) -> bool`` says whether a collective
#: inside them names the axis, in which case they are batched even with unbatched operands.
#: Without an entry, :func:`_binds_collective` looks into the parameters' jaxprs.
axis_users: dict[Primitive, Callable[[dict[str, Any], Any], bool]] = {}


def _binds_collective(params: dict[str, Any], name: Any) -> bool:
    """Whether a jaxpr among ``params`` (a control-flow body, a custom function's call) binds
    a collective: then the primitive is batched even when no operand is (the collective needs
    this trace's axis, as ``psum`` of an unbatched value sums it ``axis_size`` times)."""
    return any(holds_collective(v) for v in params.values())


def holds_collective(value: Any) -> bool:
    """Whether ``value`` (a jaxpr, a closed jaxpr, or a tuple/list of them) binds a collective,
    directly or in a jaxpr inside one of its equations."""
    if isinstance(value, tuple | list):
        return any(holds_collective(v) for v in value)
    jaxpr = value.jaxpr if isinstance(value, ClosedJaxpr) else value
    if not isinstance(jaxpr, Jaxpr):
        return False
    return any(
        e.primitive in collective_rules or any(holds_collective(v) for v in e.params.values())
        for e in jaxpr.eqns
    )


_adopt: ContextVar[tuple[BatchTrace, ...]] = ContextVar("trellax_adopt", default=())


@contextlib.contextmanager
def adopting(trace: BatchTrace) -> Iterator[None]:
    """The next batch trace opened (of ``trace``'s axis) takes ``trace``'s tracers as its own:
    a ``vmap`` of a custom rule that closes over values ``trace`` batches."""
    token = _adopt.set((trace, *trace.aliases))
    try:
        yield
    finally:
        _adopt.reset(token)


class BatchTrace(Trace):
    """``vmap``'s trace: one batch axis of size ``axis_size``, optionally named."""

    leak_name = "BatchTrace"

    def __init__(self, parent: Trace, axis_size: int, axis_name: Any = None) -> None:
        self.parent = parent
        self.axis_size = axis_size
        self.axis_name = axis_name
        self.active = True
        self.axis = AxisInfo(axis_size, axis_name, self)
        #: other traces of the same batch axis whose tracers this one takes as its own (a
        #: custom rule run on a different parent while closing over the enclosing vmap's values)
        self.aliases: tuple[BatchTrace, ...] = ()
        pending = _adopt.get()
        if pending and pending[0].axis_size == axis_size and pending[0].axis_name == axis_name:
            self.aliases = pending
            _adopt.set(())  # only the first batch trace opened (the vmap asked for) adopts
        #: where each tracer was created (id -> line), kept only while leak checking is on
        self.origins: dict[int, str | None] | None = {} if leaks.checking() else None

    def tracer_origin(self, tracer: core.Tracer) -> str | None:
        """The user's source line that created ``tracer`` (recorded while checking leaks)."""
        where = None if self.origins is None else self.origins.get(id(tracer))
        return None if where is None else leaks.created_on(tracer, where)

    def __repr__(self) -> str:
        return f"BatchTrace(size={self.axis_size}, name={self.axis_name!r})"

    def unpack(self, x: Any) -> tuple[Any, int | None]:
        """(value, batch dim) of ``x``: a value of another trace is unbatched."""
        if type(x) is BatchTracer and (x._trace is self or x._trace in self.aliases):
            return x.val, x.batch_dim
        return x, None

    def wrap(self, val: Any, dim: int | None) -> Any:
        if dim is None:
            return val
        t = BatchTracer(self, val, dim)
        if self.origins is not None:
            self.origins[id(t)] = leaks.user_source()
        return t

    def process_primitive(
        self, prim: Primitive, args: Sequence[Any], params: dict[str, Any]
    ) -> Any:
        parent = self.parent
        assert parent is not None
        vals: list[Any] = []
        dims: list[int | None] = []
        batched = False
        aliases = self.aliases
        for a in args:
            if type(a) is BatchTracer and (a._trace is self or a._trace in aliases):
                vals.append(a.val)
                dims.append(a.batch_dim)
                batched = True
            else:
                vals.append(a)
                dims.append(None)
        collective = collective_rules.get(prim)
        if collective is not None:
            return self._run(prim, collective, (self, vals, dims), params)
        if not batched:
            if self.axis_name is None:
                return parent.process_primitive(prim, vals, params)
            uses = axis_users.get(prim, _binds_collective)
            if not uses(params, self.axis_name):
                return parent.process_primitive(prim, vals, params)
        if not self.active:
            raise errors.UnexpectedTracerError(None)
        rule = prim.batch_rule
        if rule is None:
            raise NotImplementedError(
                f"Batching rule for '{prim.name}' not implemented (trellax.vmap); see "
                "docs/vmap.md for the primitives that cannot be batched"
            )
        return self._run(prim, rule, (vals, dims), params)

    def _run(
        self, prim: Primitive, rule: Callable[..., Any], args: tuple[Any, ...], params: Any
    ) -> Any:
        token = core.set_current_trace(self.parent)  # type: ignore[arg-type]
        axis_token = _current_axis.set(self.axis)
        try:
            out, out_dim = rule(*args, **params)
        finally:
            _current_axis.reset(axis_token)
            core.reset_current_trace(token)
        if prim.multiple_results:
            return tuple(self.wrap(o, d) for o, d in zip(out, out_dim))
        return self.wrap(out, out_dim)


# -- the flat transformation ----------------------------------------------------------------------


def batch_flat(
    fun: Callable[..., Sequence[Any]],
    args: Sequence[Any],
    in_dims: Sequence[int | None],
    axis_size: int,
    axis_name: Any,
) -> tuple[list[Any], list[int | None]]:
    """Runs ``fun`` on the batched ``args`` (batch axes ``in_dims``, ``None`` for unbatched):
    the flat outputs (values of the enclosing trace) and their batch axes."""
    parent = core.current_trace()
    trace = BatchTrace(parent, axis_size, axis_name)
    ins = [trace.wrap(a, d) for a, d in zip(args, in_dims)]
    token = core.set_current_trace(trace)
    env_token = (
        _axis_env.set((*_axis_env.get(), (axis_name, axis_size))) if axis_name is not None else None
    )
    try:
        outs = fun(*ins)
    finally:
        if env_token is not None:
            _axis_env.reset(env_token)
        core.reset_current_trace(token)
        trace.active = False
    pairs = [trace.unpack(o) for o in outs]
    if trace.origins is not None:
        del ins, outs
        leaks.check_ended(trace)
    return [v for v, _ in pairs], [d for _, d in pairs]


# -- types that vmap maps without being pytrees (JAX's ``register_vmappable``) --------------------


class Vmappable(NamedTuple):
    """How ``vmap`` maps a registered type: ``to_elt(cont, axis_size, value, spec)`` gives the
    per-element value (``cont(array, axis)`` maps an array along ``axis``), and
    ``from_elt(cont, axis_size, element, spec)`` builds the mapped result (``cont(axis_size,
    array, axis)`` stacks an element's array along ``axis``)."""

    spec_type: type
    axis_size_type: type
    to_elt: Callable[..., Any]
    from_elt: Callable[..., Any]
    make_iota: Any


#: The registered types, and the types of their in_axes/out_axes specifications.
vmappables: dict[type, Vmappable] = {}
spec_types: set[type] = set()


def register_vmappable(
    data_type: type,
    spec_type: type,
    axis_size_type: type,
    to_elt: Callable[..., Any],
    from_elt: Callable[..., Any],
    make_iota: Any,
) -> None:
    """Lets ``vmap`` map values of ``data_type`` (leaves, not pytrees) with axis specifications
    of ``spec_type``, through ``to_elt`` and ``from_elt`` (see :class:`Vmappable`)."""
    vmappables[data_type] = Vmappable(spec_type, axis_size_type, to_elt, from_elt, make_iota)
    spec_types.add(spec_type)


def unregister_vmappable(data_type: type) -> None:
    """Undoes ``register_vmappable(data_type, ...)``."""
    spec_type = vmappables.pop(data_type).spec_type
    if all(v.spec_type is not spec_type for v in vmappables.values()):
        spec_types.discard(spec_type)


def is_vmappable(x: Any) -> bool:
    """Whether ``x``'s type was registered with :func:`register_vmappable`."""
    return type(x) in vmappables
