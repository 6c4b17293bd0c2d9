"""``custom_jvp`` and ``custom_vjp``: user-defined derivatives (``stop_gradient`` is in ``lax``).

A ``custom_jvp`` function called under a JVP trace with a differentiated argument runs its rule
instead of differentiating its body: the rule's primal work happens in the parent trace and its
tangent work in the tangent space (so under ``grad`` the rule is linearized and transposed like
any other code). A ``custom_vjp`` function under ``grad``/``vjp`` runs ``fwd`` in the parent
trace and records one linear equation, ``custom_lin``, whose transpose calls ``bwd``. Outside
differentiation (eagerly, under ``jit``) both simply call the function.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.config import jax_option_flags
from trellax._src.core import core
from trellax._src.core.core import Primitive, ShapedArray
from trellax._src.core.errors import UnexpectedTracerError
from trellax._src.custom.arguments import (
    check_fwd_primal_out,
    check_jvp_primal_out,
    forward_attr,
    resolve_args,
)
from trellax._src.custom.closure import closes_over, custom_jvp_under_batch
from trellax._src.custom.per_example import (
    rewrap,
    sum_shared,
    symbolic_batched_bwd,
    symbolic_batched_fwd,
    symbolic_batched_rule,
    unbatch,
    vmap_over,
)
from trellax._src.custom.remat_opt import optimize_remat_of_custom_vjp_fwd
from trellax._src.custom.staged import (
    _arr,
    _materialize,
    _name,
    _Static,
    bind_call,
    custom_jvp_call_p,
    custom_vjp_call_p,
    static_nondiff,
)
from trellax._src.custom.symbolic import (
    CustomVJPPrimal,
    SymbolicZero,
)
from trellax._src.interpreters.ad import JVPTrace, JVPTracer, _LinearDispatch
from trellax._src.interpreters.batching import BatchTrace, BatchTracer
from trellax._src.interpreters.tracing import JaxprTrace
from trellax._src.lax import elementwise
from trellax._src.lax.ad_util import Zero, differentiable, float0, tangent_aval, zeros
from trellax._src.tree.tree_util import (
    PyTreeDef,
    tree_flatten,
    tree_map,
    tree_structure,
    tree_unflatten,
)


def _nondiff_positions(
    fun: Callable[..., Any], argnums: Sequence[int], argnames: Sequence[str]
) -> tuple[int, ...]:
    """``nondiff_argnums`` joined with the positions of the parameters named ``argnames``."""
    positions = set(argnums)
    if argnames:
        params = list(inspect.signature(fun).parameters.values())
        for name in argnames:
            for i, p in enumerate(params):
                if p.name == name and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                    positions.add(i)
    return tuple(sorted(positions))


def _owns(trace: Any, tracer_type: type[core.Tracer], args: Sequence[Any]) -> bool:
    """Whether some argument leaf is a ``tracer_type`` tracer of ``trace``."""
    leaves = tree_flatten(list(args))[0]
    return any(type(leaf) is tracer_type and leaf._trace is trace for leaf in leaves)


def _our_trace(args: Sequence[Any]) -> JVPTrace | None:
    """The current trace if it is a JVP trace and some argument leaf is its tracer."""
    trace = core.current_trace()
    if type(trace) is not JVPTrace:
        return None
    return trace if _owns(trace, JVPTracer, args) else None


def _primal_side(trace: Any, args: Sequence[Any]) -> core.Trace | None:
    """The trace a custom function's call belongs to when it is not ``trace``'s own business,
    or ``None`` when it is.

    A call whose arguments hold no tracer of the current trace belongs to the innermost
    enclosing trace that owns one of them: inside a JVP rule (forward mode under ``vmap``, or
    reverse mode, where the current trace is a ``_LinearDispatch`` sending tangent computations
    to the linear trace and everything else to its parent), ``f(x)`` on primal values belongs to
    an enclosing JVP trace, which must apply ``f``'s custom rule again — otherwise second
    derivatives would differentiate ``f``'s implementation instead of its rule."""
    leaves = tree_flatten(list(args))[0]
    owners = {id(x._trace) for x in leaves if isinstance(x, core.Tracer)}
    if type(trace) is _LinearDispatch:
        return None if id(trace.tangent_trace) in owners else trace.parent
    if type(trace) not in (JVPTrace, BatchTrace) or id(trace) in owners:
        return None
    if not owners:
        # constants only: a JVP trace has nothing to differentiate, its parent evaluates them
        return trace.parent if type(trace) is JVPTrace else None
    t: core.Trace | None = trace.parent
    while t is not None and id(t) not in owners:
        t = getattr(t, "parent", None)
    return t


def _call_undifferentiated(
    f: Any, args: tuple[Any, ...], call_batched: Any, prim: Primitive, rules: dict[str, Any]
) -> Any:
    """A custom function called where the current trace does not differentiate its arguments:
    under a ``vmap`` inside a differentiation (``call_batched``), in the trace that owns its
    arguments (``_primal_side``), as a call equation under ``jit``, or as plain Python."""
    outer = core.current_trace()
    if type(outer) is BatchTrace and _owns(outer, BatchTracer, args) and _differentiated(outer):
        if isinstance(f, custom_vjp) and closes_over(outer, f._fun, f._fwd, f._bwd):
            return call_custom_vjp(f, outer, args, adopt=True)  # see below
        return call_batched(f, outer, args)
    elsewhere = _primal_side(outer, args)
    if (
        type(outer) is BatchTrace
        and elsewhere is not None
        and isinstance(f, custom_jvp)
        and closes_over(outer, f._fun, f._jvp_rule)
    ):
        # the function closes over values this vmap batches: the enclosing trace that owns
        # the arguments cannot see them (closure.py)
        if type(elsewhere) is JVPTrace:
            return custom_jvp_under_batch(f, args, elsewhere, outer)
        if outer.aliases:  # inside such a rule (``f(y)`` for its primal output)
            return f._fun(*args)
    if (
        type(outer) is BatchTrace
        and elsewhere is not None
        and isinstance(f, custom_vjp)
        and closes_over(outer, f._fun, f._fwd, f._bwd)
    ):
        # the same for a custom_vjp: the whole call is batched over the vmap's axis (its
        # arguments unbatched), with fun, fwd and bwd mapped by vmaps that adopt the vmap's
        # tracers, and it then runs in the trace that owns the arguments
        return call_custom_vjp(f, outer, args, adopt=True)
    if elsewhere is not None:
        with core.using_trace(elsewhere):
            return f(*args)
    if type(outer) is JaxprTrace and static_nondiff(args, f.nondiff_argnums):
        return bind_call(prim, f, args, rules)
    return f._fun(*args)


def _refuse_tracers(arg: Any, name: str) -> None:
    """JAX's rule: a ``custom_vjp``'s ``nondiff_argnums`` may not hold tracers (its ``bwd``
    would close over a value of a trace that has ended)."""
    for leaf in tree_flatten(arg)[0]:
        if isinstance(leaf, core.Tracer):
            raise UnexpectedTracerError(
                leaf,
                f"Found a tracer ({_aval_str(core.get_aval(leaf))}) passed as a "
                f"non-differentiable argument to the custom_vjp function {name}, in a position "
                "named by nondiff_argnums. Tracers cannot be non-differentiable arguments of "
                "custom_vjp functions: use nondiff_argnums only for arguments that are not and "
                "do not hold arrays (functions, static settings), and pass arrays as ordinary "
                "arguments (their cotangent may be None).",
            )


def _differentiated(trace: Any) -> bool:
    """Whether a JVP trace encloses ``trace``, or a jaxpr trace (whose program may be
    differentiated later: ``jvp(jit(vmap(f)))`` traces the batched call, then differentiates
    it): only then does a custom rule matter."""
    while trace is not None:
        if type(trace) in (JVPTrace, JaxprTrace):
            return True
        trace = getattr(trace, "parent", None)
    return False


def _aval_str(a: ShapedArray) -> str:
    return f"{a.dtype.name}[{','.join(map(str, a.shape))}]"


def _as_symbolic(t: Any) -> Any:
    return SymbolicZero(t.aval) if type(t) is Zero else t


class custom_jvp:
    """A function with a user-defined JVP rule.

    >>> import trellax, trellax.numpy as tnp
    >>> @trellax.custom_jvp
    ... def f(x):
    ...     return tnp.sin(x)
    >>> @f.defjvp
    ... def f_jvp(primals, tangents):
    ...     (x,), (t,) = primals, tangents
    ...     return f(x), 2.0 * t
    >>> trellax.grad(f)(0.0)
    Array(2., dtype=float32, weak_type=True)
    """

    def __init__(
        self,
        fun: Callable[..., Any],
        nondiff_argnums: Sequence[int] = (),
        nondiff_argnames: Sequence[str] = (),
    ) -> None:
        functools.update_wrapper(self, fun, updated=())
        self._fun = fun
        self.nondiff_argnums = _nondiff_positions(fun, nondiff_argnums, nondiff_argnames)
        self._jvp_rule: Callable[..., Any] | None = None
        self._symbolic_zeros = False
        self._sig_cache: dict[str, Any] = {}

    def defjvp(self, jvp: Callable[..., Any], symbolic_zeros: bool = False) -> Callable[..., Any]:
        """Sets the JVP rule ``jvp(primals, tangents) -> (primal_out, tangent_out)``; with
        ``symbolic_zeros`` the tangents of arguments not being differentiated arrive as
        :class:`SymbolicZero` and the rule may return one."""
        self._jvp_rule = jvp
        self._symbolic_zeros = bool(symbolic_zeros)
        return jvp

    def defjvps(self, *jvps: Callable[..., Any] | None) -> None:
        """One rule per argument, ``rule(t, primal_out, *primals)``; ``None`` means a zero."""

        def jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
            out = self(*primals)
            total: Any = None
            for rule, t in zip(jvps, tangents):
                if rule is None:
                    continue
                term = rule(t, out, *primals)
                total = term if total is None else _tree_add(total, term)
            if total is None:
                total = _tree_zeros_like(out)
            return out, total

        self.defjvp(jvp)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    __getattr__ = forward_attr

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = _name(self._fun)
        if self._jvp_rule is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {name} using defjvp.")
        args = resolve_args(self._fun, args, kwargs, "custom_jvp", self._sig_cache)
        trace = _our_trace([a for i, a in enumerate(args) if i not in self.nondiff_argnums])
        if trace is None:
            rules = {"jvp_outputs": self._jvp_outputs, "check_out": True}
            return _call_undifferentiated(self, args, call_custom_jvp, custom_jvp_call_p, rules)
        nondiff = [args[i] for i in self.nondiff_argnums]
        diff_idx = [i for i in range(len(args)) if i not in self.nondiff_argnums]
        primals: list[Any] = []
        tangents: list[Any] = []
        for i in diff_idx:
            leaves, tree = tree_flatten(args[i])
            pairs = [trace.unpack(x) for x in leaves]
            primals.append(tree_unflatten(tree, [p for p, _ in pairs]))
            tangents.append(tree_unflatten(tree, [t for _, t in pairs]))
        with core.using_trace(trace.rule_trace):
            p_leaves, p_tree, t_leaves = self._jvp_outputs(nondiff, primals, tangents)
        wrapped = []
        for p, t in zip(p_leaves, t_leaves):
            wrapped.append(JVPTracer(trace, p, t) if t is not None else p)
        return tree_unflatten(p_tree, wrapped)

    def _jvp_outputs(
        self,
        nondiff: Sequence[Any],
        primals: Sequence[Any],
        tangents: Sequence[Any],
        expected: Any = None,
    ) -> tuple[list[Any], PyTreeDef, list[Any]]:
        """Runs the rule (in the current trace) and checks its output: the primal output
        leaves, their tree, and the tangent leaves (``None`` for a non-differentiable output);
        ``expected``, the traced function's (tree, avals), is checked first when given."""

        assert self._jvp_rule is not None
        name = _name(self._fun)
        give = _as_symbolic if self._symbolic_zeros else _materialize
        tangents = [tree_map(give, t, is_leaf=lambda x: type(x) is Zero) for t in tangents]
        out = self._jvp_rule(*nondiff, tuple(primals), tuple(tangents))
        rule = _name(self._jvp_rule)
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(
                f"Custom JVP rule {rule} for function {name} must produce a pair (list or tuple "
                "of length two) representing primal and tangent outputs, but got "
                f"{_show(out)}."
            )
        p_leaves, p_tree = tree_flatten(out[0])
        if expected is not None:
            avals = [core.get_aval(_arr(p)) for p in p_leaves]
            check_jvp_primal_out(rule, name, p_tree, avals, expected)
        t_leaves, t_tree = tree_flatten(out[1])
        if p_tree != t_tree:
            raise TypeError(
                f"Custom JVP rule {rule} for function {name} must produce primal and tangent "
                "outputs with equal container (pytree) structures, but got "
                f"{p_tree} and {t_tree} respectively."
            )
        primals_out: list[Any] = []
        tangents_out: list[Any] = []
        for p, t in zip(p_leaves, t_leaves):
            pa = core.get_aval(_arr(p))
            expected = tangent_aval(pa)
            if isinstance(t, np.ndarray) and t.dtype == float0:
                primals_out.append(p)
                tangents_out.append(None)
                continue
            symbolic = type(t) is SymbolicZero
            ta = t.aval if symbolic else core.get_aval(_arr(t))
            if ta.shape != expected.shape or ta.dtype != expected.dtype:
                raise TypeError(
                    "Custom JVP rule must produce primal and tangent outputs with corresponding "
                    f"shapes and dtypes. Expected {_aval_str(expected)} (tangent type of "
                    f"{_aval_str(pa)}) but got {_aval_str(ta)}."
                )
            if differentiable(pa.dtype) and not symbolic:
                primals_out.append(_arr(p))
                tangents_out.append(_arr(t))
            else:
                primals_out.append(p)
                tangents_out.append(None)
        return primals_out, p_tree, tangents_out


def _show(x: Any) -> str:
    try:
        return str(float(x))
    except (TypeError, ValueError):
        return repr(x)


def _tree_add(a: Any, b: Any) -> Any:

    return tree_map(lambda x, y: x + y, a, b)


def _tree_zeros_like(a: Any) -> Any:

    return tree_map(lambda x: _materialize(Zero(tangent_aval(core.get_aval(_arr(x))))), a)


# -- custom_vjp -----------------------------------------------------------------------------------


custom_lin_p = Primitive("custom_lin", multiple_results=True)


@custom_lin_p.def_abstract_eval
def _custom_lin_abstract_eval(*args: Any, num_res: int, info: _Static) -> tuple[ShapedArray, ...]:
    out_avals: tuple[ShapedArray, ...] = info.value["out_avals"]
    return out_avals


@custom_lin_p.def_impl
def _custom_lin_impl(*args: Any, num_res: int, info: _Static) -> Any:
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")


def _custom_lin_transpose(cts: Any, *args: Any, num_res: int, info: _Static) -> list[Any]:
    meta = info.value
    res = tree_unflatten(meta["res_tree"], list(args[:num_res]))
    ct_leaves = [(_as_symbolic if meta.get("symbolic") else _materialize)(c) for c in cts]
    ct = tree_unflatten(meta["out_tree"], ct_leaves)
    bwd = meta["bwd"]
    got = bwd(*meta["nondiff"], res, ct)
    in_avals: list[list[ShapedArray]] = meta["in_avals"]
    in_trees: list[PyTreeDef] = meta["in_trees"]
    if not isinstance(got, (tuple, list)) or len(got) != len(in_avals):
        primal_tree = tree_structure(tuple(0 for _ in in_avals))
        got_tree = tree_structure(got if isinstance(got, (tuple, list)) else 0)
        if isinstance(got, (tuple, list)):
            got_tree = tree_structure(tuple(0 for _ in got))
        raise TypeError(
            "Custom VJP bwd rule must produce an output with the same container (pytree) "
            "structure as the args tuple of the primal function, and in particular must produce "
            "a tuple of length equal to the number of arguments to the primal function, but got "
            f"bwd output structure {got_tree} for primal input structure {primal_tree}."
        )
    out: list[Any] = [None] * num_res
    k = 0
    for i, (g, avals, tree) in enumerate(zip(got, in_avals, in_trees)):
        if g is None:
            leaves: list[Any] = [None] * len(avals)
        else:
            leaves = _bwd_leaves(g, tree, len(avals))
            if len(leaves) != len(avals):
                raise TypeError(
                    f"Custom VJP bwd rule output[{i}] has {len(leaves)} leaves, but the "
                    f"corresponding argument has {len(avals)} (structure {tree})"
                )
        for leaf, a in zip(leaves, avals):
            value = None
            if leaf is None and differentiable(a.dtype):
                # as in JAX, a None of bwd is an instantiated zero (not a symbolic one), so the
                # custom rules upstream still run (Flax's fp8 layers update their metadata so)
                value = zeros(tangent_aval(a))
            elif type(leaf) is SymbolicZero:
                _check_symbolic_ct(leaf, a, i)
            elif leaf is not None and differentiable(a.dtype):
                la = core.get_aval(_arr(leaf))
                if la.shape != a.shape and not jax_option_flags.disable_bwd_checks.value:
                    raise ValueError(
                        "Custom VJP bwd rule must produce an output with the same type as the "
                        f"args tuple of the primal function, but at output[{i}] the bwd rule "
                        f"produced an output of type {_aval_str(la)} corresponding to an input "
                        f"of type {_aval_str(a)}, so the shapes do not match"
                    )
                value = _arr(leaf)
            if meta["mask"][k]:
                out.append(value)
            k += 1
    return out


def _check_symbolic_ct(ct: SymbolicZero, a: ShapedArray, i: int) -> None:
    want = tangent_aval(a)
    if tuple(ct.aval.shape) != tuple(want.shape) or ct.aval.dtype != want.dtype:
        raise ValueError(
            "Custom VJP bwd rule produced a SymbolicZero with a shape/dtype that does not match "
            f"the corresponding input tangent shape/dtype: at output[{i}] the SymbolicZero had "
            f"shape/dtype {_aval_str(ct.aval)} while the corresponding input had shape/dtype "
            f"{_aval_str(a)}. Consider just returning a None here instead of a SymbolicZero "
            "object."
        )


def _bwd_leaves(g: Any, tree: Any, n: int) -> list[Any]:
    """The leaves of one bwd output ``g`` against its argument's structure ``tree`` (``n``
    leaves): a ``None`` stands for as many zero cotangents as the subtree of the argument at
    its place has leaves (none, where the argument itself holds a ``None``), as in JAX."""
    dummy = tree_unflatten(tree, [object() for _ in range(n)])
    leaves: list[Any] = []

    def append(x: Any, d: Any) -> Any:
        if x is None:
            leaves.extend([None] * len(tree_flatten(d)[0]))
        else:
            leaves.append(x)
        return x

    try:
        tree_map(append, g, dummy, is_leaf=lambda x: x is None)
    except (ValueError, TypeError):  # not a prefix: count its leaves (None ones included)
        return list(tree_flatten(g, is_leaf=lambda x: x is None)[0])
    return leaves


custom_lin_p.def_transpose(_custom_lin_transpose)
# As in JAX, batching a custom_vjp's linear equation means forward mode reached it.
custom_lin_p.def_batch(lambda args, dims, **params: _custom_lin_impl(*args, **params))


class custom_vjp:
    """A function with user-defined forward and backward passes for reverse mode.

    >>> import trellax, trellax.numpy as tnp
    >>> @trellax.custom_vjp
    ... def f(x):
    ...     return tnp.sin(x)
    >>> f.defvjp(lambda x: (f(x), x), lambda res, g: (3.0 * g,))
    >>> trellax.grad(f)(0.0)
    Array(3., dtype=float32, weak_type=True)
    """

    def __init__(
        self,
        fun: Callable[..., Any],
        nondiff_argnums: Sequence[int] = (),
        nondiff_argnames: Sequence[str] = (),
    ) -> None:
        functools.update_wrapper(self, fun, updated=())
        self._fun = fun
        self.nondiff_argnums = _nondiff_positions(fun, nondiff_argnums, nondiff_argnames)
        self._fwd: Callable[..., Any] | None = None
        self._bwd: Callable[..., Any] | None = None
        self._symbolic_zeros = False
        self._sig_cache: dict[str, Any] = {}

    def defvjp(
        self,
        fwd: Callable[..., Any],
        bwd: Callable[..., Any],
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None:
        """Sets the forward pass ``fwd(*args) -> (out, residuals)`` and the backward pass
        ``bwd(residuals, cotangent) -> input cotangents``. ``optimize_remat``: where the
        residuals end up unused (a rematerialized forward pass), compute the function instead
        of ``fwd`` (:mod:`remat_opt`)."""
        if optimize_remat:
            fwd = optimize_remat_of_custom_vjp_fwd(
                self._fun, None, fwd, None, self.nondiff_argnums, symbolic_zeros
            )
        self._fwd = fwd
        self._bwd = bwd
        self._symbolic_zeros = bool(symbolic_zeros)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else functools.partial(self, obj)

    __getattr__ = forward_attr

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        name = _name(self._fun)
        if self._fwd is None or self._bwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {name} using defvjp.")
        args = resolve_args(self._fun, args, kwargs, "custom_vjp", self._sig_cache)
        for i in self.nondiff_argnums:
            _refuse_tracers(args[i], name)
        trace = _our_trace([a for i, a in enumerate(args) if i not in self.nondiff_argnums])
        if trace is None:
            rules = {"jvp_outputs": None, "batch_vjp": _batched_custom_vjp}
            return _call_undifferentiated(self, args, call_custom_vjp, custom_vjp_call_p, rules)
        diff_idx = [i for i in range(len(args)) if i not in self.nondiff_argnums]
        primal_args = list(args)
        tangents: list[Any] = []
        for i in diff_idx:
            leaves, tree = tree_flatten(args[i])
            pairs = [trace.unpack(x) for x in leaves]
            primal_args[i] = tree_unflatten(tree, [p for p, _ in pairs])
            tangents.extend(t for _, t in pairs)
        assert trace.parent is not None
        if trace.tangent_trace is None:
            # JAX runs fwd, then fails on the tangents (its custom_lin has no JVP): fwd's
            # effects (prints, callbacks) happen before the error, as there
            with core.using_trace(trace.parent):
                self._fwd(*self._fwd_args(primal_args, tangents))
            raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")
        out_tree, out_arrays, t_outs = self._linear(
            primal_args, tangents, trace.parent, trace.rule_trace
        )
        wrapped = [
            JVPTracer(trace, o, t) if differentiable(o.dtype) else o
            for o, t in zip(out_arrays, t_outs)
        ]
        return tree_unflatten(out_tree, wrapped)

    def _fwd_args(self, args: Sequence[Any], tangents: Sequence[Any]) -> list[Any]:
        """``fwd``'s arguments: with ``symbolic_zeros``, each differentiable leaf a
        :class:`CustomVJPPrimal` saying whether it is perturbed (its tangent not a zero)."""
        if not self._symbolic_zeros:
            return list(args)
        out = list(args)
        it = iter(tangents)
        for i in range(len(args)):
            if i in self.nondiff_argnums:
                continue
            leaves, tree = tree_flatten(args[i])
            out[i] = tree_unflatten(
                tree, [CustomVJPPrimal(p, type(next(it)) is not Zero) for p in leaves]
            )
        return out

    def _linear(
        self,
        args: list[Any],
        tangents: list[Any],
        parent: core.Trace,
        rule_trace: core.Trace,
        expected: tuple[PyTreeDef, Sequence[ShapedArray]] | None = None,
    ) -> tuple[PyTreeDef, list[Any], Sequence[Any]]:
        """Reverse mode: ``fwd`` run in ``parent`` on the primal ``args`` and one ``custom_lin``
        equation over the (flat, per differentiable leaf) ``tangents`` bound in ``rule_trace``;
        returns the output tree, the primal output leaves and their tangents. ``expected``: the
        primal function's output tree and types, when it was traced already (a custom function
        inside a jaxpr), which ``fwd``'s primal output must match."""
        assert self._fwd is not None and self._bwd is not None
        name = _name(self._fun)
        nondiff = [args[i] for i in self.nondiff_argnums]
        diff_idx = [i for i in range(len(args)) if i not in self.nondiff_argnums]
        mask: list[bool] = []
        live: list[Any] = []
        in_avals: list[list[ShapedArray]] = []
        in_trees: list[PyTreeDef] = []
        it = iter(tangents)
        for i in diff_idx:
            leaves, tree = tree_flatten(args[i])
            in_trees.append(tree)
            in_avals.append([core.get_aval(_arr(p)) for p in leaves])
            for _ in leaves:
                t = next(it)
                mask.append(type(t) is not Zero)
                if type(t) is not Zero:
                    live.append(t)
        with core.using_trace(parent):
            pair = self._fwd(*self._fwd_args(args, tangents))
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(
                f"Custom VJP fwd rule {_name(self._fwd)} for function {name} must produce a pair "
                "(list or tuple of length two) where the first element represents the primal "
                f"output (equal to those of the custom_vjp-decorated function {name}) and the "
                "second element represents residuals (i.e. values stored from the forward pass "
                "for use on the backward pass), but instead of a pair the fwd rule "
                f"{_name(self._fwd)} produced {_show(pair)}."
            )
        primal_out, res = pair
        out_leaves, out_tree = tree_flatten(primal_out)
        out_arrays = [_arr(o) for o in out_leaves]
        if expected is not None:
            check_fwd_primal_out(
                _name(self._fwd), name, out_tree, [core.get_aval(o) for o in out_arrays], expected
            )
        res_leaves, res_tree = tree_flatten(res)
        res_arrays = [_arr(r) for r in res_leaves]
        out_avals = tuple(tangent_aval(core.get_aval(o)) for o in out_arrays)
        info = _Static(
            {
                "bwd": self._bwd,
                "nondiff": nondiff,
                "res_tree": res_tree,
                "out_tree": out_tree,
                "out_avals": out_avals,
                "in_avals": in_avals,
                "in_trees": in_trees,
                "mask": mask,
                "symbolic": self._symbolic_zeros,
            }
        )
        with core.using_trace(rule_trace):
            t_outs = custom_lin_p.bind_multi(*res_arrays, *live, num_res=len(res_arrays), info=info)
        return out_tree, out_arrays, t_outs


# -- custom functions under vmap --------------------------------------------------------------------
#
# ``custom_jvp``/``custom_vjp`` functions under ``vmap``: the custom rule survives batching.
#
# When a custom function is called with tracers of a batching trace (``grad(vmap(f))``: the
# batching trace sits between the call and the differentiation), it is replaced by a custom
# function of the *whole batch* whose body and rules are the ``vmap`` of the originals, and that
# function is called in the batching trace's parent, where differentiation sees it and runs the
# (batched) rule. Batched arguments get their batch at axis 0; every output is batched at axis 0.
# A ``custom_vjp``'s ``bwd`` returns, for an unbatched argument, the sum of its per-example
# cotangents (the argument was shared by every example). As in JAX, ``fwd``, ``bwd`` and the JVP
# rule run once over the whole batch.
def _nondiff_batched(trace: BatchTrace, args: tuple[Any, ...], nondiff: tuple[int, ...]) -> bool:

    return _owns(trace, BatchTracer, [args[i] for i in nondiff])


def call_custom_jvp(f: Any, trace: BatchTrace, args: tuple[Any, ...]) -> Any:
    """``f(*args)`` for a ``custom_jvp`` ``f`` and arguments batched by ``trace``."""

    if _nondiff_batched(trace, args, f.nondiff_argnums):
        return _call_custom_jvp_nondiff_batched(f, trace, args)
    values, axes = unbatch(trace, args)
    nd = f.nondiff_argnums
    diff_axes = tuple(a for i, a in enumerate(axes) if i not in nd)
    batched = custom_jvp(vmap_over(f._fun, axes, trace), nondiff_argnums=nd)

    def rule(*rest: Any) -> Any:
        nondiff, (primals, tangents) = rest[: len(nd)], rest[len(nd) :]
        if f._symbolic_zeros:
            return symbolic_batched_rule(f, nondiff, primals, tangents, diff_axes, trace)

        def one(p: Any, t: Any) -> Any:
            return f._jvp_rule(*nondiff, p, t)

        return vmap_over(one, (diff_axes, diff_axes), trace)(primals, tangents)

    batched.defjvp(rule, symbolic_zeros=f._symbolic_zeros)
    assert trace.parent is not None
    with core.using_trace(trace.parent):
        out = batched(*values)
    return rewrap(trace, out)


def _call_custom_jvp_nondiff_batched(f: Any, trace: BatchTrace, args: tuple[Any, ...]) -> Any:
    """``f(*args)`` when a non-differentiable argument is batched (``vmap(f)`` with
    ``nondiff_argnums`` mapped): the function of the whole batch takes every argument as an
    operand, and its rule is the ``vmap`` of ``f``'s rule with the non-differentiable
    arguments' tangents dropped, as each example's rule sees them (JAX does the same)."""
    nd = f.nondiff_argnums
    nd_leaves = tree_flatten([args[i] for i in nd])[0]
    if f._symbolic_zeros or not all(
        isinstance(x, core.Tracer | np.ndarray | np.generic | float | int | complex | bool)
        or hasattr(x, "dtype")
        for x in nd_leaves
    ):
        return f._fun(*args)  # an object that is no array cannot be an operand: no rule
    values, axes = unbatch(trace, args)
    diff_idx = [i for i in range(len(args)) if i not in nd]
    nd_axes = tuple(axes[i] for i in nd)
    diff_axes = tuple(axes[i] for i in diff_idx)
    batched = custom_jvp(vmap_over(f._fun, axes, trace))

    def rule(primals: Any, tangents: Any) -> Any:
        def one(ndv: Any, p: Any, t: Any) -> Any:
            return f._jvp_rule(*ndv, p, t)

        return vmap_over(one, (nd_axes, diff_axes, diff_axes), trace)(
            tuple(primals[i] for i in nd),
            tuple(primals[i] for i in diff_idx),
            tuple(tangents[i] for i in diff_idx),
        )

    batched.defjvp(rule)
    assert trace.parent is not None
    with core.using_trace(trace.parent):
        out = batched(*values)
    return rewrap(trace, out)


def call_custom_vjp(f: Any, trace: BatchTrace, args: tuple[Any, ...], adopt: bool = False) -> Any:
    """``f(*args)`` for a ``custom_vjp`` ``f`` and arguments batched by ``trace`` (``adopt``:
    ``f`` closes over values ``trace`` batches)."""

    if _nondiff_batched(trace, args, f.nondiff_argnums):
        return f._fun(*args)
    values, axes = unbatch(trace, args)
    batched = _batched_custom_vjp(f, axes, trace, adopt=trace if adopt else None)
    assert trace.parent is not None
    with core.using_trace(trace.parent):
        out = batched(*values)
    return rewrap(trace, out)


def _batched_custom_vjp(
    f: Any, axes: Any, trace: Any, out_axes: Any = 0, adopt: Any = None
) -> custom_vjp:
    """The ``custom_vjp`` of the whole batch: ``vmap`` of ``f``'s function, ``fwd`` and ``bwd``
    over ``axes`` (``trace``: what has the batch's ``axis_size`` and ``axis_name``); the
    outputs batched as ``out_axes`` says (``None`` for an output the body leaves unbatched)."""
    nd = f.nondiff_argnums
    diff_axes = [a for i, a in enumerate(axes) if i not in nd]
    if f._symbolic_zeros:
        out_axes = 0  # the symbolic-zero rules batch every output
    batched = custom_vjp(vmap_over(f._fun, axes, trace, out_axes, adopt), nondiff_argnums=nd)

    def bwd(*rest: Any) -> Any:
        nondiff, (res, ct) = rest[: len(nd)], rest[len(nd) :]
        if f._symbolic_zeros:
            cts = symbolic_batched_bwd(f, nondiff, res, ct, trace)
        else:
            cts = vmap_over(lambda r, c: f._bwd(*nondiff, r, c), (0, out_axes), trace, 0, adopt)(
                res, ct
            )
        if not isinstance(cts, (tuple, list)) or len(cts) != len(diff_axes):
            return cts  # the custom_vjp machinery reports the malformed result
        return tuple(sum_shared(g, a) for g, a in zip(cts, diff_axes))

    fwd = vmap_over(f._fwd, axes, trace, (out_axes, 0), adopt)
    if f._symbolic_zeros:
        fwd = symbolic_batched_fwd(f, axes, trace)
    batched.defvjp(fwd, bwd, symbolic_zeros=f._symbolic_zeros)
    return batched


elementwise.CUSTOM_JVP.append(custom_jvp)  # lax's accuracy=HIGHEST derivatives use it
