"""``custom_batching.custom_vmap`` and ``sequential_vmap``: functions with their own ``vmap`` rule.

Called eagerly a ``custom_vmap`` function calls the function itself. Called under any
transformation or trace it is one ``custom_vmap_call`` equation holding the function's jaxpr
and the rule, as in JAX, so that batching it — now or after ``jit`` or a loop body traced it —
runs the rule ``rule(axis_size, in_batched, *args) -> (out, out_batched)`` in the trace below:
batched arguments arrive with their batch at axis 0, ``in_batched`` mirrors the arguments with
a bool per leaf (``None`` subtrees stay ``None``), ``out_batched`` must mirror the output
exactly, and the output's structure must be the function's. Its JVP is again a
``custom_vmap_call``, of the function's JVP, whose rule is the JVP of the rule (JAX's
construction): ``vmap(jvp(f))`` batches with the rule, and arguments whose primal and tangent
are not batched alike are mapped by an ordinary ``vmap`` of the rule's derivative. Reverse
mode differentiates the function itself (JAX refuses it; see docs/semantics.md)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.control_flow.scan import map as lax_map
from trellax._src.core import core
from trellax._src.core.core import EvalTrace, Primitive
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.custom.arguments import forward_attr, resolve_args
from trellax._src.interpreters import batching, tracing
from trellax._src.interpreters.ad import _LinearDispatch, jvp_flat
from trellax._src.interpreters.call_jaxpr import batch_body, inline_codegen, trace_call
from trellax._src.lax._base import asarray
from trellax._src.lax.ad_util import Zero, instantiate
from trellax._src.lax.shapes import moveaxis
from trellax._src.tree.tree_util import PyTreeDef, tree_flatten, tree_map, tree_unflatten


class custom_vmap:
    """A function whose batching rule is given with :meth:`def_vmap`.

    >>> import trellax, trellax.numpy as tnp
    >>> from trellax.custom_batching import custom_vmap
    >>> @custom_vmap
    ... def f(x):
    ...     return tnp.sin(x)
    >>> @f.def_vmap
    ... def rule(axis_size, in_batched, x):
    ...     return tnp.cos(x), in_batched[0]
    >>> trellax.vmap(f)(tnp.zeros(2))
    Array([1., 1.], dtype=float32)
    """

    def __init__(self, fun: Callable[..., Any]) -> None:
        functools.update_wrapper(self, fun, updated=())
        self.fun = fun
        self.vmap_rule: Callable[..., Any] | None = None
        self._name: str = getattr(fun, "__name__", type(fun).__name__)
        self._sig_cache: dict[str, Any] = {}

    __getattr__ = forward_attr

    def def_vmap(self, vmap_rule: Callable[..., Any]) -> Callable[..., Any]:
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        args = resolve_args(self.fun, args, kwargs, "custom_vmap", self._sig_cache)
        if self.vmap_rule is None:
            raise AttributeError(
                f"No batching rule defined for custom_vmap function {self._name} using def_vmap."
            )
        if isinstance(core.current_trace(), EvalTrace):
            return self.fun(*args)
        return self._bind(args)

    def _run_rule(
        self, size: int, in_batched: Any, values: Sequence[Any]
    ) -> tuple[list[Any], list[bool], PyTreeDef]:
        """The rule's output leaves, which of them are batched, and the output tree."""
        assert self.vmap_rule is not None
        result = self.vmap_rule(size, in_batched, *values)
        rule_name = getattr(self.vmap_rule, "__name__", type(self.vmap_rule).__name__)
        if not isinstance(result, tuple | list) or len(result) != 2:
            raise ValueError(
                f"the vmap rule of custom_vmap function {self._name} must return a pair "
                f"(output, out_batched); got {type(result).__name__}"
            )
        out, out_batched = result
        leaves, tree = tree_flatten(out)
        flags, flag_tree = tree_flatten(out_batched)
        if flag_tree != tree:
            raise ValueError(
                "structure of output value and output batching specification returned by "
                f"custom vmap rule ({rule_name}) do not match.\nOutputs: {tree}\n"
                f"Batching spec: {flag_tree}"
            )
        return [asarray(o) for o in leaves], [bool(b) for b in flags], tree

    def _bind(self, args: tuple[Any, ...]) -> Any:
        """One ``custom_vmap_call`` equation in the current (non-eager) trace."""
        leaves, in_tree = tree_flatten(list(args))
        arrays = [asarray(x) for x in leaves]
        box: list[PyTreeDef] = []

        def flat_fun(*xs: Any) -> list[Any]:
            out_leaves, out_tree = tree_flatten(self.fun(*tree_unflatten(in_tree, list(xs))))
            box.append(out_tree)
            return [asarray(o) for o in out_leaves]

        call, consts = trace_call(flat_fun, arrays, self._name)
        outs = custom_vmap_call_p.bind_multi(
            *consts,
            *arrays,
            call=call,
            num_consts=len(consts),
            rule=_Rule(self, in_tree, box[0]),
        )
        return tree_unflatten(box[0], list(outs))


class _Rule:
    """The function (with its rule) and its trees, as one hashable equation parameter."""

    __slots__ = ("f", "in_tree", "out_tree")

    def __init__(self, f: custom_vmap, in_tree: PyTreeDef, out_tree: PyTreeDef) -> None:
        self.f, self.in_tree, self.out_tree = f, in_tree, out_tree

    def __repr__(self) -> str:
        return f"<vmap rule of {self.f._name}>"

    @property
    def name(self) -> str:
        return self.f._name

    def run(
        self, size: int, values: Sequence[Any], batched: Sequence[bool]
    ) -> tuple[list[Any], list[bool]]:
        """The rule on flat arguments (batch at axis 0 where ``batched``): flat outputs and
        which of them carry the batch (at axis 0)."""
        args = tree_unflatten(self.in_tree, list(values))
        in_batched = tree_unflatten(self.in_tree, list(batched))
        leaves, flags, tree = self.f._run_rule(size, in_batched, args)
        if tree != self.out_tree:
            rule = self.f.vmap_rule
            raise ValueError(
                "structure of output returned by custom vmap rule "
                f"({getattr(rule, '__name__', rule)}) does not match that of original "
                f"custom-vmapped function ({self.f._name}): {tree} vs. {self.out_tree}"
            )
        return leaves, flags


class _JvpRule:
    """The batching rule of the JVP of a ``custom_vmap`` call (JAX's construction): the
    inner rule is applied to the arguments whose primal and tangent are both batched, and
    differentiated; the arguments where only one of the two is batched are mapped over by an
    ordinary ``vmap`` of that derivative. Arguments: primals then tangents; so are the outputs."""

    __slots__ = ("inner", "n_in")

    def __init__(self, inner: _Rule | _JvpRule, n_in: int) -> None:
        self.inner, self.n_in = inner, n_in

    def __repr__(self) -> str:
        return f"<jvp of {self.inner!r}>"

    @property
    def name(self) -> str:
        return f"jvp({self.inner.name})"

    def run(
        self, size: int, values: Sequence[Any], batched: Sequence[bool]
    ) -> tuple[list[Any], list[bool]]:
        n = self.n_in
        pb, tb = list(batched[:n]), list(batched[n:])
        both = [p and t for p, t in zip(pb, tb)]
        extra = [0 if p and not t else None for p, t in zip(pb, tb)] + [
            0 if t and not p else None for p, t in zip(pb, tb)
        ]
        inner_flags: list[list[bool]] = []

        def rule_primal(*xs: Any) -> list[Any]:
            outs, flags = self.inner.run(size, xs, both)
            inner_flags.append(flags)
            return outs

        def rule_jvp(*xs: Any) -> list[Any]:
            outs, touts = jvp_flat(rule_primal, xs[:n], xs[n:])
            return [*outs, *[instantiate(t) for t in touts]]

        if any(d is not None for d in extra):
            outs, dims = batching.batch_flat(rule_jvp, values, extra, size, None)
            outs = [o if d is None else moveaxis(o, d, 0) for o, d in zip(outs, dims)]
            mapped = [d is not None for d in dims]
        else:
            outs = rule_jvp(*values)
            mapped = [False] * len(outs)
        flags = inner_flags[0] * 2
        return outs, [f or m for f, m in zip(flags, mapped)]


custom_vmap_call_p = Primitive("custom_vmap_call", multiple_results=True)
custom_vmap_call_p.def_abstract_eval(lambda *args, call, **params: tuple(call.out_avals))
custom_vmap_call_p.def_impl(
    lambda *args, **params: tracing.run_equation(custom_vmap_call_p, args, params)
)


tracing.codegen_rules[custom_vmap_call_p] = inline_codegen("call")


@custom_vmap_call_p.def_jvp
def _custom_vmap_call_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    call: ClosedJaxpr,
    num_consts: int,
    rule: _Rule | _JvpRule,
) -> tuple[Any, Any]:
    if isinstance(core.current_trace(), _LinearDispatch) or any(
        type(t) is not Zero for t in tangents[:num_consts]
    ):
        # reverse mode (JAX refuses it outright; trellax differentiates the function, which
        # also lets a custom_vjp whose fwd holds a custom_vmap be linearized under vmap), or a
        # function closing over a value being differentiated, which its rule cannot see
        outs, t_outs = jvp_flat(lambda *xs: tracing.eval_jaxpr(call, *xs), primals, tangents)
        return tuple(outs), tuple(t_outs)
    # as JAX: the derivative is again a custom_vmap call, of the function's JVP, whose rule is
    # the JVP of the rule (so vmap of jvp batches with the rule, not through the function)
    consts, ps = primals[:num_consts], list(primals[num_consts:])
    ts = [instantiate(t) for t in tangents[num_consts:]]
    n = len(ps)

    def jvp_of_call(*xs: Any) -> list[Any]:
        outs, touts = jvp_flat(lambda *ys: tracing.eval_jaxpr(call, *consts, *ys), xs[:n], xs[n:])
        return [*outs, *[instantiate(t) for t in touts]]

    jcall, jconsts = trace_call(jvp_of_call, [*ps, *ts], rule.name)
    both = custom_vmap_call_p.bind_multi(
        *jconsts, *ps, *ts, call=jcall, num_consts=len(jconsts), rule=_JvpRule(rule, n)
    )
    m = len(both) // 2
    return tuple(both[:m]), tuple(both[m:])


@custom_vmap_call_p.def_batch
def _custom_vmap_call_batch(
    args: Sequence[Any],
    dims: Sequence[Any],
    *,
    call: ClosedJaxpr,
    num_consts: int,
    rule: _Rule | _JvpRule,
) -> tuple[Any, Any]:

    size = batching.current_axis().size
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    if any(d is not None for d in dims[:num_consts]):
        return batch_body(call, args, dims)  # a batched closed-over value: the rule cannot see it
    leaves, flags = rule.run(size, moved[num_consts:], [d is not None for d in dims[num_consts:]])
    return leaves, [0 if b else None for b in flags]


def sequential_vmap(f: Callable[..., Any]) -> custom_vmap:
    """``f`` batched by calling it once per batch element (``lax.map``), not by ``vmap``."""

    g = custom_vmap(f)

    @g.def_vmap
    def rule(axis_size: int, in_batched: list[Any], *args: Any) -> tuple[Any, Any]:
        flags = tree_flatten(list(in_batched))[0]
        leaves, tree = tree_flatten(list(args))
        mapped = [x for x, b in zip(leaves, flags) if b]

        def one(xs: Any) -> Any:
            it = iter(xs)
            full = [next(it) if b else x for x, b in zip(leaves, flags)]
            return g(*tree_unflatten(tree, full))  # the custom function, as JAX's map body

        out = lax_map(one, mapped)
        return out, tree_map(lambda _: True, out)

    return g
