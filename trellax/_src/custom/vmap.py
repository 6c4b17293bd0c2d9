"""``custom_batching.custom_vmap`` and ``sequential_vmap``: functions with their own ``vmap`` rule.

A ``custom_vmap`` function called with arguments batched by the current ``vmap`` runs its rule
``rule(axis_size, in_batched, *args) -> (out, out_batched)`` in the trace below the batching
trace: batched arguments arrive with their batch at axis 0, ``in_batched`` mirrors the
arguments with a bool per leaf, and ``out_batched`` says which output leaves carry the batch (at
axis 0). Traced into a jaxpr (``jit``, a loop body) it is one ``custom_vmap_call`` equation
holding the function's jaxpr and the rule, as in JAX, so batching the jaxpr later still uses the
rule. Called any other way (eagerly, or with nothing batched) it calls the function itself.
Differentiating it differentiates the function (JAX refuses reverse mode there).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from trellax._src.control_flow.scan import map as lax_map
from trellax._src.core import core
from trellax._src.core.core import EvalTrace, Primitive
from trellax._src.core.jaxpr import ClosedJaxpr
from trellax._src.custom.derivatives import _owns, _unbatch
from trellax._src.interpreters import batching, tracing
from trellax._src.interpreters.ad import jvp_flat
from trellax._src.interpreters.batching import BatchTrace, BatchTracer
from trellax._src.interpreters.call_jaxpr import batch_body, inline_codegen, trace_call
from trellax._src.lax._base import asarray
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

    def def_vmap(self, vmap_rule: Callable[..., Any]) -> Callable[..., Any]:
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            bound = inspect.signature(self.fun).bind(*args, **kwargs)
            bound.apply_defaults()
            args = tuple(bound.arguments.values())
        if self.vmap_rule is None:
            raise AttributeError(
                f"No batching rule defined for custom_vmap function {self._name} using def_vmap."
            )
        trace = core.current_trace()
        if type(trace) is BatchTrace and _owns(trace, BatchTracer, args):
            return self._batched(trace, args)
        if isinstance(trace, EvalTrace):
            return self.fun(*args)
        return self._bind(args)

    def _batched(self, trace: BatchTrace, args: tuple[Any, ...]) -> Any:
        values, axes = _unbatch(trace, args)
        in_batched = [
            tree_map(lambda d: d is not None, a, is_leaf=lambda x: x is None) for a in axes
        ]
        assert trace.parent is not None
        with core.using_trace(trace.parent):
            leaves, flags, tree = self._run_rule(trace.axis_size, in_batched, values)
        wrapped = [BatchTracer(trace, o, 0) if b else o for o, b in zip(leaves, flags)]
        return tree_unflatten(tree, wrapped)

    def _run_rule(
        self, size: int, in_batched: Any, values: Sequence[Any]
    ) -> tuple[list[Any], list[bool], PyTreeDef]:
        """The rule's output leaves, which of them are batched, and the output tree."""
        assert self.vmap_rule is not None
        result = self.vmap_rule(size, in_batched, *values)
        if not isinstance(result, tuple | list) or len(result) != 2:
            raise ValueError(
                f"the vmap rule of custom_vmap function {self._name} must return a pair "
                f"(output, out_batched); got {type(result).__name__}"
            )
        out, out_batched = result
        leaves, tree = tree_flatten(out)
        flags, flag_tree = tree_flatten(out_batched)
        if flag_tree != tree and len(flags) == 1:
            flags = flags * len(leaves)  # one bool for the whole output
        elif flag_tree != tree:
            raise ValueError(
                f"the vmap rule of custom_vmap function {self._name} returned out_batched "
                f"with structure {flag_tree}, which does not match the output's {tree}"
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


custom_vmap_call_p = Primitive("custom_vmap_call", multiple_results=True)
custom_vmap_call_p.def_abstract_eval(lambda *args, call, **params: tuple(call.out_avals))
custom_vmap_call_p.def_impl(
    lambda *args, **params: tracing.run_equation(custom_vmap_call_p, args, params)
)


tracing.codegen_rules[custom_vmap_call_p] = inline_codegen("call")


@custom_vmap_call_p.def_jvp
def _custom_vmap_call_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, call: ClosedJaxpr, **params: Any
) -> tuple[Any, Any]:

    outs, t_outs = jvp_flat(lambda *xs: tracing.eval_jaxpr(call, *xs), primals, tangents)
    return tuple(outs), tuple(t_outs)


@custom_vmap_call_p.def_batch
def _custom_vmap_call_batch(
    args: Sequence[Any], dims: Sequence[Any], *, call: ClosedJaxpr, num_consts: int, rule: _Rule
) -> tuple[Any, Any]:

    size = batching.current_axis().size
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    if any(d is not None for d in dims[:num_consts]):
        return batch_body(call, args, dims)  # a batched closed-over value: the rule cannot see it
    values = tree_unflatten(rule.in_tree, moved[num_consts:])
    in_batched = tree_unflatten(rule.in_tree, [d is not None for d in dims[num_consts:]])
    leaves, flags, _ = rule.f._run_rule(size, in_batched, values)
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
            return f(*tree_unflatten(tree, full))

        out = lax_map(one, mapped)
        return out, tree_map(lambda _: True, out)

    return g
