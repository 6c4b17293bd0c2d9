"""Transformations users call: ``jit``, ``eval_shape``, ``make_jaxpr`` (and ``ShapeDtypeStruct``).

Each is a thin pytree wrapper around a flat core: arguments are flattened, each leaf becomes an
abstract value (a Python scalar is *weak*, so ``jit(lambda x: x)(1)`` is a weak int32 exactly as
eagerly), the flat function is traced once per signature, and results are unflattened.

A signature is: the argument tree structure, every leaf's (shape, dtype, weak_type), the static
arguments, and the semantic config (x64, promotion mode). Changing any of them retraces.
"""

from __future__ import annotations

import functools
import inspect
import logging
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

import numpy as np

from trellax._src.api import jit_options, ref_frames, stages
from trellax._src.api.jit_options import (
    JitOptions,
    Traced,
    as_tuple,
    check_argnames,
    check_argnums,
)
from trellax._src.api.leaves import ShapeDtypeStruct as ShapeDtypeStruct
from trellax._src.api.leaves import _leaf_aval as _leaf_aval
from trellax._src.api.leaves import _leaf_value as _leaf_value
from trellax._src.api.leaves import _unalias as _unalias
from trellax._src.api.leaves import check_traced_outputs, placeholder_argument_error
from trellax._src.api.ref_frames import RefBase
from trellax._src.backend import fp_errors
from trellax._src.backend.array import ArrayImpl
from trellax._src.config import jax_flags
from trellax._src.config import settings as _config
from trellax._src.core import core, errors, traceback_filter
from trellax._src.core.core import ShapedArray
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.dtypes import dtypes
from trellax._src.interpreters import batching, jit_call, op_by_op, tracing
from trellax._src.lax import sharding_rules
from trellax._src.tree.tree_util import PyTreeDef, broadcast_prefix, tree_flatten, tree_unflatten
from trellax._src.tree.treedef import MetadataEqualityError

P = ParamSpec("P")
Q = ParamSpec("Q")
R = TypeVar("R")
S = TypeVar("S")

_PY_KIND = {int: "i", float: "f", complex: "c"}
_LOG = logging.getLogger("trellax")
_object_new = object.__new__
_ERRSTATE = fp_errors.STATE
_IGNORE_FP_ERRORS = fp_errors.IGNORE_ALL


def _nth_path(fun: Callable[..., Any], n_leaves: int, i: int) -> str:
    return _path_names(fun, n_leaves)[i]


def _path_names(fun: Callable[..., Any], n_args: int) -> list[str]:
    try:
        params = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else f"args[{i}]" for i in range(n_args)]


# -- jit ------------------------------------------------------------------------------------------


#: The code of the wrapper ``fp_errors.quietly`` puts around a compiled program: a cached call
#: recognizes it and sets NumPy's error state itself around the bare program (one call less).
_QUIET_CODE = fp_errors.quietly(lambda: None).__code__


class _RefInfo:
    """How a traced function threads array references: its user outputs come first, then the
    final value of each reference it took as an argument (in leaf order) and of each it closed
    over (``closed``, in the order it touched them), which the caller stores back."""

    __slots__ = ("closed", "n_out")

    def __init__(self, n_out: int, closed: list[RefBase]) -> None:
        self.n_out = n_out
        self.closed = closed

    def targets(self, leaves: Sequence[Any]) -> list[RefBase]:
        return [*[x for x in leaves if isinstance(x, RefBase)], *self.closed]


class _CacheEntry:
    __slots__ = ("bare", "call", "closed", "out_avals", "out_tree", "placed", "refs", "run", "single")  # fmt: skip

    def __init__(
        self,
        closed: ClosedJaxpr,
        run: Callable[..., tuple[Any, ...]] | None,
        out_tree: PyTreeDef,
    ) -> None:
        self.closed = closed
        self.run: Callable[..., tuple[Any, ...]] = run  # type: ignore[assignment]
        #: the program without its error-state wrapper, when ``run`` is that wrapper
        self.bare: Callable[..., tuple[Any, ...]] | None = None
        if run is not None:
            self._set_run(run)
        self.out_tree = out_tree
        self.out_avals = [(a.dtype, a.weak_type) for a in closed.out_avals]
        # A function returning one array (the common case) needs no unflattening.
        self.single = out_tree.num_leaves == 1 and out_tree == tree_flatten(0)[1]
        #: per output, the sharding its type carries or a constraint gave it (None: none has)
        self.placed: list[Any] | None = None
        if sharding_rules.active[0] or any(
            e.primitive is sharding_rules.sharding_constraint_p for e in closed.jaxpr.eqns
        ):
            placed = sharding_rules.output_shardings(closed.jaxpr)
            if any(p is not None for p in placed):
                self.placed = placed
                self.single = False  # the results go through _finish
        #: the jaxpr a ``jit`` equation holds, and the values it takes first (tracers of
        #: enclosing transformations the function closed over); made at the first traced call
        self.call: tuple[ClosedJaxpr, list[Any]] | None = None
        #: set when the function takes or closes over array references (``ref_frames``)
        self.refs: _RefInfo | None = None

    def _set_run(self, run: Callable[..., tuple[Any, ...]]) -> None:
        self.run = run
        self.bare = (
            getattr(run, "__wrapped__", None)
            if getattr(run, "__code__", None) is _QUIET_CODE
            else None
        )

    def compile(self) -> None:
        """Compiles the program (shared with the ``jit`` primitive's impl on this jaxpr)."""
        if self.run is None:
            self._set_run(jit_call.compiled(self.closed))

    def cacheable(self) -> bool:
        """Whether the trace may be reused: not if it closed over a tracer of an enclosing
        transformation (a later call runs under another one)."""
        return not any(isinstance(c, core.Tracer) for c in self.closed.consts)


#: The caches of every function with a ``jit`` wrapper alive: id(function) -> (a weak reference
#: to it, {(static arguments, options): (cache, fast cache)}). A new ``jit`` wrapper of the same
#: function with the same options shares them, as JAX's cache is keyed on the function: its
#: first call reuses the program (and, as in JAX, the globals read when it was traced).
_SHARED: dict[int, tuple[weakref.ref[Any], dict[Hashable, tuple[dict[Hashable, Any], ...]]]] = {}


def _shared_caches(
    fun: Callable[..., Any], key: Hashable
) -> tuple[dict[Hashable, _CacheEntry], dict[Hashable, _CacheEntry]]:
    """The (cache, fast cache) of ``fun`` jitted with the options ``key`` (private dicts when
    ``fun`` cannot be weakly referenced)."""
    i = id(fun)
    slot = _SHARED.get(i)
    if slot is None or slot[0]() is not fun:

        def forget(_: Any, shared: dict[int, Any] = _SHARED) -> None:
            shared.pop(i, None)  # bound early: module globals may be gone at interpreter exit

        try:
            ref = weakref.ref(fun, forget)
        except TypeError:
            return {}, {}
        slot = _SHARED[i] = (ref, {})
    caches = slot[1].get(key)
    if caches is None:
        caches = slot[1][key] = ({}, {})
    return caches[0], caches[1]


#: Every jitted function alive (``trellax.clear_caches`` empties their caches).
ALL_JITTED: weakref.WeakSet[Any] = weakref.WeakSet()


class Jitted(Generic[P, R]):
    """A jitted function: traces once per signature, then runs straight-line NumPy code."""

    def __init__(
        self,
        fun: Callable[P, R],
        static_argnums: Sequence[int] = (),
        static_argnames: Sequence[str] = (),
        options: JitOptions | None = None,
        infer_static: bool = True,
    ) -> None:
        if not callable(fun):
            raise TypeError(f"Expected a callable value, got {fun!r}")
        functools.update_wrapper(self, fun)
        self.fun = fun  # after update_wrapper, which copies the wrapped object's __dict__
        self._sig = _signature(fun)
        check_argnums(self._sig, "static_argnums", tuple(static_argnums))
        self.static_argnums, self.static_argnames = _resolve_static(
            self._sig, tuple(static_argnums), tuple(static_argnames), infer_static
        )
        self.options = JitOptions() if options is None else options
        self.options.check(self._sig, self.static_argnames)
        self._cache, self._fast_cache = _shared_caches(
            fun, (self.static_argnums, self.static_argnames, self.options.key())
        )
        self._has_static = bool(self.static_argnums or self.static_argnames)
        self.trace_count = 0
        ALL_JITTED.add(self)  # for trellax.clear_caches

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> Jitted[P, R]: ...
    @overload
    def __get__(
        self: Jitted[Concatenate[S, Q], R], obj: S, objtype: type | None = None
    ) -> Callable[Q, R]: ...

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        """A jitted function stored on a class binds like a method (``self`` must then be static,
        as in JAX: ``jit(static_argnums=0)``); type checkers see the method without ``self``."""
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __repr__(self) -> str:
        """JAX's words: ``<PjitFunction of <function f at ...>>`` (``<PjitFunction>`` when the
        wrapped function's ``repr`` fails or ``__wrapped__`` was deleted)."""
        try:
            return f"<PjitFunction of {self.__wrapped__!r}>"  # type: ignore[attr-defined]
        except Exception:
            return "<PjitFunction>"

    def __getstate__(self) -> dict[str, Any]:
        """What pickling a jitted function would keep: its function's name among it (partials
        are named after the function they wrap unless given a ``__name__``)."""
        return {**self.__dict__, "function_name": _function_name(self.fun)}

    def _cache_size(self) -> int:
        """How many programs are cached for this function (one per signature)."""
        return len(self._cache)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            st = _config._local_state.get() or _config._global_state[0]  # config.state(), inlined
            if not kwargs and not self._has_static:
                # Fast path: positional concrete arrays and Python scalars (the common case of a hot
                # loop): one flat key of the config and each argument's (shape, dtype, weak_type) or
                # scalar type (see _fast_key), no pytree.
                key: tuple[Any, ...] | None
                values: Sequence[Any]
                a: tuple[Any, ...] = args
                n = len(a)
                if n == 2 and type(a[0]) is ArrayImpl and type(a[1]) is ArrayImpl:
                    x, y = a  # unrolled for the common arities: _fast_key's result
                    key = (st, x.shape, x.dtype, x.weak_type, y.shape, y.dtype, y.weak_type)
                    values = (x._value, y._value)
                elif n == 1 and type(a[0]) is ArrayImpl:
                    (x,) = a
                    key = (st, x.shape, x.dtype, x.weak_type)
                    values = (x._value,)
                else:
                    key, values = _fast_key(st, a)
                if key is not None:
                    entry = self._fast_cache.get(key)
                    if entry is not None and core._current_trace.get() is core.eval_trace:
                        bare = entry.bare
                        if bare is None:
                            outs = entry.run(*values)
                        else:
                            token = _ERRSTATE.set(_IGNORE_FP_ERRORS)
                            try:
                                outs = bare(*values)
                            finally:
                                _ERRSTATE.reset(token)
                        if entry.single:  # one array out: core.new_array, inlined
                            out = outs[0]
                            d, w = entry.out_avals[0]
                            if type(out) is np.ndarray and out.dtype is d:
                                result: Any = _object_new(ArrayImpl)
                                result._value = out
                                result.dtype = d
                                result.shape = out.shape
                                result.weak_type = w
                                return result  # type: ignore[no-any-return]
                        return self._finish(entry, outs)
            trace = core._current_trace.get()
            if trace is not core.eval_trace:
                if isinstance(
                    trace, core.EvalTrace
                ):  # debug_nans/disable_jit: _src/interpreters/op_by_op.py
                    return op_by_op.call_jitted(self, args, kwargs)  # type: ignore[no-any-return]
                if self.options.inline:  # JAX's inline=True: the body joins the enclosing trace
                    return self.fun(*args, **kwargs)
                return self._bind(args, kwargs, st)
            dyn_args, dyn_kwargs, static_key = self._split(args, kwargs)
            leaves, in_tree = tree_flatten((dyn_args, dyn_kwargs))
            avals = self._avals(leaves, len(dyn_args))
            key = (in_tree, tuple(_aval_key(a) for a in avals), static_key, st)
            key += _ref_key(leaves)
            entry = _lookup(self._cache, key)
            if entry is None:
                entry = self._trace(args, kwargs, in_tree, avals, leaves)
                self._cache[key] = entry
            if entry.run is None:
                entry.compile()
                if not kwargs and not self._has_static and entry.refs is None:
                    fast_key = _fast_key(st, args)[0]
                    if fast_key is not None:
                        self._fast_cache[fast_key] = entry
            if entry.refs is not None:
                return self._call_with_refs(entry, leaves, avals)
            try:
                values = [_leaf_value(x, a) for x, a in zip(leaves, avals)]
            except TypeError:  # a ShapeDtypeStruct has no value: JAX's error, else NumPy's
                names = _path_names(self.fun, len(dyn_args))
                err = placeholder_argument_error(names, dyn_args, dyn_kwargs)
                if err is None:
                    raise
                raise err from None
            outs = entry.run(*values)
            return self._finish(entry, _unalias(outs, leaves, values))
        except Exception as e:  # the API boundary of traceback filtering (off by default)
            traceback_filter.reraise(e)
            raise

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any], st: _config.State) -> R:
        """A call under a transformation: ``fun`` traced once per signature (the cache eager
        calls use) and one ``jit`` equation bound in the current trace."""
        dyn_args, dyn_kwargs, static_key = self._split(args, kwargs)
        leaves, in_tree = tree_flatten((dyn_args, dyn_kwargs))
        avals = self._avals(leaves, len(dyn_args))
        key: tuple[Any, ...] = (
            in_tree,
            tuple((a.shape, a.dtype, a.weak_type) for a in avals),
            static_key,
            st,
        )
        key += _ref_key(leaves)
        if env := batching.axis_env_key():  # bound axis names: their sizes are constants
            key += (("axis_env", env),)
        entry = _lookup(self._cache, key)
        if entry is None:
            entry = self._trace(args, kwargs, in_tree, avals, leaves)
            if entry.cacheable():
                self._cache[key] = entry
        if entry.call is None:
            entry.call = jit_call.hoist_tracer_consts(entry.closed)
        call, hoisted = entry.call
        operands = [
            ref_frames.resolve(x)._held
            if isinstance(x, RefBase)
            else x
            if isinstance(x, core.Tracer) or type(x) is ArrayImpl or type(x) is ShapeDtypeStruct
            else core.new_array(_leaf_value(x, a), a.dtype, a.weak_type)
            for x, a in zip(leaves, avals)
        ]
        closed_refs = entry.refs.closed if entry.refs is not None else []
        operands += [ref_frames.resolve(r)._held for r in closed_refs]
        donated = self._donated(args, kwargs, len(hoisted)) + (False,) * len(closed_refs)
        params = jit_call.call_params(
            call,
            getattr(self.fun, "__name__", "fun"),
            donated,
            self.options.inline,
            self.options.keep_unused,
        )
        outs = jit_call.jit_p.bind_multi(*hoisted, *operands, **params)
        if entry.refs is not None:
            n = entry.refs.n_out
            for ref, value in zip(entry.refs.targets(leaves), outs[n:]):
                ref_frames.store(ref, value)
            outs = outs[:n]
        result: R = tree_unflatten(entry.out_tree, list(outs))
        return result

    def _call_with_refs(self, entry: _CacheEntry, leaves: list[Any], avals: list[Any]) -> R:
        """An eager call of a program that threads array references: their values go in after
        the arguments, their final values come back after the results and are stored."""
        assert entry.refs is not None
        values = [
            ref_frames.resolve(x)._held._value if isinstance(x, RefBase) else _leaf_value(x, a)
            for x, a in zip(leaves, avals)
        ]
        values += [ref_frames.resolve(r)._held._value for r in entry.refs.closed]
        outs = _unalias(entry.run(*values), leaves, values)
        n = entry.refs.n_out
        for ref, value in zip(entry.refs.targets(leaves), outs[n:]):
            ref_frames.store(ref, core.new_array(value, ref.dtype, ref.aval.weak_type))
        return self._finish(entry, outs[:n])

    def _donated(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], n_hoisted: int
    ) -> tuple[bool, ...]:
        """``donated_invars`` of the ``jit`` equation: True for the leaves of donated arguments
        (in the order ``tree_flatten((dyn_args, dyn_kwargs))`` gives them)."""
        opts = self.options
        nums = {i % len(args) for i in opts.donate_argnums if -len(args) <= i < len(args)}
        names = set(opts.donate_argnames)
        if self._sig is not None:
            params = list(self._sig.parameters)
            names |= {params[i] for i in nums if i < len(params)}
            nums |= {params.index(k) for k in names if k in params}
        flags = [False] * n_hoisted
        for i, a in enumerate(args):
            if not (i in self.static_argnums or (i - len(args)) in self.static_argnums):
                flags += [i in nums] * len(tree_flatten(a)[0])
        for k in sorted(kwargs):
            if k not in self.static_argnames:
                flags += [k in names] * len(tree_flatten(kwargs[k])[0])
        return tuple(flags)

    def _finish(self, entry: _CacheEntry, outs: tuple[Any, ...]) -> R:
        new = core.new_array
        if entry.placed is not None:
            placed = [
                o if d.names is not None else sharding_rules.place_result(new(o, d, w), s)
                for o, (d, w), s in zip(outs, entry.out_avals, entry.placed)
            ]
            return tree_unflatten(entry.out_tree, placed)  # type: ignore[no-any-return]
        if entry.single:
            d, w = entry.out_avals[0]
            single: R = outs[0] if d.names is not None else new(outs[0], d, w)
            return single
        # a float0 output (the gradient of an integer) stays the NumPy array it is, as in JAX
        arrays = [
            o if d.names is not None else new(o, d, w) for o, (d, w) in zip(outs, entry.out_avals)
        ]
        result: R = tree_unflatten(entry.out_tree, arrays)
        return result

    # -- internals ---------------------------------------------------------------------------

    def _split(
        self, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[list[Any], dict[str, Any], tuple[Any, ...]]:
        if not self.static_argnums and not self.static_argnames:
            return list(args), kwargs, ()
        dyn_args: list[Any] = []
        static: list[tuple[int | str, Any]] = []
        for i, a in enumerate(args):
            if i in self.static_argnums or (i - len(args)) in self.static_argnums:
                static.append((i, _hashable_static(a, f"argument {i}")))
            else:
                dyn_args.append(a)
        dyn_kwargs = {}
        for k, v in kwargs.items():
            if k in self.static_argnames:
                static.append((k, _hashable_static(v, f"argument {k!r}")))
            else:
                dyn_kwargs[k] = v
        return dyn_args, dyn_kwargs, tuple(static)

    def _avals(self, leaves: list[Any], n_pos: int) -> list[ShapedArray]:
        out = []
        for i, leaf in enumerate(leaves):
            if type(leaf) is ArrayImpl:
                out.append(ShapedArray._fast(leaf.shape, leaf.dtype, leaf.weak_type))
            elif isinstance(leaf, RefBase):
                out.append(leaf.aval)
            else:
                out.append(_leaf_aval(leaf, functools.partial(self._path, len(leaves), n_pos, i)))
        return out

    def _path(self, n_leaves: int, n_pos: int, i: int) -> str:
        return _path_names(self.fun, n_leaves)[i] if i < n_pos else f"leaf {i}"

    def _trace(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        in_tree: PyTreeDef,
        avals: list[ShapedArray],
        leaves: Sequence[Any] = (),
    ) -> _CacheEntry:
        dyn_args = self._split(args, kwargs)[0]  # in_shardings cover these
        self.options.check_call(len(dyn_args), bool(kwargs))
        if jax_flags.no_tracing.value:
            name, where = _name_and_place(self.fun)
            raise RuntimeError(
                f"re-tracing function {name} at {where} for `jit`, but 'no_tracing' is set"
            )
        self.trace_count += 1
        out_tree_box: list[PyTreeDef] = []
        frames: list[ref_frames.Frame] = []

        def flat_fun(*tracers: Any) -> list[Any]:
            fr = ref_frames.Frame(core.current_trace(), *_name_and_place(self.fun))  # type: ignore[arg-type]
            with ref_frames.frame(fr):
                ins = list(tracers)
                for i, leaf in enumerate(leaves):
                    if isinstance(leaf, RefBase):
                        ins[i] = fr.add_argument(leaf, ins[i], self._path(len(leaves), len(ins), i))
                dyn_args, dyn_kwargs = tree_unflatten(in_tree, ins)
                full_args, full_kwargs = self._merge(args, kwargs, dyn_args, dyn_kwargs)
                out = self.fun(*full_args, **full_kwargs)
                out_leaves, out_tree = tree_flatten(out)
                fr.check_outputs(out_leaves)  # array references first: their own error
                check_traced_outputs(self.fun, out, out_leaves)
            out_tree_box.append(out_tree)
            frames.append(fr)
            return [*out_leaves, *[inner._held for _, inner in fr.pairs]]

        closed = tracing.trace_to_jaxpr(flat_fun, avals, getattr(self.fun, "__name__", "fun"))
        if jax_flags.log_compiles.value:
            _LOG.warning(
                "Compiling jit(%s) with global shapes and types %s.",
                getattr(self.fun, "__name__", "fun"),
                tuple(avals),
            )
        entry = _CacheEntry(closed, None, out_tree_box[0])
        if frames[0].pairs:
            entry.refs = _RefInfo(out_tree_box[0].num_leaves, frames[0].closed)
        return entry

    def _merge(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        dyn_args: list[Any],
        dyn_kwargs: dict[str, Any],
    ) -> tuple[list[Any], dict[str, Any]]:
        it = iter(dyn_args)
        full = [
            a if (i in self.static_argnums or (i - len(args)) in self.static_argnums) else next(it)
            for i, a in enumerate(args)
        ]
        full_kwargs = {
            k: (v if k in self.static_argnames else dyn_kwargs[k]) for k, v in kwargs.items()
        }
        return full, full_kwargs

    def lower(self, *args: Any, **kwargs: Any) -> stages.Lowered:
        """This function traced for these arguments (cached like a call): ``.as_text()`` shows
        the jaxpr and the generated (fused) program, ``.compile()`` returns a callable."""
        dyn_args, dyn_kwargs, static_key = self._split(args, kwargs)
        leaves, in_tree = tree_flatten((dyn_args, dyn_kwargs))
        avals = self._avals(leaves, len(dyn_args))
        key = (
            in_tree,
            tuple((a.shape, a.dtype, a.weak_type) for a in avals),
            static_key,
            _config.state(),
        )
        entry = _lookup(self._cache, key)
        if entry is None:
            entry = self._trace(args, kwargs, in_tree, avals)
            self._cache[key] = entry
        for c in entry.closed.consts:  # JAX lowers eagerly: a constant without a value fails
            if isinstance(c, core.Placeholder):
                raise core.placeholder_error(c)
        names = [self._path(len(leaves), len(dyn_args), i) for i in range(len(leaves))]
        name = getattr(self.fun, "__name__", "fun")
        lowered = stages.Lowered(entry.closed, in_tree, entry.out_tree, name, names)
        if self.options.out_shardings is not None:
            lowered._out_structs = self._out_structs(entry.out_tree, entry.closed.out_avals)
        return lowered

    def clear_cache(self) -> None:
        self._cache.clear()
        self._fast_cache.clear()

    # -- staged views (JAX's ``jit(f).trace(...)`` and ``jit(f).eval_shape(...)``) -------------

    def trace(self, *args: Any, **kwargs: Any) -> Traced:
        """The function traced for these arguments (cached like a call): a :class:`Traced` with
        its ``jaxpr``, input and output abstract values and trees."""
        dyn_args, dyn_kwargs, static_key = self._split(args, kwargs)
        leaves, in_tree = tree_flatten((dyn_args, dyn_kwargs))
        avals = self._avals(leaves, len(dyn_args))
        sig = tuple((a.shape, a.dtype, a.weak_type) for a in avals)
        key = (in_tree, sig, static_key, _config.state())
        entry = _lookup(self._cache, key)
        if entry is None:
            entry = self._trace(args, kwargs, in_tree, avals)
            self._cache[key] = entry
        in_tree = tree_flatten((tuple(dyn_args), dyn_kwargs))[1]
        outs = entry.closed.out_avals
        return Traced(
            jaxpr=entry.closed,
            fun_name=getattr(self.fun, "__name__", "fun"),
            in_tree=in_tree,
            in_avals=tree_unflatten(in_tree, avals),
            out_tree=entry.out_tree,
            out_avals=tree_unflatten(entry.out_tree, list(outs)),
            out_info=tree_unflatten(entry.out_tree, self._out_structs(entry.out_tree, outs)),
            donate_argnums=self.options.donate_argnums,
            lower=functools.partial(self.lower, *args, **kwargs),
        )

    def _out_structs(self, out_tree: PyTreeDef, outs: Sequence[Any]) -> list[ShapeDtypeStruct]:
        """One ``ShapeDtypeStruct`` per output, with its ``out_shardings`` entry when given (a
        prefix of the outputs' tree; ``None`` leaves an output unplaced), as JAX's."""
        given = self.options.out_shardings
        if given is None:
            return [ShapeDtypeStruct(a.shape, a.dtype, a.weak_type) for a in outs]
        full = tree_unflatten(out_tree, [0] * len(outs))
        per_leaf = broadcast_prefix(given, full, is_leaf=lambda x: x is None)
        return [
            ShapeDtypeStruct(a.shape, a.dtype, a.weak_type, sharding=s)
            for a, s in zip(outs, per_leaf)
        ]

    def eval_shape(self, *args: Any, **kwargs: Any) -> Any:
        """The shapes, dtypes and weak flags of this function's results for these arguments
        (a pytree of :class:`ShapeDtypeStruct`), without computing them."""
        return self.trace(*args, **kwargs).out_info


def _ref_key(leaves: Sequence[Any]) -> tuple[Any, ...]:
    """The positions of the array references among ``leaves`` (a part of the cache key: a
    reference and an array of one type trace to different programs)."""
    pos = tuple(i for i, x in enumerate(leaves) if isinstance(x, RefBase))
    return (("refs", pos),) if pos else ()


def _name_and_place(fun: Callable[..., Any]) -> tuple[str, str]:
    """``fun``'s name and ``file:line`` (for the errors about array references)."""
    code = getattr(fun, "__code__", None)
    where = f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "<unknown>"
    return getattr(fun, "__name__", "fun"), where


def _fast_key(st: _config.State, args: Sequence[Any]) -> tuple[tuple[Any, ...] | None, list[Any]]:
    """The key of a cached jit call on positional concrete arrays and Python scalars, and the
    values its program takes; ``(None, ...)`` for anything else (pytrees, NumPy values, tracers,
    an int out of the default int's range), which takes the general path.

    The key is flat: the config state, then each array's (shape, dtype, weak_type) or each
    scalar's type (a scalar's abstract value is the weak default of its kind under ``st``).
    """
    key: list[Any] = [st]
    values: list[Any] = []
    for a in args:
        t = type(a)
        if t is ArrayImpl:
            key += (a.shape, a.dtype, a.weak_type)
            values.append(a._value)
        elif t is float or t is int or t is complex or t is bool:
            if t is bool:
                d = dtypes.bool_
            else:
                d = dtypes._DEFAULTS[st.x64][_PY_KIND[t]]
                if t is int:
                    lo, hi = dtypes.DEFAULT_INT_RANGE[st.x64]
                    if not lo <= a <= hi:  # the general path raises JAX's OverflowError
                        return None, values
            key.append(t)
            values.append(np.asarray(a, dtype=d))
        else:
            return None, values
    return tuple(key), values


def _aval_key(a: ShapedArray) -> tuple[Any, ...]:
    """An argument's part of the cache key: its type (with the sharding it carries, and then
    the mesh in force, which places the results)."""
    typed = core.typed_sharding(a)
    if typed is None:
        return (a.shape, a.dtype, a.weak_type)
    return (a.shape, a.dtype, a.weak_type, typed, jit_options.context_mesh[0]())


def _signature(fun: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(fun)
    except (TypeError, ValueError):
        return None


def _lookup(cache: dict[Any, _CacheEntry], key: tuple[Any, ...]) -> _CacheEntry | None:
    """``cache[key]`` or None; a static argument whose ``__eq__`` raises (met only when an
    equal hash makes a comparison necessary) is JAX's ValueError."""
    try:
        return cache.get(key)
    except MetadataEqualityError:
        raise  # an argument's treedef holds aux data that cannot be compared: JAX's words
    except Exception as e:
        raise ValueError(
            "static arguments should be comparable using __eq__. The following error was "
            f"raised while comparing two of them: {type(e).__name__}: {e}"
        ) from e


def _function_name(fun: Any) -> str:
    """The name of ``fun``, looking through ``functools.partial`` objects without a name."""
    while isinstance(fun, functools.partial) and not hasattr(fun, "__name__"):
        fun = fun.func
    return str(getattr(fun, "__name__", type(fun).__name__))


def _resolve_static(
    sig: inspect.Signature | None,
    argnums: tuple[int, ...],
    argnames: tuple[str, ...],
    infer: bool = True,
) -> tuple[frozenset[int], frozenset[str]]:
    """Static arguments may be given by position or name; with ``infer`` (``jit`` was given only
    one of the two) each implies the other, as in JAX."""
    nums, names = set(argnums), set(argnames)
    check_argnames(sig, "static_argnames", argnames)
    if sig is not None and infer:
        params = list(sig.parameters.values())
        positional = [
            p.name
            for p in params
            if p.kind
            in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        ]
        for n in argnums:
            if 0 <= n < len(positional) and params[n].kind is not inspect.Parameter.POSITIONAL_ONLY:
                names.add(positional[n])
        for name in argnames:
            if name in positional:
                nums.add(positional.index(name))
    return frozenset(nums), frozenset(names)


def _hashable_static(value: Any, what: str) -> Any:
    try:
        hash(value)
    except TypeError:
        raise errors.NonHashableStaticArgumentError(
            f"Non-hashable static arguments are not supported: {what} of the jitted function is "
            f"{value!r} of type {type(value).__name__}. Static arguments are part of the cache "
            "key, so they must be hashable: pass a tuple instead of a list, or a frozen "
            "dataclass."
        ) from None
    return (type(value), value)


@overload
def jit(
    fun: Callable[P, R],
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Sequence[str] | None = None,
    keep_unused: bool = False,
    inline: bool = False,
    in_shardings: Any = None,
    out_shardings: Any = None,
    device: Any = None,
    backend: str | None = None,
    compiler_options: dict[str, Any] | None = None,
) -> Jitted[P, R]: ...


@overload
def jit(
    fun: None = None,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Sequence[str] | None = None,
    keep_unused: bool = False,
    inline: bool = False,
    in_shardings: Any = None,
    out_shardings: Any = None,
    device: Any = None,
    backend: str | None = None,
    compiler_options: dict[str, Any] | None = None,
) -> Callable[[Callable[P, R]], Jitted[P, R]]: ...


def jit(
    fun: Callable[P, R] | None = None,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Sequence[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Sequence[str] | None = None,
    keep_unused: bool = False,
    inline: bool = False,
    in_shardings: Any = None,
    out_shardings: Any = None,
    device: Any = None,
    backend: str | None = None,
    compiler_options: dict[str, Any] | None = None,
) -> Any:
    """Traces ``fun`` once per input signature and runs the cached program on later calls.

    >>> import trellax, trellax.numpy as tnp
    >>> f = trellax.jit(lambda x, y: x * 2 + y)
    >>> f(tnp.arange(3, dtype="int8"), 1)
    Array([1, 3, 5], dtype=int8)

    Python scalars enter as weak values; results have the same dtypes and weak flags as the eager
    call. Usable as a decorator, with or without arguments.

    Called under a transformation (``grad``, ``vmap``, an enclosing ``jit`` or ``make_jaxpr``)
    the function is traced once per signature and becomes one ``jit`` equation (JAX's call
    primitive; ``inline=True`` inlines it instead). ``donate_argnums``/``donate_argnames``,
    ``keep_unused``, ``in_shardings``/``out_shardings``/``device``/``backend`` (one CPU device)
    and ``compiler_options`` are accepted and checked as JAX checks them, but change no result
    (see :class:`JitOptions`).
    """
    nums = as_tuple(static_argnums, int)
    names = as_tuple(static_argnames, str)
    # JAX's rule: given one of them, the other is inferred from the signature; given both,
    # each is taken as it is (they may disagree)
    infer = static_argnums is None or static_argnames is None
    options = JitOptions(
        as_tuple(donate_argnums, int),
        as_tuple(donate_argnames, str),
        keep_unused,
        inline,
        in_shardings=in_shardings,
        out_shardings=out_shardings,
        device=device,
        backend=backend,
        compiler_options=compiler_options,
    )
    cls = Jitted if out_shardings is None else _PlacedJitted
    if fun is None:
        return lambda f: cls(_check_jittable(f), nums, names, options, infer)
    return cls(_check_jittable(fun), nums, names, options, infer)


class _PlacedJitted(Jitted[P, R]):
    """A function jitted with ``out_shardings``: an eager call's results are put there (they
    report that sharding, as JAX's do); traced calls return tracers unchanged."""

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        out = super().__call__(*args, **kwargs)
        if core._current_trace.get() is core.eval_trace and jit_options.place_outputs:
            placed: R = jit_options.place_outputs[0](out, self.options.out_shardings)
            return placed
        return out


def _check_jittable(fun: Any) -> Any:
    """JAX's errors for what ``jit`` cannot wrap: a ``staticmethod`` object, a generator."""
    if isinstance(fun, staticmethod):
        raise TypeError(
            f"staticmethod arguments are not supported, got {fun}; put @staticmethod above @jit"
        )
    if inspect.isgeneratorfunction(fun):
        raise TypeError(f"Expected a function, got a generator function: {fun}")
    return fun


# -- eval_shape and make_jaxpr ------------------------------------------------------------------


def _trace_pytree(
    fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[ClosedJaxpr, PyTreeDef]:
    leaves, in_tree = tree_flatten((list(args), kwargs))
    avals = [
        _leaf_aval(leaf, functools.partial(_nth_path, fun, len(leaves), i), duck=True)
        for i, leaf in enumerate(leaves)
    ]
    out_tree_box: list[PyTreeDef] = []

    def flat_fun(*tracers: Any) -> list[Any]:
        a, k = tree_unflatten(in_tree, list(tracers))
        out = fun(*a, **k)
        out_leaves, out_tree = tree_flatten(out)
        check_traced_outputs(fun, out, out_leaves)
        out_tree_box.append(out_tree)
        return out_leaves

    closed = tracing.trace_to_jaxpr(flat_fun, avals, getattr(fun, "__name__", "fun"))
    return closed, out_tree_box[0]


@traceback_filter.api_boundary
def eval_shape(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The shapes, dtypes and weak flags of ``fun(*args)``'s results, without computing them.

    >>> import trellax
    >>> trellax.eval_shape(lambda x: x + 1, 2.0)
    ShapeDtypeStruct(shape=(), dtype=float32, weak_type=True)
    """
    closed, out_tree = _trace_pytree(fun, args, kwargs)
    structs = [
        ShapeDtypeStruct(a.shape, a.dtype, a.weak_type, sharding=core.typed_sharding(a))
        for a in closed.out_avals
    ]
    return tree_unflatten(out_tree, structs)


def make_jaxpr(
    fun: Callable[..., Any],
    static_argnums: int | Sequence[int] = (),
    axis_env: Sequence[tuple[Any, int]] | None = None,
    return_shape: bool = False,
    abstracted_axes: Any = None,
) -> Callable[..., Any]:
    """A function that traces ``fun`` and returns its printable jaxpr; arguments at
    ``static_argnums`` are passed to ``fun`` as Python values (not traced), as with ``jit``.
    ``axis_env`` binds axis names (``[(name, size), ...]``) for the collectives ``fun`` uses;
    with ``return_shape`` the result is ``(jaxpr, output ShapeDtypeStructs)``.

    >>> import trellax, trellax.numpy as tnp
    >>> print(trellax.make_jaxpr(lambda x: x + 1.5)(tnp.zeros(3, "int8")))
    { lambda ; a:i8[3]. let
        b:~f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a
        c:~f32[3] = add b 1.5:~f32[]
      in (c,) }
    """

    nums = as_tuple(static_argnums, int)
    if abstracted_axes is not None:
        raise NotImplementedError("make_jaxpr(abstracted_axes=...): trellax has static shapes")

    @traceback_filter.api_boundary
    @functools.wraps(fun)
    def make(*args: Any, **kwargs: Any) -> Any:
        with batching.extend_axis_env(axis_env or ()):
            if nums:
                closed, out_tree = _make_jaxpr_static(fun, nums, args, kwargs)
            else:
                closed, out_tree = _trace_pytree(fun, args, kwargs)
        if not return_shape:
            return closed
        structs = [ShapeDtypeStruct(a.shape, a.dtype, a.weak_type) for a in closed.out_avals]
        return closed, tree_unflatten(out_tree, structs)

    # JAX's names for the tracing function: make_jaxpr(f), in the top-level module
    make.__name__ = f"make_jaxpr({getattr(fun, '__name__', 'fun')})"
    make.__qualname__ = f"make_jaxpr({getattr(fun, '__qualname__', 'fun')})"
    make.__module__ = "trellax"
    return make


def _make_jaxpr_static(
    fun: Callable[..., Any], nums: tuple[int, ...], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[ClosedJaxpr, PyTreeDef]:
    """``make_jaxpr`` with static positional arguments: checked as ``jit`` checks them (at
    call time, as JAX does), hashable, and closed over instead of traced."""
    check_argnums(_signature(fun), "static_argnums", nums)
    static = {i % len(args) for i in nums if -len(args) <= i < len(args)}
    for i in static:
        _hashable_static(args[i], f"argument {i}")
    dynamic = [a for i, a in enumerate(args) if i not in static]

    def with_static(*dyn: Any, **kw: Any) -> Any:
        it = iter(dyn)
        return fun(*[a if i in static else next(it) for i, a in enumerate(args)], **kw)

    return _trace_pytree(with_static, tuple(dynamic), kwargs)


# -- cached eager programs ------------------------------------------------------------------------

_PROGRAMS: dict[Hashable, _CacheEntry] = {}


def run_cached(key: Hashable, fun: Callable[..., Any], arrays: Sequence[Any]) -> Any:
    """Runs ``fun(*arrays)`` (arrays in, a pytree of arrays out) as a cached compiled program.

    For composite ``trellax.numpy`` functions whose Python-level planning costs more than their
    arithmetic on small inputs (``einsum``): eagerly, the first call with a given ``key`` and
    input avals traces ``fun`` once; later calls run the straight-line NumPy program. Under a
    trace, ``fun`` is simply called. ``key`` must capture every static parameter ``fun`` closes
    over.
    """
    if core._current_trace.get() is not core.eval_trace or any(
        type(a) is not ArrayImpl for a in arrays
    ):
        return fun(*arrays)
    full_key = (
        key,
        _config.state(),
        *[(a.shape, a.dtype, a.weak_type) for a in arrays],
    )
    entry = _PROGRAMS.get(full_key)
    if entry is None:
        avals = [ShapedArray._fast(a.shape, a.dtype, a.weak_type) for a in arrays]
        box: list[PyTreeDef] = []

        def flat(*tracers: Any) -> list[Any]:
            leaves, tree = tree_flatten(fun(*tracers))
            box.append(tree)
            return leaves

        closed = tracing.trace_to_jaxpr(flat, avals, "cached")
        entry = _CacheEntry(closed, tracing.compile_jaxpr(closed), box[0])
        if len(_PROGRAMS) > 512:
            _PROGRAMS.clear()
        _PROGRAMS[full_key] = entry
    outs = entry.run(*[a._value for a in arrays])
    new = core.new_array
    return tree_unflatten(
        entry.out_tree, [new(o, d, w) for o, (d, w) in zip(outs, entry.out_avals)]
    )


traceback_filter.register_boundary(Jitted.__call__.__code__)
