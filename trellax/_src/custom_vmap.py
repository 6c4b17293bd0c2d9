"""``custom_batching.custom_vmap`` and ``sequential_vmap``: functions with their own ``vmap`` rule.

A ``custom_vmap`` function called with arguments batched by the current ``vmap`` runs its rule
``rule(axis_size, in_batched, *args) -> (out, out_batched)`` in the trace below the batching
trace: batched arguments arrive with their batch at axis 0, ``in_batched`` mirrors the
arguments with a bool per leaf, and ``out_batched`` says which output leaves carry the batch (at
axis 0). Called any other way (eagerly, under ``jit`` or ``grad`` with nothing batched) it calls
the function itself. Unlike JAX, it is not recorded as an equation: a jitted function that is
batched later (``vmap(jit(f))``) inlines under ``vmap`` and so still uses the rule, but a
``custom_vmap`` function inside a traced loop body batched afterwards is batched through its body.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from trellax._src import core
from trellax._src.custom_batching import _unbatch
from trellax._src.custom_derivatives import _owns
from trellax._src.interpreters.batching import BatchTrace, BatchTracer
from trellax._src.tree_util import tree_flatten, tree_map, tree_unflatten


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
            raise TypeError(
                "custom_vmap-decorated functions take positional arguments only (as in JAX)"
            )
        if self.vmap_rule is None:
            raise AttributeError(
                f"No batching rule defined for custom_vmap function {self._name} using def_vmap."
            )
        trace = core.current_trace()
        if type(trace) is not BatchTrace or not _owns(trace, BatchTracer, args):
            return self.fun(*args)
        values, axes = _unbatch(trace, args)
        in_batched = [
            tree_map(lambda d: d is not None, a, is_leaf=lambda x: x is None) for a in axes
        ]
        assert trace.parent is not None
        with core.using_trace(trace.parent):
            result = self.vmap_rule(trace.axis_size, in_batched, *values)
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
        wrapped = [BatchTracer(trace, o, 0) if b else o for o, b in zip(leaves, flags)]
        return tree_unflatten(tree, wrapped)


def sequential_vmap(f: Callable[..., Any]) -> custom_vmap:
    """``f`` batched by calling it once per batch element (``lax.map``), not by ``vmap``."""
    from trellax._src.control_flow.scan import map as lax_map

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
